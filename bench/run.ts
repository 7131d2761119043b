/**
 * `npm run bench`: measures the client, the session under expiry, the serialized provider, heap growth
 * and require cost, each against a baseline measured in the same run (these machines are noisy), and
 * prints one Markdown table. Loopback only.
 */
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Agent, Pool } from "undici";
import { startEmulator } from "../emulator";
import { createClient, Session } from "../sdk";
import { _spawnProvider, _stopProvider, startProviderHost } from "../test/support/engine/provider-host";
import { startPlugin } from "../test/support/engine/plugin-host";
import { _installedProgram, _runInProgram, MOCKS_PRELUDE } from "../test/support/program";
import { _removeRunTempDirs } from "../test/support/temp";
import { engineUp } from "./engine-up";
import { providerPhases } from "./provider-phases";
import { type BenchRow, fmt, median } from "./stats";
import { tofuBench } from "./tofu";
import { tofuStart } from "./tofu-start";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "..", "..");
const TOKEN = "bench-token";
const BODY = JSON.stringify({
  access_rules: { limit: 1000, used: 3 },
  dedicated_ipv4: { limit: 1, used: 0 },
  devices: { limit: 10, used: 1 },
  dns_servers: { limit: 5, used: 1 },
  requests: { limit: 1_000_000, used: 42 },
  user_rules: { limit: 1000, used: 12 },
});

const rows: BenchRow[] = [];
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/**
 * A minimal server in its own process (so the clients, not it, share this process's CPU): checks the
 * bearer token and answers a small JSON body.
 */
async function benchServer(): Promise<{ url: string; close(): void }> {
  const code = `
const body = ${JSON.stringify(BODY)};
const server = require("node:http").createServer((req, res) => {
  if (req.headers.authorization !== "Bearer ${TOKEN}") { res.writeHead(401).end(); return; }
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 10000;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve, reject) => {
    child.once("error", reject);
    child.stdout.once("data", (d: Buffer) => resolve(d.toString().trim()));
  });
  return { url: `http://127.0.0.1:${port}`, close: () => child.kill() };
}

/** Runs `total` calls with `concurrency` workers; returns requests/s and per-call latencies (ms). */
async function load(call: () => Promise<unknown>, total: number, concurrency: number): Promise<{ rps: number; lat: number[] }> {
  const lat: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) {
        const s = performance.now();
        await call();
        lat.push(performance.now() - s);
      }
    }),
  );
  return { rps: total / ((performance.now() - t0) / 1000), lat };
}

/**
 * Typed and untyped calls as users make them, against the strongest raw baselines: undici's
 * `Pool.request` and `Agent.request` with a plain options object and `body.json()` (the better of the
 * two is the baseline), and global fetch for reference; at 1 and at 32 concurrent callers.
 */
async function throughput(): Promise<void> {
  const { url, close } = await benchServer();
  const session = new Session({ baseUrl: url, credentials: { accessToken: TOKEN, tokenType: "bearer", expiresIn: 0, expiresAt: Number.POSITIVE_INFINITY } });
  const client = createClient({ baseUrl: url, session });
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const pool = new Pool(url, { keepAliveTimeout: 10_000 });
  const path = "/oapi/v1/account/limits";
  const headers = { authorization: `Bearer ${TOKEN}` };
  const clients: Record<string, () => Promise<unknown>> = {
    typed: () => client.account.limits(),
    untyped: () => client.request({ path: "/account/limits" }),
    pool: async () => (await pool.request({ path, method: "GET", headers })).body.json(),
    agent: async () => (await agent.request({ origin: url, path, method: "GET", headers })).body.json(),
  };
  const fetchCall = async () => (await fetch(`${url}${path}`, { headers })).json();
  for (const concurrency of [1, 32]) {
    // Short bursts, many rounds, the four clients back to back in a rotating order; each round gives
    // one ratio against the stronger raw baseline (the one with the higher median over all rounds) in
    // that same round, and the median ratio is reported. On a shared machine the neighbours' load drifts
    // by the second: only adjacent bursts compare. (Taking each round's better baseline instead would
    // compare one noisy sample with the larger of two, which biases every ratio down by the noise.)
    const total = concurrency === 1 ? 500 : 3000;
    const rounds = concurrency === 1 ? 41 : 15;
    const names = Object.keys(clients);
    for (const name of names) await load(clients[name]!, 2000, concurrency); // warm-up
    const rps: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    const lat: Record<string, number[][]> = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round < rounds; round++) {
      for (const name of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) {
        const r = await load(clients[name]!, total, concurrency);
        rps[name]!.push(r.rps);
        lat[name]!.push(r.lat);
      }
    }
    const best = median(rps.pool!) >= median(rps.agent!) ? "pool" : "agent";
    const perRound = (ours: string) => rps[ours]!.map((v, i) => v / rps[best]![i]!);
    const ratios = { typed: perRound("typed"), untyped: perRound("untyped") };
    for (const [ours, target] of [["typed", 0.9], ["untyped", 0.95]] as const) {
      const ratio = median(ratios[ours]);
      rows.push({
        what: `${ours === "typed" ? "client.account.limits()" : "client.request()"} vs raw Pool/Agent.request + body.json() (req/s, ${concurrency} caller${concurrency > 1 ? "s" : ""}; median of ${rounds} paired rounds)`,
        ours: fmt(median(rps[ours]!), 0),
        baseline: fmt(median(rps[best]!), 0),
        ratio: `${fmt(ratio)}×`,
        target: `≥ ${target}×`,
        met: ratio >= target,
      });
    }
    const fetchRps: number[] = [];
    const typedRps: number[] = [];
    for (let round = 0; round < 5; round++) {
      fetchRps.push((await load(fetchCall, total, concurrency)).rps);
      typedRps.push((await load(clients.typed!, total, concurrency)).rps);
    }
    rows.push({
      what: `client.account.limits() vs global fetch + res.json() (req/s, ${concurrency} caller${concurrency > 1 ? "s" : ""})`,
      ours: fmt(median(typedRps), 0),
      baseline: fmt(median(fetchRps), 0),
      ratio: `${fmt(median(typedRps) / median(fetchRps))}×`,
      target: "(reported)",
      met: true,
    });
    if (concurrency === 32) {
      const p = (n: string, q: number) => median(lat[n]!.map((l) => percentile(l, q)));
      for (const q of [50, 99]) {
        rows.push({
          what: `client.account.limits() p${q} latency vs raw ${best === "pool" ? "Pool" : "Agent"}.request (ms, 32 callers)`,
          ours: fmt(p("typed", q), 3),
          baseline: fmt(p(best, q), 3),
          ratio: `${fmt(p("typed", q) / p(best, q))}×`,
          target: "(reported)",
          met: true,
        });
      }
    }
  }
  await client.close();
  await agent.close();
  await pool.close();
  close();
}

/**
 * A minimal node:http token endpoint doing the emulator's work for a password grant (read the form,
 * check the credentials, mint two random tokens, remember them, answer JSON): the emulator's floor.
 */
async function minimalTokenServer(): Promise<{ url: string; server: Server }> {
  const refresh = new Map<string, string>();
  const access = new Map<string, { user: string; exp: number }>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      if (!(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded") || form.get("grant_type") !== "password") {
        res.writeHead(400).end();
        return;
      }
      if (form.get("username") !== "user@example.com" || form.get("password") !== "emulator-password") {
        res.writeHead(401).end();
        return;
      }
      const r = randomBytes(20).toString("base64url");
      const a = randomBytes(20).toString("base64url");
      refresh.set(r, "user@example.com");
      access.set(a, { user: "user@example.com", exp: Date.now() + 3600_000 });
      const body = JSON.stringify({ access_token: a, token_type: "bearer", refresh_token: r, expires_in: 3600 });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "cache-control": "no-store" });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** The emulator's token endpoint (password grant) against {@link minimalTokenServer}, same client. */
async function emulatorTokens(): Promise<void> {
  const emu = await startEmulator({ tokenLifetimeSeconds: 3600 });
  const minimal = await minimalTokenServer();
  const form = new URLSearchParams({ grant_type: "password", username: "user@example.com", password: "emulator-password" }).toString();
  const pools = { emulator: new Pool(emu.url), minimal: new Pool(minimal.url) };
  const call = (pool: Pool) => async () => {
    const res = await pool.request({ path: "/oapi/v1/oauth_token", method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form });
    if (res.statusCode !== 200) throw new Error(`token endpoint answered ${res.statusCode}`);
    return res.body.json();
  };
  for (const concurrency of [1, 32]) {
    const rps: Record<"emulator" | "minimal", number[]> = { emulator: [], minimal: [] };
    const ratios: number[] = [];
    for (const name of ["emulator", "minimal"] as const) await load(call(pools[name]), 1000, concurrency);
    for (let round = 0; round < 9; round++) {
      for (const name of ["emulator", "minimal"] as const) rps[name].push((await load(call(pools[name]), concurrency === 1 ? 1000 : 3000, concurrency)).rps);
      ratios.push(rps.emulator[round]! / rps.minimal[round]!);
    }
    const ratio = median(ratios);
    rows.push({
      what: `emulator token endpoint vs a minimal node:http one (password grants/s, ${concurrency} caller${concurrency > 1 ? "s" : ""}; median of 9 paired rounds)`,
      ours: fmt(median(rps.emulator), 0),
      baseline: fmt(median(rps.minimal), 0),
      ratio: `${fmt(ratio)}×`,
      target: "≥ 0.9×",
      met: ratio >= 0.9,
    });
  }
  await pools.emulator.close();
  await pools.minimal.close();
  await emu.close();
  minimal.server.closeAllConnections();
  minimal.server.close();
}

/**
 * `dns-account token` and `exec-credential` with a valid cached token: the whole process, as kubectl
 * runs it on every call, against `node -e 0`. Alternated, 15 samples each, medians of wall time.
 */
async function cliCached(): Promise<void> {
  const emu = await startEmulator({ tokenLifetimeSeconds: 3600 });
  const dir = mkdtempSync(path.join(tmpdir(), "dns-account-bench-"));
  const cli = path.join(ROOT, "dist", "cli", "main.js");
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? "", HOME: dir, DNS_ACCOUNT_CONFIG_DIR: path.join(dir, "config") };
  try {
    await run(process.execPath, [cli, "login"], {
      env: { ...env, DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_USERNAME: "user@example.com", DNS_ACCOUNT_PASSWORD: "emulator-password" },
    });
    const wall = async (args: string[]) => {
      const t = performance.now();
      await run(process.execPath, args, { env });
      return performance.now() - t;
    };
    for (const command of ["token", "exec-credential"]) {
      const ours: number[] = [];
      const base: number[] = [];
      const before = emu.stats.tokenCalls;
      await wall([cli, command]);
      await wall(["-e", "0"]);
      const ratios: number[] = [];
      for (let i = 0; i < 15; i++) {
        ours.push(await wall([cli, command]));
        base.push(await wall(["-e", "0"]));
        ratios.push(ours[i]! / base[i]!);
      }
      const ratio = median(ratios);
      rows.push({
        what: `dns-account ${command}, valid cached token: whole process vs node -e 0 (ms, median of 15 pairs${emu.stats.tokenCalls === before ? "" : "; MADE TOKEN CALLS"})`,
        ours: fmt(median(ours), 1),
        baseline: fmt(median(base), 1),
        ratio: `${fmt(ratio)}×`,
        target: "≤ 1.3×",
        met: ratio <= 1.3 && emu.stats.tokenCalls === before,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await emu.close();
  }
}

async function expiry(): Promise<void> {
  let now = Date.now();
  const clock = { now: () => now };
  const emu = await startEmulator({ tokenLifetimeSeconds: 3600, now: clock.now });
  const client = createClient({ baseUrl: emu.url, credentials: { username: "user@example.com", password: "emulator-password" }, clock });
  await client.account.limits();
  const p99 = async (cross: boolean) => {
    if (cross) now += 3600_000;
    emu.resetStats();
    const lat = await Promise.all(
      Array.from({ length: 1000 }, async () => {
        const s = performance.now();
        await client.request({ path: "/account/limits" });
        return performance.now() - s;
      }),
    );
    return { p99: percentile(lat, 99), tokenCalls: emu.stats.tokenCalls };
  };
  const steady: number[] = [];
  const crossing: number[] = [];
  const calls: number[] = [];
  for (let round = 0; round < 5; round++) {
    steady.push((await p99(false)).p99);
    const c = await p99(true);
    crossing.push(c.p99);
    calls.push(c.tokenCalls);
  }
  rows.push({
    what: "1,000 concurrent calls across one expiry: token calls per expiry",
    ours: calls.join(", "),
    baseline: "1",
    ratio: "",
    target: "exactly 1",
    met: calls.every((c) => c === 1),
  });
  const ratio = median(crossing) / median(steady);
  rows.push({
    what: "…their p99 vs the same burst without expiry (ms)",
    ours: fmt(median(crossing)),
    baseline: fmt(median(steady)),
    ratio: `${fmt(ratio)}×`,
    target: "≤ 1.1×",
    met: ratio <= 1.1,
  });
  await client.close();
  await emu.close();
}

async function provider(): Promise<void> {
  const { stdout } = await _runInProgram(
    "bench-serialize",
    `const pulumi = require("@pulumi/pulumi");
const provider = require("pulumi-dns-account/dist/provider/token/provider.js");
(async () => {
  const time = async (f) => { const ts = []; for (let i = 0; i < 30; i++) { const t = process.hrtime.bigint(); await pulumi.runtime.serializeFunction(f, { allowSecrets: true }); ts.push(Number(process.hrtime.bigint() - t) / 1e6); } ts.sort((a, b) => a - b); return ts[15]; };
  const text = (await pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })).text;
  const ours = await time(() => provider);
  const trivial = await time(() => 42);
  console.log(JSON.stringify({ size: Buffer.byteLength(text), ours, trivial }));
})();`,
  );
  const r = JSON.parse(stdout) as { size: number; ours: number; trivial: number };
  rows.push({ what: "Serialized __provider per Token (bytes)", ours: String(r.size), baseline: "1024", ratio: `${fmt(r.size / 1024)}×`, target: "≤ 1 KB", met: r.size <= 1024 });
  rows.push({
    what: "Serialization time vs a trivial closure (ms, median of 30)",
    ours: fmt(r.ours, 3),
    baseline: fmt(r.trivial, 3),
    ratio: `${fmt(r.ours / r.trivial)}×`,
    target: "(reported)",
    met: true,
  });
}

async function heap(): Promise<void> {
  const script = (which: "ours" | "undici") => `
const { createServer } = require("node:http");
const sdk = require(${JSON.stringify(path.join(ROOT, "dist", "sdk"))});
const { Agent } = require("undici");
const body = ${JSON.stringify(BODY)};
const server = createServer((req, res) => { res.writeHead(200, { "content-type": "application/json" }); res.end(body); });
server.listen(0, "127.0.0.1", async () => {
  const url = "http://127.0.0.1:" + server.address().port;
  const session = new sdk.Session({ baseUrl: url, credentials: { accessToken: "t", tokenType: "bearer", expiresIn: 0, expiresAt: Infinity } });
  const client = sdk.createClient({ baseUrl: url, session });
  const agent = new Agent();
  const call = ${which === "ours" ? `() => client.request({ path: "/x" })` : `async () => (await agent.request({ origin: url, path: "/oapi/v1/x", method: "GET", headers: { authorization: "Bearer t" } })).body.json()`};
  const batch = async (n) => { for (let i = 0; i < n; i += 50) await Promise.all(Array.from({ length: 50 }, call)); };
  await batch(5000); gc(); gc();
  const before = process.memoryUsage().heapUsed;
  await batch(100000); gc(); gc();
  console.log(JSON.stringify({ growth: process.memoryUsage().heapUsed - before }));
  process.exit(0);
});`;
  const growth = async (which: "ours" | "undici") =>
    (JSON.parse((await run(process.execPath, ["--expose-gc", "-e", script(which)], { cwd: ROOT, maxBuffer: 1 << 20 })).stdout) as { growth: number }).growth;
  const ours = await growth("ours");
  const base = await growth("undici");
  const mb = (b: number) => fmt(b / (1024 * 1024));
  rows.push({ what: "Heap growth over 100,000 calls after GC (MB)", ours: mb(ours), baseline: `${mb(base)} (raw Agent.request)`, ratio: "", target: "< 5 MB", met: ours < 5 * 1024 * 1024 });
}

/** A fresh `node` per sample timing one `require()` in-process; `forbid` must not get loaded. */
async function requireMs(mod: string, forbid?: string): Promise<number> {
  const check = forbid ? `if (Object.keys(require.cache).some((k) => k.includes(${JSON.stringify(forbid)}))) throw new Error("loaded ${forbid}");` : "";
  // CPU time of the require (user + system): on a shared machine, wall time mostly measures the neighbours.
  const code = `const t = process.cpuUsage(); require(${JSON.stringify(mod)}); const u = process.cpuUsage(t); const ms = (u.user + u.system) / 1e3; ${check} console.log(ms)`;
  return Number((await run(process.execPath, ["-e", code], { cwd: ROOT })).stdout);
}

async function requireCost(): Promise<void> {
  const pairs = [
    { what: 'require("pulumi-dns-account/sdk") vs require("undici") (ms; no @pulumi loaded)', ours: path.join(ROOT, "dist", "sdk"), base: "undici", forbid: "@pulumi", target: 1.1 },
    { what: 'require("pulumi-dns-account") vs require("@pulumi/pulumi") (ms)', ours: ROOT, base: "@pulumi/pulumi", forbid: undefined, target: 1.05 },
  ];
  for (const pair of pairs) {
    const ours: number[] = [];
    const base: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < 15; i++) {
      ours.push(await requireMs(pair.ours, pair.forbid));
      base.push(await requireMs(pair.base));
      ratios.push(ours[i]! / base[i]!);
    }
    // The median of the paired ratios: each pair ran back to back, so a neighbour's burst hits both.
    const ratio = median(ratios);
    rows.push({
      what: `${pair.what.slice(0, -1)}, CPU, median of 15 pairs)`,
      ours: fmt(median(ours), 1),
      baseline: fmt(median(base), 1),
      ratio: `${fmt(ratio)}×`,
      target: `≤ ${pair.target}×`,
      met: ratio <= pair.target,
    });
  }
}

/**
 * The first lifecycle call of a provider process (every up, refresh and destroy starts a provider host,
 * whose first call loads our modules): a Device refresh in a fresh process that has @pulumi/pulumi
 * loaded already, as the host has, against the strongest baseline — the same GET and JSON parse with
 * node:http alone in a fresh process just like it. CPU time of the call, from the first require on.
 */
async function hostFirstCall(): Promise<void> {
  const emu = await startEmulator({ apiKeys: [{ key: "bench-first-call-key", username: "user@example.com" }] });
  try {
    const client = createClient({ baseUrl: emu.url, apiKey: "bench-first-call-key" });
    const [server] = await client.dnsServers.list();
    const device = await client.devices.create({ name: "Bench", device_type: "LINUX", dns_server_id: server!.id });
    await client.close();
    const lifecycle = path.join(ROOT, "dist", "provider", "device", "lifecycle.js");
    const prelude = `require("@pulumi/pulumi"); const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; };`;
    const ours = `${prelude}
(async () => {
  const t = cpu(); const w = performance.now(); const before = Object.keys(require.cache).length;
  const ctx = { config: { baseUrl: ${JSON.stringify(emu.url)}, apiKey: "bench-first-call-key" }, allowInsecureHttp: false, warn() {} };
  const r = await require(${JSON.stringify(lifecycle)}).read(ctx, ${JSON.stringify(device.id)}, { deviceId: ${JSON.stringify(device.id)}, deleteOnDestroy: false });
  if (r.id !== ${JSON.stringify(device.id)}) throw new Error("read failed");
  console.log(JSON.stringify({ cpu: cpu() - t, wall: performance.now() - w, modules: Object.keys(require.cache).length - before }));
  process.exit(0);
})();`;
    const base = `${prelude}
const t = cpu(); const w = performance.now();
require("node:http").get(${JSON.stringify(`${emu.url}/oapi/v1/devices/${device.id}`)}, { headers: { authorization: "ApiKey bench-first-call-key" } }, (res) => {
  let body = ""; res.on("data", (d) => (body += d)); res.on("end", () => { JSON.parse(body); console.log(JSON.stringify({ cpu: cpu() - t, wall: performance.now() - w })); process.exit(0); });
});`;
    const once = async (code: string) => JSON.parse((await run(process.execPath, ["-e", code], { cwd: ROOT })).stdout) as { cpu: number; wall: number; modules?: number };
    const oursCpu: number[] = [];
    const baseCpu: number[] = [];
    const ratios: number[] = [];
    let modules = 0;
    for (let i = 0; i < 9; i++) {
      const o = await once(ours);
      const b = await once(base);
      oursCpu.push(o.cpu);
      baseCpu.push(b.cpu);
      ratios.push(o.cpu / b.cpu);
      modules = o.modules ?? 0;
    }
    rows.push({
      what: `Provider host's first call (a Device refresh, fresh process with @pulumi/pulumi loaded) vs the same GET with node:http (ms CPU, median of 9 pairs; ${modules} modules loaded)`,
      ours: fmt(median(oursCpu), 1),
      baseline: fmt(median(baseCpu), 1),
      ratio: `${fmt(median(ratios))}×`,
      target: "(reported)",
      met: true,
    });
  } finally {
    await emu.close();
  }
}

/**
 * The native plugin against the dynamic-provider host, both started as the engine starts them from an
 * `npm pack` install: wall time from spawn to a connected port, and the first create of a Device in that
 * fresh process (configure, then create over gRPC). Paired samples, median of the paired ratios.
 */
async function plugin(): Promise<void> {
  const program = await _installedProgram();
  const emu = await startEmulator({ apiKeys: [{ key: "bench-plugin-key", username: "user@example.com" }] });
  try {
    const { stdout } = await _runInProgram(
      "bench-device-provider",
      `${MOCKS_PRELUDE}
const { Device } = require("pulumi-dns-account");
new Device("d", { name: "d", deviceType: "LINUX", dnsServerId: "s" });
registered((r) => r.type.endsWith(":Device") && r.inputs.__provider).then((r) => console.log(JSON.stringify(r.inputs.__provider)));`,
    );
    const provider = JSON.parse(stdout) as string;
    const client = createClient({ baseUrl: emu.url, apiKey: "bench-plugin-key" });
    const [server] = await client.dnsServers.list();
    const inputs = { name: "Bench", deviceType: "LINUX", dnsServerId: server!.id };
    const samples = { hostStart: [] as number[], pluginStart: [] as number[], hostCreate: [] as number[], pluginCreate: [] as number[], start: [] as number[], create: [] as number[] };
    for (let i = 0; i < 7; i++) {
      let t = performance.now();
      const host = await startProviderHost({ programDir: program });
      const hostStart = performance.now() - t;
      await host.configure({ "dns-account:baseUrl": emu.url, "dns-account:apiKey": "bench-plugin-key" }, ["dns-account:apiKey"]);
      t = performance.now();
      const made = await host.create("urn:pulumi:dev::bench::pulumi-nodejs:dynamic/dns-account:Device::d", { __provider: provider, ...inputs });
      const hostCreate = performance.now() - t;
      await host.close();
      await client.devices.remove(made.id);

      t = performance.now();
      const p = await startPlugin({ programDir: program });
      const pluginStart = performance.now() - t;
      await p.configureArgs({ baseUrl: emu.url, apiKey: "bench-plugin-key" }, ["apiKey"]);
      t = performance.now();
      const created = await p.create("urn:pulumi:dev::bench::dns-account:index:Device::d", inputs);
      const pluginCreate = performance.now() - t;
      await p.stop();
      await client.devices.remove(created.id);
      samples.hostStart.push(hostStart);
      samples.pluginStart.push(pluginStart);
      samples.hostCreate.push(hostCreate);
      samples.pluginCreate.push(pluginCreate);
      samples.start.push(pluginStart / hostStart);
      samples.create.push(pluginCreate / hostCreate);
    }
    await client.close();
    rows.push({
      what: "Plugin start-up to its port vs the dynamic-provider host's (ms wall, median of 7 pairs)",
      ours: fmt(median(samples.pluginStart), 1),
      baseline: fmt(median(samples.hostStart), 1),
      ratio: `${fmt(median(samples.start))}×`,
      target: "(reported)",
      met: true,
    });
    rows.push({
      what: "First create of a Device in a fresh plugin vs a fresh dynamic host (ms wall, median of 7 pairs)",
      ours: fmt(median(samples.pluginCreate), 1),
      baseline: fmt(median(samples.hostCreate), 1),
      ratio: `${fmt(median(samples.create))}×`,
      target: "(reported)",
      met: true,
    });
  } finally {
    await emu.close();
  }
}

/**
 * The plugin's single executable (issue 24: `npm run package:plugin`'s linux-amd64 tarball, unpacked)
 * against today's plugin from an `npm pack` install (`node_modules/.bin/pulumi-resource-dns-account`,
 * a `#!/usr/bin/env node` script), both started as the engine starts a plugin: wall time from spawn to
 * its port, and the first create of a Device in that fresh process. Interleaved pairs (the order
 * alternates), median of the paired ratios; the executable may be at most 1.2× as slow to start.
 */
async function pluginStart(): Promise<void> {
  const program = await _installedProgram();
  const out = mkdtempSync(path.join(tmpdir(), "dns-account-bench-sea-"));
  const emu = await startEmulator({ apiKeys: [{ key: "bench-sea-key", username: "user@example.com" }] });
  const client = createClient({ baseUrl: emu.url, apiKey: "bench-sea-key" });
  try {
    const script = pathToFileURL(path.join(ROOT, "scripts", "package-plugin.mjs")).href;
    const { packagePlugin } = (await import(script)) as { packagePlugin(o: { outDir: string; log(line: string): void }): Promise<string[]> };
    const [tarball] = await packagePlugin({ outDir: out, log: () => undefined });
    await run("tar", ["-xzf", tarball!, "-C", out]);
    const bins = { sea: path.join(out, "pulumi-resource-dns-account"), npm: path.join(program, "node_modules", ".bin", "pulumi-resource-dns-account") };
    const [server] = await client.dnsServers.list();
    const inputs = { name: "Bench", deviceType: "LINUX", dnsServerId: server!.id };
    const once = async (bin: string): Promise<{ start: number; create: number }> => {
      let t = performance.now();
      const p = await startPlugin({ programDir: program, bin });
      const start = performance.now() - t;
      try {
        await p.configureArgs({ baseUrl: emu.url, apiKey: "bench-sea-key" }, ["apiKey"]);
        t = performance.now();
        const created = await p.create("urn:pulumi:dev::bench::dns-account:index:Device::d", inputs);
        const create = performance.now() - t;
        await client.devices.remove(created.id);
        return { start, create };
      } finally {
        await p.stop();
      }
    };
    await once(bins.sea); // the first run of a fresh 90 MB file pays for reading it from disk
    const s = { seaStart: [] as number[], npmStart: [] as number[], seaCreate: [] as number[], npmCreate: [] as number[], start: [] as number[], create: [] as number[] };
    for (let i = 0; i < 11; i++) {
      const order = i % 2 === 0 ? (["sea", "npm"] as const) : (["npm", "sea"] as const);
      const r: Record<string, { start: number; create: number }> = {};
      for (const which of order) r[which] = await once(bins[which]);
      s.seaStart.push(r.sea!.start);
      s.npmStart.push(r.npm!.start);
      s.seaCreate.push(r.sea!.create);
      s.npmCreate.push(r.npm!.create);
      s.start.push(r.sea!.start / r.npm!.start);
      s.create.push(r.sea!.create / r.npm!.create);
    }
    rows.push({
      what: "Plugin start-up to its port: single executable vs the npm-installed plugin (ms wall, median of 11 interleaved pairs)",
      ours: fmt(median(s.seaStart), 1),
      baseline: fmt(median(s.npmStart), 1),
      ratio: `${fmt(median(s.start))}×`,
      target: "≤ 1.20×",
      met: median(s.start) <= 1.2,
    });
    // Spawn to the port line alone, against the least any Node.js plugin can do: a bare `node` that
    // listens on 127.0.0.1 and prints its port (issue 25's target: the plugin at its port within 100 ms).
    const bare = ["-e", "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>process.stdout.write(s.address().port+'\\n'))"];
    const toPort = async (command: string, args: string[]): Promise<number> => {
      const t = performance.now();
      const spawned = await _spawnProvider(command, args, { cwd: program });
      const ms = performance.now() - t;
      await _stopProvider(spawned.child);
      return ms;
    };
    const p = { bare: [] as number[], npm: [] as number[], sea: [] as number[], npmRatio: [] as number[], seaRatio: [] as number[] };
    const contestants = { bare: () => toPort(process.execPath, bare), npm: () => toPort(bins.npm, ["127.0.0.1:1"]), sea: () => toPort(bins.sea, ["127.0.0.1:1"]) };
    for (let i = 0; i < 21; i++) {
      const names = (["bare", "npm", "sea"] as const).map((_, j, all) => all[(i + j) % 3]!);
      const r = { bare: 0, npm: 0, sea: 0 };
      for (const name of names) r[name] = await contestants[name]();
      for (const name of names) p[name].push(r[name]);
      p.npmRatio.push(r.npm / r.bare);
      p.seaRatio.push(r.sea / r.bare);
    }
    for (const [face, label] of [["npm", "npm-installed plugin"], ["sea", "single executable"]] as const) {
      rows.push({
        what: `Spawn to the port line: the ${label} vs a bare node that listens and prints a port (ms wall, median of 21 interleaved triples; target: within 100 ms)`,
        ours: fmt(median(p[face]), 1),
        baseline: fmt(median(p.bare), 1),
        ratio: `${fmt(median(face === "npm" ? p.npmRatio : p.seaRatio))}×`,
        target: "≤ 100 ms",
        met: median(p[face]) <= 100,
      });
    }
    rows.push({
      what: "First create of a Device in a fresh plugin: single executable vs npm-installed (ms wall, median of 11 pairs)",
      ours: fmt(median(s.seaCreate), 1),
      baseline: fmt(median(s.npmCreate), 1),
      ratio: `${fmt(median(s.create))}×`,
      target: "(reported)",
      met: true,
    });
  } finally {
    await client.close();
    await emu.close();
    rmSync(out, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const steps = [["throughput", throughput], ["cli", cliCached], ["emulator", emulatorTokens], ["require", requireCost], ["expiry", expiry], ["serialized", provider], ["provider", providerPhases], ["first-call", hostFirstCall], ["plugin", plugin], ["plugin-start", pluginStart], ["tofu-start", () => tofuStart((row) => rows.push(row))], ["heap", heap], ["engine-up", engineUp], ["tofu", tofuBench]] as const;
  // engine-up (the real engine, several minutes) runs only when named: `npm run bench -- engine-up`.
  const namedOnly: readonly string[] = ["engine-up", "tofu"];
  const only = process.argv.slice(2);
  try {
    for (const [name, step] of steps) {
      if (only.length > 0 ? !only.includes(name) : namedOnly.includes(name)) continue;
      process.stderr.write(`bench: ${name}…\n`);
      await step();
    }
  } finally {
    // The npm-pack program folder the steps share (test/support/program), as the test run's root hook does.
    _removeRunTempDirs();
  }
  console.log(`| measure | ours | baseline | ratio | target | met |\n|---|---:|---:|---:|---|---|`);
  for (const r of rows) console.log(`| ${r.what} | ${r.ours} | ${r.baseline} | ${r.ratio} | ${r.target} | ${r.met ? "yes" : "NO"} |`);
  console.log(`\nNode ${process.version}, ${process.platform}/${process.arch}, ${Math.round((Date.now() - t0) / 1000)} s.`);
}

main().catch((err: unknown) => {
  console.error(`bench failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
