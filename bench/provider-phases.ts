/**
 * `npm run bench -- provider`: the provider's phases (create, refresh, delete of N Devices and N
 * DnsServers), each face in a fresh process per phase as `pulumi up`, `refresh` and `destroy` start one,
 * against two floors measured in the same run, interleaved:
 * - the raw floor: a bare node process with undici `Pool(16)`, one login and exactly the requests the
 *   service needs, all in flight (./floor-ops);
 * - the engine floor of each face: a trivial provider making exactly those requests through the same
 *   engine path (the dynamic-provider host for the dynamic face, our gRPC pieces for the plugin:
 *   ./floor-dynamic, ./floor-plugin).
 * Requests and connections are counted at the emulator. Times are wall time from spawning the process
 * to the phase's last answer; ratios are medians of per-round ratios. CPU is the phase's process's own
 * (user + system, all threads, from spawn to the last answer, read from `/proc` before it is stopped);
 * the driving process (this one, which also runs the emulator) is counted for no face, so ours and the
 * engine floor are measured the same way. Printed as two Markdown tables: the phases, and the marginal
 * CPU per extra resource — the least-squares slope of CPU over N through every sample, ± its standard
 * error — with ours ÷ the engine floor's marginal and the range the two estimates allow, rows over 1.3×
 * marked (`**over**` when the whole range is, `over?` when only the estimate is).
 *
 * Sizes: BENCH_DEVICES (default 10,50,100), BENCH_SERVERS (default 10,50), BENCH_ROUNDS (default 3);
 * BENCH_SAMPLES=<file> also writes every sample there as JSON. BENCH_BEFORE=<folder>: a program folder
 * with an earlier build of the package installed (as test/support/program makes one: `npm pack` of that
 * build and @pulumi/pulumi in its node_modules); its dynamic and plugin faces run in the same rounds
 * against the same floors, and a before → after table follows.
 */
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { startEmulator, type Emulator } from "../emulator";
import { createClient } from "../sdk";
import { _spawnProvider, _stopProvider, startProviderHost } from "../test/support/engine/provider-host";
import { startPlugin } from "../test/support/engine/plugin-host";
import { connectProvider } from "../test/support/engine/rpc-client";
import { _cleanEnv } from "../test/support/helpers";
import { _installedProgram, MOCKS_PRELUDE } from "../test/support/program";
import { childrenOf, cpuMs, type Marginal, marginal, marginalRatio, newChild } from "./cpu";
import type { Kind } from "./floor-ops";
import { median } from "./stats";

const run = promisify(execFile);
const USERNAME = "bench@example.com";
const PASSWORD = "bench-password-phases";
const OPS = path.join(__dirname, "floor-ops.js");

/** A DnsServer as the issue measures it: 5 user rules, 3 blocked services, parental control. */
const SETTINGS = {
  blockTtlSeconds: 60,
  userRules: { enabled: true, rules: ["||a.example^", "||b.example^", "||c.example^", "@@||d.example^", "||e.example^$important"] },
  blockedServices: ["youtube", "tiktok", "reddit"],
  parentalControl: { enabled: true, blockAdultWebsites: true, safeSearch: true },
};

/** The same settings as the service's create body takes them (what the floor sends). */
const SERVICE_SETTINGS = {
  block_ttl_seconds: 60,
  user_rules_settings: { enabled: true, rules: SETTINGS.userRules.rules },
  parental_control_settings: {
    enabled: true,
    block_adult_websites_enabled: true,
    engines_safe_search_enabled: true,
    blocked_services: SETTINGS.blockedServices.map((id) => ({ id, enabled: true })),
  },
};

type State = { id: string; props: Record<string, unknown> };
type Phase = "create" | "refresh" | "delete";

/** One face: a fresh process per phase, driven as the engine drives it (all N in flight). */
interface Face {
  name: string;
  /**
   * Runs one phase; calls `answered` when its last answer is in (before the process is stopped), with
   * the CPU ms its process used until then when known at that moment; otherwise returns it as `cpu`.
   */
  phase(kind: Kind, phase: Phase, n: number, states: State[], answered: (cpu?: number) => void): Promise<{ states: State[]; cpu?: number }>;
}

const sizes = (env: string | undefined, dflt: number[]): number[] => (env ? env.split(",").map(Number).filter((n) => n > 0) : dflt);

/** Engine-path faces: a host started afresh, configured, then N calls at once. */
function engineFace(
  name: string,
  start: () => Promise<{ rpc: RpcLike; close(): Promise<void> }>,
  urn: (kind: Kind, i: number) => string,
  inputs: (kind: Kind, i: number) => Record<string, unknown>,
): Face {
  return {
    name,
    async phase(kind, phase, n, states, answered) {
      const before = childrenOf();
      const host = await start();
      const pid = newChild(before);
      const done = (): void => answered(cpuMs(pid));
      try {
        if (phase === "create") {
          const made = await Promise.all(
            Array.from({ length: n }, async (_, i) => {
              const checked = await host.rpc.check(urn(kind, i), {}, inputs(kind, i));
              if (checked.failures.length) throw new Error(`${name} check: ${JSON.stringify(checked.failures)}`);
              return host.rpc.create(urn(kind, i), inputs(kind, i));
            }),
          );
          done();
          return { states: made.map((m) => ({ id: m.id, props: m.properties })) };
        }
        if (phase === "refresh") {
          const read = await Promise.all(states.map(async (s, i) => ({ id: s.id, props: (await host.rpc.read(s.id, urn(kind, i), s.props)).properties })));
          done();
          return { states: read };
        }
        await Promise.all(states.map((s, i) => host.rpc.delete(s.id, urn(kind, i), s.props)));
        done();
        return { states: [] };
      } finally {
        await host.close();
      }
    },
  };
}

interface RpcLike {
  check(urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ failures: unknown[] }>;
  create(urn: string, props: Record<string, unknown>): Promise<{ id: string; properties: Record<string, unknown> }>;
  read(id: string, urn: string, props: Record<string, unknown>): Promise<{ properties: Record<string, unknown> }>;
  delete(id: string, urn: string, props: Record<string, unknown>): Promise<void>;
}

/** The raw floor: `node -e` with ./floor-ops; ids in on argv, ids and its CPU ms at the last answer out on stdout. */
function rawFace(emu: Emulator, body: (kind: Kind, i: number) => unknown): Face {
  return {
    name: "raw floor",
    async phase(kind, phase, n, states, answered) {
      const t = { baseUrl: emu.url, username: USERNAME, password: PASSWORD };
      const code = `const ops = require(${JSON.stringify(OPS)});
const [t, kind, phase, n, ids, bodies] = JSON.parse(process.argv[1]);
(async () => {
  let out = [];
  if (phase === "create") out = await Promise.all(bodies.map((b) => ops.create(t, kind, b).then((m) => ({ id: m.id, props: {} }))));
  else if (phase === "refresh") await Promise.all(ids.map((id) => ops.read(t, kind, id)));
  else await Promise.all(ids.map((id) => ops.remove(t, kind, id)));
  const u = process.cpuUsage();
  await ops.close();
  console.log(JSON.stringify({ out, cpu: (u.user + u.system) / 1000 }));
})();`;
      const bodies = phase === "create" ? Array.from({ length: n }, (_, i) => body(kind, i)) : [];
      const { stdout } = await run(process.execPath, ["-e", code, JSON.stringify([t, kind, phase, n, states.map((s) => s.id), bodies])], { maxBuffer: 16 << 20 });
      answered();
      const { out, cpu } = JSON.parse(stdout) as { out: State[]; cpu: number };
      return { states: phase === "refresh" ? states : out, cpu };
    },
  };
}

/**
 * Runs the table. `write` receives the Markdown lines (printed by the caller).
 */
export async function providerPhases(): Promise<void> {
  const devices = sizes(process.env.BENCH_DEVICES, [10, 50, 100]);
  const servers = sizes(process.env.BENCH_SERVERS, [10, 50]);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const max = Math.max(...devices, ...servers);
  const emu = await startEmulator({
    users: [{ username: USERNAME, password: PASSWORD }],
    limits: { devices: 4 * max + 10, dns_servers: 4 * max + 10, user_rules: 100_000 },
  });
  const program = await _installedProgram();
  const pulumiDir = path.dirname(createRequire(path.join(program, "package.json")).resolve("@pulumi/pulumi/package.json"));
  try {
    const providers = await serializedProviders(program);
    // An earlier build of the package, installed in a program folder of its own (BENCH_BEFORE): its two
    // faces run in the same rounds, against the same floors.
    const beforeDir = process.env.BENCH_BEFORE ? path.resolve(process.env.BENCH_BEFORE) : undefined;
    const beforeProviders = beforeDir ? await serializedProviders(beforeDir) : undefined;
    const trivial = `exports.handler = function () { return require(${JSON.stringify(path.join(__dirname, "floor-dynamic.js"))}); };\n`;
    const dashboard = createClient({ baseUrl: emu.url, credentials: { username: USERNAME, password: PASSWORD } });
    const serverId = (await dashboard.dnsServers.create({ name: "Bench devices" })).id;
    await dashboard.close();

    const declared = (kind: Kind, i: number): Record<string, unknown> =>
      kind === "Device" ? { name: `Device ${i}`, deviceType: "LINUX", dnsServerId: serverId } : { name: `Server ${i}`, settings: SETTINGS };
    const body = (kind: Kind, i: number): unknown =>
      kind === "Device" ? { name: `Device ${i}`, device_type: "LINUX", dns_server_id: serverId } : { name: `Server ${i}`, settings: SERVICE_SETTINGS };
    const target = { baseUrl: emu.url, username: USERNAME, password: PASSWORD };
    const config = { "dns-account:baseUrl": emu.url, "dns-account:username": USERNAME, "dns-account:password": PASSWORD };
    const dynamicUrn = (kind: Kind, i: number) => `urn:pulumi:dev::bench::pulumi-nodejs:dynamic/dns-account:${kind}::r${i}`;
    const pluginUrn = (kind: Kind, i: number) => `urn:pulumi:dev::bench::dns-account:index:${kind}::r${i}`;
    const dynamicHost = async (programDir = program) => {
      const h = await startProviderHost({ programDir });
      await h.configure(config, ["dns-account:password"]);
      return { rpc: h, close: () => h.close() };
    };
    function pluginFace(name: string, programDir: string): Face {
      return engineFace(
        name,
        async () => {
          const p = await startPlugin({ programDir });
          await p.configureArgs({ baseUrl: emu.url, username: USERNAME, password: PASSWORD }, ["password"]);
          return { rpc: p, close: () => p.stop() };
        },
        pluginUrn,
        declared,
      );
    }
    const faces: Face[] = [
      rawFace(emu, body),
      engineFace("engine floor (dynamic)", () => dynamicHost(), dynamicUrn, (kind, i) => ({ __provider: trivial, kind, target, body: body(kind, i) })),
      engineFace("dynamic", () => dynamicHost(), dynamicUrn, (kind, i) => ({ __provider: providers[kind], ...declared(kind, i) })),
      engineFace(
        "engine floor (plugin)",
        async () => {
          const spawned = await _spawnProvider(process.execPath, [path.join(__dirname, "floor-plugin.js")], { cwd: program });
          const rpc = connectProvider(pulumiDir, spawned.port);
          await rpc.configureArgs({ baseUrl: emu.url, username: USERNAME, password: PASSWORD });
          return { rpc, close: async () => { rpc.close(); await _stopProvider(spawned.child); } };
        },
        pluginUrn,
        (kind, i) => body(kind, i) as Record<string, unknown>,
      ),
      pluginFace("plugin", program),
    ];
    if (beforeDir && beforeProviders) {
      faces.push(
        engineFace("dynamic (before)", () => dynamicHost(beforeDir), dynamicUrn, (kind, i) => ({ __provider: beforeProviders[kind], ...declared(kind, i) })),
        pluginFace("plugin (before)", beforeDir),
      );
    }

    /** Wall ms and requests to the last answer; `atExit`: requests the process made as it was stopped. */
    type Sample = { ms: number; cpu: number; requests: number; connections: number; atExit: number };
    const samples = new Map<string, Sample[]>(); // `${kind} ${phase} ${n} ${face}`
    const groups: [Kind, number, Phase[]][] = [
      ...devices.map((n): [Kind, number, Phase[]] => ["Device", n, ["create", "refresh", "delete"]]),
      ...servers.map((n): [Kind, number, Phase[]] => ["DnsServer", n, ["create", "refresh", "delete"]]),
    ];
    for (let round = 0; round < rounds; round++) {
      for (const [kind, n, phases] of groups) {
        const order = [...faces.slice(round % faces.length), ...faces.slice(0, round % faces.length)];
        for (const face of order) {
          let states: State[] = [];
          for (const phase of phases) {
            const r0 = emu.stats.requests;
            const c0 = emu.stats.connections;
            const t0 = performance.now();
            let sample: Sample | undefined;
            const out = await face.phase(kind, phase, n, states, (cpu) => {
              sample = { ms: performance.now() - t0, cpu: cpu ?? NaN, requests: emu.stats.requests - r0, connections: emu.stats.connections - c0, atExit: 0 };
            });
            sample!.atExit = emu.stats.requests - r0 - sample!.requests;
            if (out.cpu !== undefined) sample!.cpu = out.cpu;
            if (phase === "create") states = out.states;
            const key = `${kind} ${phase} ${n} ${face.name}`;
            samples.set(key, [...(samples.get(key) ?? []), sample!]);
          }
          process.stderr.write(`bench: provider ${kind} N=${n} ${face.name} round ${round + 1}/${rounds}\n`);
        }
      }
    }

    // Every sample, for a second look at the same run (BENCH_SAMPLES=<file>).
    if (process.env.BENCH_SAMPLES) writeFileSync(process.env.BENCH_SAMPLES, JSON.stringify(Object.fromEntries(samples), null, 1));
    const ratio = (kind: Kind, phase: Phase, n: number, a: string, b: string): string => {
      const xs = samples.get(`${kind} ${phase} ${n} ${a}`)!;
      const ys = samples.get(`${kind} ${phase} ${n} ${b}`)!;
      return `${median(xs.map((x, i) => x.ms / ys[i]!.ms)).toFixed(2)}×`;
    };
    const lines = [
      "| phase | N | requests: floor / dynamic / plugin | raw floor (ms) | dynamic ÷ raw | plugin ÷ raw | engine floor ÷ raw (dynamic / plugin) | dynamic ÷ its engine floor | plugin ÷ its engine floor |",
      "|---|---:|---|---:|---:|---:|---|---:|---:|",
    ];
    for (const [kind, n, phases] of groups) {
      for (const phase of phases) {
        const med = (face: string, f: (s: Sample) => number) => median(samples.get(`${kind} ${phase} ${n} ${face}`)!.map(f));
        const req = (face: string) => `${med(face, (s) => s.requests)}${med(face, (s) => s.atExit) ? ` (+${med(face, (s) => s.atExit)} at exit)` : ""}`;
        const raw = median(samples.get(`${kind} ${phase} ${n} raw floor`)!.map((s) => s.ms));
        lines.push(
          `| ${kind} ${phase} | ${n} | ${req("raw floor")} / ${req("dynamic")} / ${req("plugin")} | ${raw.toFixed(0)} | ${ratio(kind, phase, n, "dynamic", "raw floor")} | ${ratio(kind, phase, n, "plugin", "raw floor")} | ` +
            `${ratio(kind, phase, n, "engine floor (dynamic)", "raw floor")} / ${ratio(kind, phase, n, "engine floor (plugin)", "raw floor")} | ` +
            `${ratio(kind, phase, n, "dynamic", "engine floor (dynamic)")} | ${ratio(kind, phase, n, "plugin", "engine floor (plugin)")} |`,
        );
      }
    }
    console.log(lines.join("\n"));
    console.log(`\nProvider phases: wall time from spawning the phase's process to its last answer, median of ${rounds} interleaved round(s) of per-round ratios; requests counted at the emulator to the last answer (login included; "at exit": the password session's revocation as the process stops).\n`);
    // Marginal CPU per extra resource, per kind and phase, between the smallest and the largest N.
    const sizesOf = (kind: Kind) => (kind === "Device" ? devices : servers);
    const margin = (kind: Kind, phase: Phase, face: string) =>
      marginal(sizesOf(kind).flatMap((n) => samples.get(`${kind} ${phase} ${n} ${face}`)!.map((s) => ({ n, cpuMs: s.cpu }))));
    const cell = (x: Marginal | undefined) => (x === undefined ? "n/a" : `${x.perResource.toFixed(2)} ± ${x.se.toFixed(2)}`);
    const cpuAt = (kind: Kind, phase: Phase, face: string) =>
      sizesOf(kind).map((n) => median(samples.get(`${kind} ${phase} ${n} ${face}`)!.map((s) => s.cpu)).toFixed(0)).join(" → ");
    const marginLines = [
      "| phase | N | raw floor (ms/res) | engine floor dynamic (ms/res) | dynamic (ms/res) | dynamic ÷ its engine floor | engine floor plugin (ms/res) | plugin (ms/res) | plugin ÷ its engine floor | CPU ms by N: dynamic / plugin |",
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ];
    for (const kind of ["Device", "DnsServer"] as const) {
      if (sizesOf(kind).length === 0) continue;
      for (const phase of ["create", "refresh", "delete"] as const) {
        const [raw, fd, d, fp, p] = ["raw floor", "engine floor (dynamic)", "dynamic", "engine floor (plugin)", "plugin"].map((f) => margin(kind, phase, f));
        marginLines.push(
          `| ${kind} ${phase} | ${Math.min(...sizesOf(kind))} → ${Math.max(...sizesOf(kind))} | ${cell(raw)} | ${cell(fd)} | ${cell(d)} | ${marginalRatio(d, fd)} | ${cell(fp)} | ${cell(p)} | ${marginalRatio(p, fp)} | ${cpuAt(kind, phase, "dynamic")} / ${cpuAt(kind, phase, "plugin")} |`,
        );
      }
    }
    console.log("\n" + marginLines.join("\n"));
    console.log(`\nMarginal CPU per extra resource: the least-squares slope of CPU over N through every sample (all rounds, all sizes), ± its standard error, in ms of CPU per resource, of the phase's process alone (user + system, all threads, from spawn to the last answer; the driving process is counted for no face). Ratios show the range both estimates allow (each ± 2 standard errors): **over** when even its low end is above 1.3× the engine floor's marginal, over? when only the estimate is.\n`);
    if (beforeDir) {
      const req = (kind: Kind, phase: Phase, n: number, face: string) => {
        const xs = samples.get(`${kind} ${phase} ${n} ${face}`)!;
        const exit = median(xs.map((s) => s.atExit));
        return `${median(xs.map((s) => s.requests))}${exit ? `+${exit}` : ""}`;
      };
      const baLines = [
        "| phase | N | requests, dynamic before → after | requests, plugin before → after | dynamic ÷ its engine floor, before → after | plugin ÷ its engine floor, before → after | dynamic ÷ raw, before → after | plugin ÷ raw, before → after |",
        "|---|---:|---|---|---|---|---|---|",
      ];
      for (const [kind, n, phases] of groups) {
        for (const phase of phases) {
          baLines.push(
            `| ${kind} ${phase} | ${n} | ${req(kind, phase, n, "dynamic (before)")} → ${req(kind, phase, n, "dynamic")} | ${req(kind, phase, n, "plugin (before)")} → ${req(kind, phase, n, "plugin")} | ` +
              `${ratio(kind, phase, n, "dynamic (before)", "engine floor (dynamic)")} → ${ratio(kind, phase, n, "dynamic", "engine floor (dynamic)")} | ${ratio(kind, phase, n, "plugin (before)", "engine floor (plugin)")} → ${ratio(kind, phase, n, "plugin", "engine floor (plugin)")} | ` +
              `${ratio(kind, phase, n, "dynamic (before)", "raw floor")} → ${ratio(kind, phase, n, "dynamic", "raw floor")} | ${ratio(kind, phase, n, "plugin (before)", "raw floor")} → ${ratio(kind, phase, n, "plugin", "raw floor")} |`,
          );
        }
      }
      const mLines = [
        "| phase | N | dynamic (ms/res) before → after | ÷ its engine floor, before → after | plugin (ms/res) before → after | ÷ its engine floor, before → after |",
        "|---|---|---|---|---|---|",
      ];
      for (const kind of ["Device", "DnsServer"] as const) {
        if (sizesOf(kind).length === 0) continue;
        for (const phase of ["create", "refresh", "delete"] as const) {
          const [fd, d, db, fp, pl, pb] = ["engine floor (dynamic)", "dynamic", "dynamic (before)", "engine floor (plugin)", "plugin", "plugin (before)"].map((f) => margin(kind, phase, f));
          mLines.push(
            `| ${kind} ${phase} | ${Math.min(...sizesOf(kind))} → ${Math.max(...sizesOf(kind))} | ${cell(db)} → ${cell(d)} | ${marginalRatio(db, fd)} → ${marginalRatio(d, fd)} | ${cell(pb)} → ${cell(pl)} | ${marginalRatio(pb, fp)} → ${marginalRatio(pl, fp)} |`,
          );
        }
      }
      console.log(`\nBefore (${beforeDir}) and after, in the same rounds against the same floors:\n\n${baLines.join("\n")}\n\n${mLines.join("\n")}`);
    }
  } finally {
    await emu.close();
  }
}

/** The serialized `__provider` of each resource of the package installed in `dir`, as its program registers them. */
async function serializedProviders(dir: string): Promise<Record<Kind, string>> {
  mkdirSync(path.join(dir, "scripts"), { recursive: true });
  const file = path.join(dir, "scripts", "bench-phases-providers.js");
  writeFileSync(
    file,
    `${MOCKS_PRELUDE}
const { DnsServer, Device } = require("pulumi-dns-account");
new DnsServer("s", { name: "x" });
new Device("d", { name: "d", deviceType: "LINUX", dnsServerId: "s" });
Promise.all(["DnsServer", "Device"].map((t) => registered((r) => r.type.endsWith(":" + t) && r.inputs.__provider)))
  .then((rs) => console.log(JSON.stringify(Object.fromEntries(rs.map((r) => [r.type.split(":").pop(), r.inputs.__provider])))));`,
  );
  const { stdout } = await run(process.execPath, [file], { cwd: dir, env: _cleanEnv({}), maxBuffer: 16 << 20 });
  return JSON.parse(stdout) as Record<Kind, string>;
}
