/**
 * `npm run bench -- tofu` (issue 35 §3): `tofu apply -auto-approve` (create N `dnsaccount_device` on one
 * server made beforehand), `tofu plan` (no change: it refreshes every device) and `tofu destroy
 * -auto-approve` of N devices (BENCH_DEVICES, default "20,100"), each a fresh `tofu` process as a user
 * runs it, for:
 * - raw: a bare node process per command, one login and exactly the requests the service needs (N POSTs,
 *   N GETs, N DELETEs) through undici `Pool(16)`, all in flight (./floor-ops);
 * - tofu floor: the same configuration through the same `tofu`, with a trivial Go provider on
 *   terraform-plugin-go (./tofu-floor, built here once with `go build` into a cache folder, installed from
 *   a filesystem mirror under our source address) whose Read, Create and Delete make the raw floor's
 *   requests, with one login per process that makes a request and no revocation;
 * - tofu node floor: the same provider in Node (./tofu-floor-node: the same schema, calls and requests, on
 *   grpc-js, protobuf.js's light build and undici; the handshake line printed as soon as its port
 *   listens, its certificate minted with node:crypto; one esbuild bundle loaded with its V8 code cache),
 *   built here once with esbuild into a cache folder and installed the same way; what tofu starts is a
 *   `#!/bin/sh` launcher that `exec`s this Node on the entry (a shell's start, under a millisecond here).
 *   Node's own boot (about 0.11 s of CPU here) is paid by every provider process tofu starts: node floor ÷
 *   tofu floor is what Node itself costs, ours ÷ node floor the part of ours ÷ tofu floor that is ours to
 *   cut. Its requests are checked equal to the Go floor's, round by round (the bench fails after its
 *   tables otherwise);
 * - tofu node floor, node:http: the same Node floor making its requests through node:http's keep-alive
 *   agent (16 sockets) instead of undici (BENCH_NODE_FLOOR_HTTP=node:http): what undici costs a process
 *   that makes requests (its own table);
 * - tofu node floor, our schema: the same Node floor serving our provider's schema (BENCH_NODE_FLOOR_SCHEMA=ours:
 *   its GetProviderSchema answer, a device's other attributes kept as tofu sends them), the same requests:
 *   what tofu spends on our schema's declaration is in it too, not what it spends on the values ours keeps
 *   in the state (its own table);
 * - ours: the release executable (`npm run package:tofu`'s linux-amd64 zip) installed from its packed
 *   mirror as users install it, the same configuration (a password login: `username` in the provider
 *   block, the password and base URL in the environment);
 * - ours, API key: the same with an API key instead of a password (no login, no revocation): ours minus
 *   this is what the one-login-per-process rule costs;
 * - pulumi: the same N Devices through `pulumi up --yes`, `pulumi preview --refresh` and `pulumi destroy
 *   --yes` of a Pulumi YAML program with our npm-installed plugin (as engine-up's plugin face).
 * Rounds (BENCH_ROUNDS, default 3) are interleaved: each round runs every N, the faces in an order that
 * rotates, after one unmeasured warm-up command of each face. Requests, password logins, revocations and
 * refresh grants (the proof of each revocation) are counted at the emulator; the first round's requests
 * are also listed by kind. Times are wall time of the whole command; ratios are medians of the per-round
 * ratios. The one-login-per-process rule is measured (ours − ours with an API key) and modelled (logins
 * and revocations counted, times one login and one revocation with its proof timed with the SDK). A last
 * pass runs each tofu face's commands at the smallest N with TF_LOG=debug: how many provider processes
 * tofu starts, and each one's spawn → handshake and Shutdown → exit. Nothing here asserts a time.
 */
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startEmulator } from "../emulator";
import { createClient, issueToken, revokeToken } from "../sdk";
import { _installedProgram, _runInProgram } from "../test/support/program";
import { _engineMissing, _engineVersion, _pulumiProject } from "../test/support/pulumi-cli";
import { _tofuBin, _tofuEnv, _tofuMissing, _tofuVersion } from "../test/support/tofu-cli";
import { _sharedTofuRelease } from "../test/support/tofu-face";
import { REQUIRED_PROVIDERS, TOFU_SOURCE, _tofuProject } from "../test/support/tofu-project";
import { fmt, median } from "./stats";
import { buildNodeFloor } from "./tofu-floor-node/build";

const run = promisify(execFile);
const USERNAME = "bench@example.com";
const PASSWORD = "bench-password-tofu";
const API_KEY = "bench-key-tofu";
const OPS = path.join(__dirname, "floor-ops.js");
/** The Go sources of the tofu floor (bench/ is compiled to dist/bench; the sources stay in bench/). */
const FLOOR_SRC = path.join(__dirname, "..", "..", "bench", "tofu-floor");
const FLOOR_VERSION = "0.0.1";


type Face = "raw" | "tofu floor" | "tofu node floor" | "tofu node floor, node:http" | "tofu node floor, our schema" | "ours" | "ours, API key" | "pulumi";
const FACES: readonly Face[] = ["raw", "tofu floor", "tofu node floor", "tofu node floor, node:http", "tofu node floor, our schema", "ours", "ours, API key", "pulumi"];
/** The faces run through tofu. */
type TofuFace = "tofu floor" | "tofu node floor" | "tofu node floor, node:http" | "tofu node floor, our schema" | "ours" | "ours, API key";
const TOFU_FACES: readonly TofuFace[] = ["tofu floor", "tofu node floor", "tofu node floor, node:http", "tofu node floor, our schema", "ours", "ours, API key"];
/** The Node floors: undici's requests (as ours), node:http's, and undici's with our schema. */
const NODE_FLOORS = ["tofu node floor", "tofu node floor, node:http", "tofu node floor, our schema"] as const;
type Command = "apply" | "plan" | "destroy";
const COMMANDS: readonly Command[] = ["apply", "plan", "destroy"];
interface Sample {
  ms: number;
  requests: number;
  logins: number;
  revocations: number;
  refreshes: number;
}

/**
 * The tofu floor's executable: `go build` of ./tofu-floor into
 * `${XDG_CACHE_HOME:-~/.cache}/pulumi-dns-account/bench/tofu-floor/<hash of the sources>/`, once.
 */
async function buildFloor(): Promise<string> {
  const hash = createHash("sha256");
  for (const f of ["go.mod", "go.sum", "main.go"]) hash.update(readFileSync(path.join(FLOOR_SRC, f)));
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  const dir = path.join(cache, "pulumi-dns-account", "bench", "tofu-floor", hash.digest("hex").slice(0, 16));
  const bin = path.join(dir, "terraform-provider-dnsaccount");
  if (!existsSync(bin)) {
    process.stderr.write(`bench: tofu: go build of the tofu floor into ${dir}…\n`);
    await run("go", ["build", "-trimpath", "-o", bin, "."], { cwd: FLOOR_SRC, maxBuffer: 16 * 1024 * 1024 });
  }
  return bin;
}

/** Why the tofu bench cannot run, or undefined. */
function missing(): string | undefined {
  if (process.platform !== "linux" || process.arch !== "x64") return `the release is built for linux-amd64 only, not ${process.platform}-${process.arch}`;
  const tofu = _tofuMissing();
  if (tofu) return tofu;
  const engine = _engineMissing("yaml");
  if (engine) return engine;
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
  } catch {
    return "no go on PATH (the tofu floor is built with go build)";
  }
  return undefined;
}

/** A tofu working folder: its main.tf and the environment of its commands. */
interface TofuDir {
  dir: string;
  env: NodeJS.ProcessEnv;
}

/** `tofu <args>` in `p`, as a user types it (no colour, no input); fails with what it printed. */
async function tofu(p: TofuDir, args: string[]): Promise<string> {
  return (await tofuRun(p, args)).stdout;
}

/** {@link tofu}, with `extra` in the environment: its stdout and stderr. */
async function tofuRun(p: TofuDir, args: string[], extra: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string }> {
  try {
    const r = await run(path.join(_tofuBin(), "tofu"), [args[0]!, "-no-color", "-input=false", ...args.slice(1)], { cwd: p.dir, env: { ...p.env, ...extra }, maxBuffer: 256 * 1024 * 1024 });
    return { stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as Error & { stdout?: string; stderr?: string };
    throw new Error(`tofu ${args.join(" ")} failed: ${e.message}\n--- stdout\n${e.stdout ?? ""}\n--- stderr\n${e.stderr ?? ""}`);
  }
}

/**
 * A tofu floor's working folder (the Go floor's or the Node floor's): the executable in an unpacked filesystem mirror under our source
 * address (version {@link FLOOR_VERSION}), the folder's CLI configuration naming only that mirror, `tofu
 * init` done.
 */
async function floorDir(root: string, bin: string, env: NodeJS.ProcessEnv): Promise<TofuDir> {
  const mirror = path.join(root, "mirror");
  const target = path.join(mirror, ...TOFU_SOURCE.split("/"), FLOOR_VERSION, "linux_amd64");
  mkdirSync(target, { recursive: true });
  copyFileSync(bin, path.join(target, "terraform-provider-dnsaccount"));
  chmodSync(path.join(target, "terraform-provider-dnsaccount"), 0o755);
  const dir = path.join(root, "config");
  mkdirSync(dir, { recursive: true });
  const p = { dir, env: _tofuEnv(root, `provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(mirror)}\n  }\n}\n`, env) };
  writeFileSync(path.join(dir, "main.tf"), REQUIRED_PROVIDERS);
  const init = await tofu(p, ["init"]);
  if (!init.includes(`Installed pulumi-dns-account/dnsaccount v${FLOOR_VERSION}`)) throw new Error(`tofu init did not install the tofu floor ${bin}:\n${init}`);
  return p;
}

/** "3×GET /oapi/v1/devices/{id} 200, 1×POST /oapi/v1/oauth_token 200": the lines counted, most first. */
function tally(lines: string[]): string {
  const counts = new Map<string, number>();
  for (const l of lines) counts.set(l, (counts.get(l) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([l, c]) => `${c}× ${l.replace("/oapi/v1", "")}`).join(", ");
}

/** The provider processes of one tofu command, read from its `TF_LOG=debug` lines (go-plugin's). */
interface Processes {
  /** How many tofu started. */
  count: number;
  /** Each one's spawn → handshake (go-plugin's "plugin started" → "using plugin"), ms. */
  startup: number[];
  /** Each one's Shutdown → exit, where the provider logs its Shutdown (ours does), ms. */
  shutdown: number[];
  /** Each one's spawn → exit, ms. */
  lifetime: number[];
}

/**
 * {@link Processes} from go-plugin's debug lines. tofu runs one provider process at a time here (each
 * phase's, one after the other), so a handshake and a Shutdown belong to the last process started.
 */
function processesOf(stderr: string): Processes {
  const at = (line: string): number => Date.parse(line.slice(0, 24));
  const started: { pid: string; start: number; handshake?: number; shutdown?: number; exit?: number }[] = [];
  for (const line of stderr.split("\n")) {
    let m: RegExpMatchArray | null;
    if ((m = /provider: plugin started: .* pid=(\d+)/.exec(line))) started.push({ pid: m[1]!, start: at(line) });
    else if (/provider: using plugin: version=/.test(line) && started.length) started[started.length - 1]!.handshake ??= at(line);
    else if (/Shutdown: the client is done with the provider/.test(line) && started.length) started[started.length - 1]!.shutdown ??= at(line);
    else if ((m = /provider: plugin process exited: .* id=(\d+)/.exec(line))) {
      const p = started.find((s) => s.pid === m![1]);
      if (p) p.exit = at(line);
    }
  }
  return {
    count: started.length,
    startup: started.filter((p) => p.handshake !== undefined).map((p) => p.handshake! - p.start),
    shutdown: started.filter((p) => p.shutdown !== undefined && p.exit !== undefined).map((p) => p.exit! - p.shutdown!),
    lifetime: started.filter((p) => p.exit !== undefined).map((p) => p.exit! - p.start),
  };
}

/**
 * Runs the tofu bench and prints its tables (the step `tofu` of bench/run.ts, run only when named). Says
 * why and returns when tofu, the engine's YAML host or `go` is missing, or the machine is not linux-amd64.
 *
 * @example
 * ```ts
 * process.env.BENCH_DEVICES = "20,100";
 * await tofuBench(); // prints the Markdown tables on stdout, progress on stderr
 * ```
 */
export async function tofuBench(): Promise<void> {
  const why = missing();
  if (why) {
    console.log(`tofu: not run: ${why}`);
    return;
  }
  const ns = (process.env.BENCH_DEVICES ?? "20,100").split(",").map((s) => Number(s.trim()));
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const max = Math.max(...ns);
  // The requests of the first round, as "METHOD /path STATUS" (ids as {id}), for the breakdown table.
  let lines: string[] | undefined;
  const log = (line: string): void => void lines?.push(line.replace(/\/(?=[^/ ]*\d)[^/ ]{8,}(?=[/ ])/g, "/{id}"));
  const emu = await startEmulator({ users: [{ username: USERNAME, password: PASSWORD }], apiKeys: [{ key: API_KEY, username: USERNAME }], limits: { devices: max + 10 }, log });
  const client = createClient({ baseUrl: emu.url, apiKey: API_KEY });
  const roots: string[] = [];
  const tmp = (prefix: string): string => {
    const d = mkdtempSync(path.join(os.tmpdir(), prefix));
    roots.push(d);
    return d;
  };
  const [floorBin, nodeFloorBin, release, installed] = await Promise.all([buildFloor(), buildNodeFloor(), _sharedTofuRelease(), _installedProgram()]);
  const server = await client.dnsServers.create({ name: "Bench" });
  const passwordEnv = { DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_PASSWORD: PASSWORD };
  const floor = await floorDir(tmp("dns-account-bench-tofu-floor-"), floorBin, passwordEnv);
  const nodeFloor = await floorDir(tmp("dns-account-bench-tofu-node-floor-"), nodeFloorBin, passwordEnv);
  const nodeFloorHttp = await floorDir(tmp("dns-account-bench-tofu-node-floor-http-"), nodeFloorBin, { ...passwordEnv, BENCH_NODE_FLOOR_HTTP: "node:http" });
  const nodeFloorOurs = await floorDir(tmp("dns-account-bench-tofu-node-floor-ours-"), nodeFloorBin, { ...passwordEnv, BENCH_NODE_FLOOR_SCHEMA: "ours" });
  const floorConfig = (n: number): string => `${REQUIRED_PROVIDERS}provider "dnsaccount" {\n  username = "${USERNAME}"\n}\n${devices(n)}`;
  const ours = await _tofuProject(tmp("dns-account-bench-tofu-ours-"), passwordEnv, { install: "mirror" });
  const oursKey = await _tofuProject(tmp("dns-account-bench-tofu-key-"), { DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_API_KEY: API_KEY }, { install: "mirror" });
  const yaml = _pulumiProject("dns-account-bench-tofu-yaml-", { PATH: path.join(installed, "node_modules", ".bin") });
  const devices = (n: number): string =>
    `resource "dnsaccount_device" "d" {\n  count         = ${n}\n  name          = "Device \${count.index}"\n  device_type   = "LINUX"\n  dns_server_id = ${JSON.stringify(server.id)}\n}\n`;
  const configs: Record<TofuFace, (n: number) => void> = {
    "tofu floor": (n) => writeFileSync(path.join(floor.dir, "main.tf"), floorConfig(n)),
    "tofu node floor": (n) => writeFileSync(path.join(nodeFloor.dir, "main.tf"), floorConfig(n)),
    "tofu node floor, node:http": (n) => writeFileSync(path.join(nodeFloorHttp.dir, "main.tf"), floorConfig(n)),
    "tofu node floor, our schema": (n) => writeFileSync(path.join(nodeFloorOurs.dir, "main.tf"), floorConfig(n)),
    ours: (n) => ours.write(`provider "dnsaccount" {\n  username = "${USERNAME}"\n}\n${devices(n)}`),
    "ours, API key": (n) => oursKey.write(`provider "dnsaccount" {}\n${devices(n)}`),
  };
  const yamlProgram = (n: number): string =>
    `name: dns-account-bench-tofu-yaml\nruntime: yaml\nresources:\n${Array.from({ length: n }, (_, i) => `  d${i}:\n    type: dns-account:index:Device\n    properties:\n      name: Device ${i}\n      deviceType: LINUX\n      dnsServerId: ${JSON.stringify(server.id)}\n`).join("")}`;

  const dirs: Record<TofuFace, TofuDir> = { "tofu floor": floor, "tofu node floor": nodeFloor, "tofu node floor, node:http": nodeFloorHttp, "tofu node floor, our schema": nodeFloorOurs, ours, "ours, API key": oursKey };
  const samples = new Map<string, Sample[]>();
  const breakdown = new Map<string, string>();
  const processes = new Map<string, Processes & { wall: number }>();
  /** One password login, and one revocation with its proof, as the SDK makes them against this emulator (ms). */
  const loginMs: number[] = [];
  const revokeMs: number[] = [];
  const key = (face: Face, command: Command, n: number): string => `${face}|${command}|${n}`;
  let rawIds: string[] = [];
  const rawCommand = async (command: Command, n: number): Promise<void> => {
    const body = { apply: `Array.from({ length: ${n} }, (_, i) => ops.create(t, "Device", { name: "Device " + i, device_type: "LINUX", dns_server_id: ${JSON.stringify(server.id)} }).then((m) => m.id))`,
      plan: `ids.map((id) => ops.get(t, "Device", id).then(() => id))`,
      destroy: `ids.map((id) => ops.remove(t, "Device", id).then(() => id))` }[command];
    const { stdout } = await _runInProgram(
      "bench-tofu-raw",
      `const ops = require(${JSON.stringify(OPS)});
const t = { baseUrl: ${JSON.stringify(emu.url)}, username: ${JSON.stringify(USERNAME)}, password: process.env.BENCH_PASSWORD };
const ids = JSON.parse(process.env.BENCH_IDS);
(async () => {
  const done = await Promise.all(${body});
  await ops.close();
  console.log(JSON.stringify(done));
})();`,
      { BENCH_PASSWORD: PASSWORD, BENCH_IDS: JSON.stringify(rawIds) },
    );
    if (command === "apply") rawIds = JSON.parse(stdout) as string[];
    if (command === "destroy") rawIds = [];
  };
  const tofuCommand = (p: TofuDir) => async (command: Command): Promise<void> => {
    const out = await tofu(p, command === "plan" ? ["plan", "-detailed-exitcode"] : [command, "-auto-approve"]);
    if (command === "plan" && !out.includes("No changes.")) throw new Error(`tofu plan found changes after the apply:\n${out}`);
  };
  const faces: Record<Face, (command: Command, n: number) => Promise<void>> = {
    raw: rawCommand,
    "tofu floor": tofuCommand(floor),
    "tofu node floor": tofuCommand(nodeFloor),
    "tofu node floor, node:http": tofuCommand(nodeFloorHttp),
    "tofu node floor, our schema": tofuCommand(nodeFloorOurs),
    ours: tofuCommand(ours),
    "ours, API key": tofuCommand(oursKey),
    pulumi: async (command) => {
      const args = { apply: ["up", "--yes"], plan: ["preview", "--refresh", "--expect-no-changes"], destroy: ["destroy", "--yes"] }[command];
      await yaml.pulumi(...args);
    },
  };
  const prepare: Record<Face, (n: number) => void> = {
    raw: () => undefined,
    "tofu floor": configs["tofu floor"],
    "tofu node floor": configs["tofu node floor"],
    "tofu node floor, node:http": configs["tofu node floor, node:http"],
    "tofu node floor, our schema": configs["tofu node floor, our schema"],
    ours: configs.ours,
    "ours, API key": configs["ours, API key"],
    pulumi: (n) => writeFileSync(path.join(yaml.dir, "Pulumi.yaml"), yamlProgram(n)),
  };
  try {
    prepare.pulumi(ns[0]!);
    await yaml.pulumi("stack", "init", "dev");
    await yaml.pulumi("config", "set", "dns-account:baseUrl", emu.url);
    await yaml.pulumi("config", "set", "dns-account:username", USERNAME);
    await yaml.pulumi("config", "set", "--secret", "dns-account:password", PASSWORD);
    // Warm-up, not measured: each face's executables read once from disk (ours is a 90 MB file per project).
    for (const face of FACES) {
      if (face === "raw") continue;
      process.stderr.write(`bench: tofu warm-up: ${face}…\n`);
      if (face === "pulumi") {
        writeFileSync(path.join(yaml.dir, "Pulumi.yaml"), "name: dns-account-bench-tofu-yaml\nruntime: yaml\nresources: {}\n");
        await yaml.pulumi("preview");
      } else {
        prepare[face](0);
        await tofu(dirs[face], ["plan"]);
      }
    }
    const live = async (): Promise<number> => (await client.devices.list()).filter((d) => d.dns_server_id === server.id).length;
    for (let r = 0; r < rounds; r++) {
      for (const n of ns) {
        const rotated = [...FACES.slice(r % FACES.length), ...FACES.slice(0, r % FACES.length)];
        for (const face of rotated) {
          prepare[face](n);
          for (const command of COMMANDS) {
            process.stderr.write(`bench: tofu round ${r + 1}/${rounds}, ${n} devices: ${face} ${command}…\n`);
            if (r === 0) lines = [];
            const before = { ...emu.stats };
            const t = performance.now();
            await faces[face](command, n);
            const ms = performance.now() - t;
            const s = emu.stats;
            const k = key(face, command, n);
            samples.set(k, [
              ...(samples.get(k) ?? []),
              { ms, requests: s.requests - before.requests, logins: s.passwordGrants - before.passwordGrants, revocations: s.revokeCalls - before.revokeCalls, refreshes: s.refreshGrants - before.refreshGrants },
            ]);
            if (lines) breakdown.set(key(face, command, n), tally(lines));
            lines = undefined;
            // The check's own listing is not counted: it comes after the measured command.
            const count = await live();
            const expected = command === "destroy" ? 0 : n;
            if (count !== expected) throw new Error(`${face} ${command} of ${n} devices left ${count} devices, not ${expected}`);
          }
        }
      }
    }
    // One more pass of the tofu faces at the smallest N with TF_LOG=debug (not in the timings above: the
    // debug log slows tofu): how many provider processes each command starts, and where their time goes.
    for (const face of TOFU_FACES) {
      prepare[face](ns[0]!);
      for (const command of COMMANDS) {
        process.stderr.write(`bench: tofu processes, ${ns[0]} devices: ${face} ${command} with TF_LOG=debug…\n`);
        const t = performance.now();
        const r = await tofuRun(dirs[face], command === "plan" ? ["plan"] : [command, "-auto-approve"], { TF_LOG: "debug" });
        processes.set(`${face}|${command}`, { ...processesOf(r.stderr), wall: performance.now() - t });
      }
    }
    // What one login and one revocation (with its proof) take here, with the SDK's own calls, warm.
    for (let i = 0; i < 16; i++) {
      let t = performance.now();
      const tokens = await issueToken({ baseUrl: emu.url, username: USERNAME, password: PASSWORD });
      if (i > 0) loginMs.push(performance.now() - t);
      t = performance.now();
      await revokeToken({ baseUrl: emu.url, refreshToken: tokens.refreshToken });
      if (i > 0) revokeMs.push(performance.now() - t);
    }
  } finally {
    yaml.remove();
    for (const d of roots) rmSync(d, { recursive: true, force: true });
    await client.close();
    await emu.close();
  }

  const get = (face: Face, command: Command, n: number): Sample[] => samples.get(key(face, command, n)) ?? [];
  const med = (face: Face, command: Command, n: number, f: (s: Sample) => number): number => median(get(face, command, n).map(f));
  const ratios = (a: Face, b: Face, command: Command, n: number): number[] => get(a, command, n).map((s, i) => s.ms / get(b, command, n)[i]!.ms);
  const ratio = (a: Face, b: Face, command: Command, n: number): number => median(ratios(a, b, command, n));
  const diffs = (a: Face, b: Face, command: Command, n: number): number[] => get(a, command, n).map((s, i) => s.ms - get(b, command, n)[i]!.ms);
  const spread = (xs: number[]): string => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
  const pulumiCommand = { apply: "up --yes", plan: "preview --refresh", destroy: "destroy --yes" };
  const tofuCommandLine = { apply: "apply -auto-approve", plan: "plan", destroy: "destroy -auto-approve" };

  console.log(
    `\n### tofu ${_tofuVersion()} apply / plan / destroy of N dnsaccount_device, against the raw floor, the tofu floor (Go, terraform-plugin-go), the tofu node floor (the same provider in Node ${process.version}) and pulumi ${_engineVersion()} (YAML, our plugin); ${rounds} interleaved rounds, medians (release ${release.version})\n`,
  );
  console.log(
    "| command | N | requests: raw / tofu floor / node floor / ours / pulumi | raw ms | tofu floor ms | node floor ms | ours ms | pulumi ms | tofu floor ÷ raw | node floor ÷ tofu floor | ours ÷ tofu floor (goal ≤ 1.3×) | its rounds, min–max | ours ÷ node floor | its rounds, min–max | ours ÷ raw | pulumi ÷ ours |\n|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---:|---:|",
  );
  for (const command of COMMANDS) {
    for (const n of ns) {
      const req = (f: Face): number => med(f, command, n, (s) => s.requests);
      const ms = (f: Face): string => fmt(med(f, command, n, (s) => s.ms), 0);
      const goal = ratio("ours", "tofu floor", command, n);
      console.log(
        `| tofu ${tofuCommandLine[command]} (pulumi ${pulumiCommand[command]}) | ${n} | ${req("raw")} / ${req("tofu floor")} / ${req("tofu node floor")} / ${req("ours")} / ${req("pulumi")} | ${ms("raw")} | ${ms("tofu floor")} | ${ms("tofu node floor")} | ${ms("ours")} | ${ms("pulumi")} | ` +
          `${fmt(ratio("tofu floor", "raw", command, n), 1)}× | ${fmt(ratio("tofu node floor", "tofu floor", command, n))}× | ${fmt(goal)}×${goal > 1.3 ? " (over)" : ""} | ${spread(ratios("ours", "tofu floor", command, n))} | ` +
          `${fmt(ratio("ours", "tofu node floor", command, n))}× | ${spread(ratios("ours", "tofu node floor", command, n))} | ${fmt(ratio("ours", "raw", command, n), 1)}× | ${fmt(ratio("pulumi", "ours", command, n))}× |`,
      );
    }
  }
  console.log(
    `\n### The Node floor's HTTP client: undici (as ours; loaded on the first request) or node:http (a keep-alive agent of 16 sockets), the same requests; medians of the per-round ratios\n`,
  );
  console.log("| command | N | tofu floor ms | node floor (undici) ms | node floor (node:http) ms | undici ÷ node:http | ours ÷ node floor (undici) | ours ÷ node floor (node:http) | its rounds, min–max |\n|---|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const command of COMMANDS) {
    for (const n of ns) {
      const ms = (f: Face): string => fmt(med(f, command, n, (s) => s.ms), 0);
      console.log(
        `| tofu ${tofuCommandLine[command]} | ${n} | ${ms("tofu floor")} | ${ms("tofu node floor")} | ${ms("tofu node floor, node:http")} | ${fmt(ratio("tofu node floor", "tofu node floor, node:http", command, n))}× | ` +
          `${fmt(ratio("ours", "tofu node floor", command, n))}× | ${fmt(ratio("ours", "tofu node floor, node:http", command, n))}× | ${spread(ratios("ours", "tofu node floor, node:http", command, n))} |`,
      );
    }
  }
  console.log(
    `\n### Our schema through the Node floor: the same requests, the schema tofu works on ours (BENCH_NODE_FLOOR_SCHEMA=ours); medians of the per-round ratios\n`,
  );
  console.log("| command | N | node floor ms | node floor, our schema ms | ours ms | our schema ÷ the floor's (both Node floors) | ours ÷ node floor, our schema | its rounds, min–max |\n|---|---:|---:|---:|---:|---:|---:|---|");
  for (const command of COMMANDS) {
    for (const n of ns) {
      const ms = (f: Face): string => fmt(med(f, command, n, (s) => s.ms), 0);
      console.log(
        `| tofu ${tofuCommandLine[command]} | ${n} | ${ms("tofu node floor")} | ${ms("tofu node floor, our schema")} | ${ms("ours")} | ${fmt(ratio("tofu node floor, our schema", "tofu node floor", command, n))}× | ` +
          `${fmt(ratio("ours", "tofu node floor, our schema", command, n))}× | ${spread(ratios("ours", "tofu node floor, our schema", command, n))} |`,
      );
    }
  }
  const login = median(loginMs);
  const revoke = median(revokeMs);
  console.log(
    `\n### The one-login-per-process rule: per command, counted at the emulator; its cost measured as ours (password) − ours (API key: no login, no revocation), median of the per-round differences, ` +
      `and modelled as logins × ${fmt(login, 1)} ms + revocations × ${fmt(revoke, 1)} ms (one password login, and one revocation with its proof, by the SDK here: medians of 15; both are on the command's critical path: the first call waits for the login, tofu waits for the process to exit after Shutdown)\n`,
  );
  console.log(
    "| command | N | password logins: tofu floor / node floor / ours / pulumi | revocations (+ proofs): ours / pulumi | ours, API key: requests | ours ms | ours, API key ms | measured cost (ms) | its rounds, min–max ms | modelled cost (ms) | modelled share of ours |\n|---|---:|---|---|---:|---:|---:|---:|---|---:|---:|",
  );
  for (const command of COMMANDS) {
    for (const n of ns) {
      const m = (f: Face, g: (s: Sample) => number): number => med(f, command, n, g);
      const cost = median(diffs("ours", "ours, API key", command, n));
      const oursMs = m("ours", (s) => s.ms);
      const d = diffs("ours", "ours, API key", command, n);
      const modelled = m("ours", (s) => s.logins) * login + m("ours", (s) => s.revocations) * revoke;
      console.log(
        `| tofu ${tofuCommandLine[command]} | ${n} | ${m("tofu floor", (s) => s.logins)} / ${m("tofu node floor", (s) => s.logins)} / ${m("ours", (s) => s.logins)} / ${m("pulumi", (s) => s.logins)} | ` +
          `${m("ours", (s) => s.revocations)} (+${m("ours", (s) => s.refreshes)}) / ${m("pulumi", (s) => s.revocations)} (+${m("pulumi", (s) => s.refreshes)}) | ${m("ours, API key", (s) => s.requests)} | ` +
          `${fmt(oursMs, 0)} | ${fmt(m("ours, API key", (s) => s.ms), 0)} | ${fmt(cost, 0)} | ${fmt(Math.min(...d), 0)}–${fmt(Math.max(...d), 0)} | ` +
          `${fmt(modelled, 0)} | ${fmt((100 * modelled) / oursMs, 1)} % |`,
      );
    }
  }
  console.log(`\n### Requests of round 1 by kind (ids as {id}; /oapi/v1 left out)\n`);
  console.log("| command | N | face | requests |\n|---|---:|---|---|");
  for (const command of COMMANDS) {
    for (const n of ns) {
      for (const face of FACES) console.log(`| ${command} | ${n} | ${face} | ${breakdown.get(key(face, command, n)) ?? ""} |`);
    }
  }
  console.log(`\n### Provider processes per command (one more run of each at ${ns[0]} devices with TF_LOG=debug, which slows tofu: read the shares, not the times)\n`);
  console.log("| command | face | processes | spawn → handshake, each (ms) | all spawns → handshakes (ms) | share of the command | Shutdown → exit, each (ms) | lifetimes, all (ms) | command (ms) |\n|---|---|---:|---|---:|---:|---|---:|---:|");
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  for (const command of COMMANDS) {
    for (const face of TOFU_FACES) {
      const p = processes.get(`${face}|${command}`);
      if (!p) continue;
      console.log(
        `| ${command} | ${face} | ${p.count} | ${p.startup.map((x) => fmt(x, 0)).join(", ")} | ${fmt(sum(p.startup), 0)} | ${fmt((100 * sum(p.startup)) / p.wall, 0)} % | ` +
          `${p.shutdown.length ? p.shutdown.map((x) => fmt(x, 0)).join(", ") : "(not logged)"} | ${fmt(sum(p.lifetime), 0)} | ${fmt(p.wall, 0)} |`,
      );
    }
  }
  // The Node floor is a floor only if it makes the Go floor's requests: checked round by round, after the tables.
  const unequal: string[] = [];
  for (const command of COMMANDS) {
    for (const n of ns) {
      for (const face of NODE_FLOORS) {
        get(face, command, n).forEach((s, i) => {
          const go = get("tofu floor", command, n)[i];
          if (!go || go.requests !== s.requests || go.logins !== s.logins) unequal.push(`${face}: ${command} of ${n}, round ${i + 1}: ${s.requests} requests, ${s.logins} logins (Go floor: ${go?.requests} requests, ${go?.logins} logins)`);
        });
      }
    }
  }
  if (unequal.length) throw new Error(`a Node floor did not make the Go floor's requests:\n${unequal.join("\n")}`);
}
