/**
 * `npm run bench`: measures the client, the session under expiry, the serialized provider, heap growth
 * and require cost, each against a baseline measured in the same run (these machines are noisy), and
 * prints one Markdown table. Loopback only.
 */
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { Agent, request } from "undici";
import { startEmulator } from "../emulator";
import { createClient, Session } from "../sdk";
import { _runInProgram } from "../test/support/program";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "..", "..");
const TOKEN = "bench-token";
const BODY = JSON.stringify({ devices: { limit: 10, used: 1 }, dns_servers: { limit: 5, used: 1 }, requests: { limit: 1_000_000, used: 42 } });

interface Row {
  what: string;
  ours: string;
  baseline: string;
  ratio: string;
  target: string;
  met: boolean;
}
const rows: Row[] = [];
const fmt = (n: number, digits = 2) => n.toFixed(digits);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** A minimal server: checks the bearer token, answers a small JSON body. Measures the clients, not it. */
async function benchServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      res.writeHead(401).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(BODY) });
    res.end(BODY);
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
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

async function throughput(): Promise<void> {
  const { url, server } = await benchServer();
  const session = new Session({ baseUrl: url, credentials: { accessToken: TOKEN, tokenType: "bearer", expiresIn: 0, expiresAt: Number.POSITIVE_INFINITY } });
  const client = createClient({ baseUrl: url, session });
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const target = `${url}/oapi/v1/account/limits`;
  const clients: Record<string, () => Promise<unknown>> = {
    ours: () => client.request({ path: "/account/limits" }),
    undici: async () => (await request(target, { headers: { authorization: `Bearer ${TOKEN}` }, dispatcher: agent })).body.json(),
    fetch: async () => (await fetch(target, { headers: { authorization: `Bearer ${TOKEN}` } })).json(),
  };
  const results: Record<string, { rps: number[]; lat: number[][] }> = { ours: { rps: [], lat: [] }, undici: { rps: [], lat: [] }, fetch: { rps: [], lat: [] } };
  for (const name of Object.keys(clients)) await load(clients[name]!, 2000, 32); // warm-up
  for (let round = 0; round < 3; round++) {
    for (const name of Object.keys(clients)) {
      const r = await load(clients[name]!, 15_000, 32);
      results[name]!.rps.push(r.rps);
      results[name]!.lat.push(r.lat);
    }
  }
  const rps = (n: string) => median(results[n]!.rps);
  const lat = (n: string, p: number) => median(results[n]!.lat.map((l) => percentile(l, p)));
  for (const [base, target] of [["undici", 0.9], ["fetch", 1.3]] as const) {
    const ratio = rps("ours") / rps(base);
    rows.push({
      what: `GET throughput vs ${base === "undici" ? "raw undici.request" : "global fetch"} (req/s, 32 concurrent)`,
      ours: fmt(rps("ours"), 0),
      baseline: fmt(rps(base), 0),
      ratio: `${fmt(ratio)}×`,
      target: `≥ ${target}×`,
      met: ratio >= target,
    });
  }
  for (const p of [50, 99]) {
    rows.push({
      what: `GET p${p} latency vs raw undici (ms)`,
      ours: fmt(lat("ours", p), 3),
      baseline: fmt(lat("undici", p), 3),
      ratio: `${fmt(lat("ours", p) / lat("undici", p))}×`,
      target: "(reported)",
      met: true,
    });
  }
  await client.close();
  await agent.close();
  server.closeAllConnections();
  server.close();
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
const { request, Agent } = require("undici");
const body = ${JSON.stringify(BODY)};
const server = createServer((req, res) => { res.writeHead(200, { "content-type": "application/json" }); res.end(body); });
server.listen(0, "127.0.0.1", async () => {
  const url = "http://127.0.0.1:" + server.address().port;
  const session = new sdk.Session({ baseUrl: url, credentials: { accessToken: "t", tokenType: "bearer", expiresIn: 0, expiresAt: Infinity } });
  const client = sdk.createClient({ baseUrl: url, session });
  const agent = new Agent();
  const call = ${which === "ours" ? `() => client.request({ path: "/x" })` : `async () => (await request(url + "/oapi/v1/x", { dispatcher: agent, headers: { authorization: "Bearer t" } })).body.json()`};
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
  rows.push({ what: "Heap growth over 100,000 calls after GC (MB)", ours: mb(ours), baseline: `${mb(base)} (raw undici)`, ratio: "", target: "< 5 MB", met: ours < 5 * 1024 * 1024 });
}

async function requireCost(): Promise<void> {
  const time = async (mod: string) =>
    Number(
      (
        await run(
          process.execPath,
          ["-e", `const t = process.hrtime.bigint(); require(${JSON.stringify(mod)}); const ms = Number(process.hrtime.bigint() - t) / 1e6; if (Object.keys(require.cache).some((k) => k.includes("@pulumi"))) throw new Error("loaded @pulumi"); console.log(ms)`],
          { cwd: ROOT },
        )
      ).stdout,
    );
  const sdk: number[] = [];
  const undici: number[] = [];
  for (let i = 0; i < 9; i++) {
    sdk.push(await time(path.join(ROOT, "dist", "sdk")));
    undici.push(await time("undici"));
  }
  const ratio = median(sdk) / median(undici);
  rows.push({
    what: 'require("pulumi-dns-account/sdk") vs require("undici") (ms, median of 9; no @pulumi loaded)',
    ours: fmt(median(sdk), 1),
    baseline: fmt(median(undici), 1),
    ratio: `${fmt(ratio)}×`,
    target: "≤ 1.5×",
    met: ratio <= 1.5,
  });
}

async function main(): Promise<void> {
  const t0 = Date.now();
  for (const [name, step] of [["throughput", throughput], ["expiry", expiry], ["provider", provider], ["heap", heap], ["require", requireCost]] as const) {
    process.stderr.write(`bench: ${name}…\n`);
    await step();
  }
  console.log(`| measure | ours | baseline | ratio | target | met |\n|---|---:|---:|---:|---|---|`);
  for (const r of rows) console.log(`| ${r.what} | ${r.ours} | ${r.baseline} | ${r.ratio} | ${r.target} | ${r.met ? "yes" : "NO"} |`);
  console.log(`\nNode ${process.version}, ${process.platform}/${process.arch}, ${Math.round((Date.now() - t0) / 1000)} s.`);
}

main().catch((err: unknown) => {
  console.error(`bench failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
