import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { KEPT_WARNING } from "../../provider/dedicated-ipv4/lifecycle";
import { _assertNoSecrets } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _useTempDirs } from "../support/temp";
import { _engineBin, _engineMissing, type PulumiProject, _failWithout, _stackProject } from "../support/pulumi-cli";

const USER = { username: "lifetime-engine@example.com", password: "pw-LIFETIME-ENGINE-3d81f0a6" };
const API_KEY = "key-LIFETIME-ENGINE-5b27c9e4";
/** What issue 32 allows between the engine's death and the plugin's exit. */
const EXIT_WITHIN_MS = 20_000;

/** The processes on this machine: pid, parent pid, state and command line (Linux /proc). */
function processes(): { pid: number; ppid: number; state: string; cmdline: string }[] {
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      found.push({ pid: Number(entry), ppid: Number(ppid), state: state!, cmdline: readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ") });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Every process below `pid` (children, their children, …). */
function descendants(pid: number): { pid: number; cmdline: string }[] {
  const all = processes();
  const out: { pid: number; cmdline: string }[] = [];
  const walk = (parent: number): void => {
    for (const p of all.filter((x) => x.ppid === parent)) {
      out.push(p);
      walk(p.pid);
    }
  };
  walk(pid);
  return out;
}

/** True while `pid` runs: it exists and is no zombie (pid 1 of a container may never reap an orphan). */
function running(pid: number): boolean {
  const p = processes().find((x) => x.pid === pid);
  return p !== undefined && p.state !== "Z";
}

/** Resolves once `pid` no longer runs, polling its existence; rejects after `ms`. */
async function exited(pid: number, ms: number): Promise<number> {
  const start = Date.now();
  while (running(pid)) {
    if (Date.now() - start > ms) throw new Error(`the plugin (pid ${pid}) still runs ${ms} ms after the engine was killed`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - start;
}

/**
 * The native plugin's life under the real engine (issue 32): what `pulumi --tracing` passes it, and a
 * SIGKILL of `pulumi up`, which never stops its plugins.
 */
describe("engine: the plugin's arguments and its end when the engine is killed", function () {
  this.timeout(600_000);
  const tmp = _useTempDirs();
  let emu: Emulator;
  let installedBin: string;
  const projects: PulumiProject[] = [];
  const started: ChildProcess[] = [];
  const leftovers: number[] = [];
  const onLogin: (() => void)[] = [];

  before(async function () {
    _failWithout(_engineMissing("yaml"));
    emu = await startEmulator({
      users: [USER],
      log: (line) => {
        if (/^POST \S*\/oauth_token 200$/.test(line)) {
          for (const f of onLogin.splice(0)) f();
        }
      },
    });
    emu.addApiKey(USER.username, API_KEY);
    installedBin = path.join(await _installedProgram(), "node_modules", ".bin");
  });

  after(async () => {
    for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    // What the killed `pulumi up` left behind (its language host waits minutes for its own health check).
    for (const pid of leftovers) if (running(pid)) process.kill(pid, "SIGKILL");
    emu?.clearFaults();
    await emu?.close();
    for (const p of projects) p.remove();
  });

  it("under `pulumi --tracing` (and --logflow -v): the engine passes `--tracing <url>` before its address, and the plugin's warning reaches the user", async () => {
    // A wrapper first on PATH records each start's arguments, then execs the installed plugin (same pid).
    const wrapDir = tmp("dns-account-engine-lifetime-wrap-");
    const argvDir = path.join(wrapDir, "argv");
    mkdirSync(argvDir);
    const wrapper = path.join(wrapDir, "pulumi-resource-dns-account");
    writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$@" > "${argvDir}/$$"\nexec "${path.join(installedBin, "pulumi-resource-dns-account")}" "$@"\n`);
    chmodSync(wrapper, 0o755);
    const p = await _stackProject("dns-account-engine-lifetime-tracing-", {
      env: { PATH: wrapDir },
      program: `name: dns-account-engine-lifetime-tracing
runtime: yaml
resources:
  address:
    type: dns-account:index:DedicatedIpv4
    properties: {}
outputs:
  ip: \${address.ip}
`,
      config: { "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: API_KEY } },
    });
    projects.push(p);
    p.env.TMPDIR = path.dirname(p.dir);
    const trace = (name: string): string => `file://${path.join(path.dirname(p.dir), name)}`;

    const up = await p.pulumi("up", "--yes", "--tracing", trace("up.trace"));
    assert.match((await p.pulumi("stack", "output", "ip")).trim(), /^\d+\.\d+\.\d+\.\d+$/);
    const destroy = await p.pulumi("destroy", "--yes", "--logflow", "-v=1", "--tracing", trace("destroy.trace"));
    assert.ok(destroy.includes(KEPT_WARNING), `the plugin's warning is shown:\n${destroy}`);
    _assertNoSecrets(up + destroy, [API_KEY, API_KEY.toLowerCase()]);

    // What the real engine passed: the engine's own order, its address last; a file:// trace becomes the
    // engine's local tcp:// collector for its plugins.
    const starts = readdirSync(argvDir).map((f) => readFileSync(path.join(argvDir, f), "utf8").trimEnd().split("\n"));
    assert.ok(starts.length >= 2, `the plugin was started (${starts.length})`);
    const shapes = new Set(starts.map((argv) => argv.map((a) => a.replace(/^tcp:\/\/127\.0\.0\.1:\d+$/, "<trace>").replace(/^127\.0\.0\.1:\d+$/, "<engine>")).join(" ")));
    assert.ok(shapes.has("--tracing <trace> <engine>"), [...shapes].join(" | "));
    assert.ok(shapes.has("-v=1 --tracing <trace> <engine>"), [...shapes].join(" | "));
    console.log(`      the engine started the plugin as: ${[...shapes].join(" | ")}`);
  });

  it("`pulumi up` killed (SIGKILL) while the plugin works: the plugin exits within 20 s and the refresh token its password login minted is revoked", async () => {
    const p = await _stackProject("dns-account-engine-lifetime-kill-", {
      env: { PATH: installedBin },
      program: `name: dns-account-engine-lifetime-kill
runtime: yaml
resources:
  home:
    type: dns-account:index:DnsServer
    properties:
      name: Home
`,
      config: { "dns-account:baseUrl": emu.url, "dns-account:username": USER.username, "dns-account:password": { secret: USER.password } },
    });
    projects.push(p);
    const liveBefore = emu.liveRefreshTokens(USER.username);
    const revokesBefore = emu.stats.revokeCalls;
    // The server's creation never answers: `up` is still running, its plugin logged in, when it is killed.
    emu.inject({ kind: "hang", path: "/oapi/v1/dns_servers", count: 10 });
    const loggedIn = new Promise<void>((resolve) => onLogin.push(resolve));

    const pulumi = spawn(path.join(_engineBin(), "pulumi"), ["up", "--yes", "--skip-preview", "--non-interactive"], { cwd: p.dir, env: p.env, stdio: ["ignore", "pipe", "pipe"] });
    started.push(pulumi);
    let output = "";
    pulumi.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    pulumi.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    const ended = new Promise<never>((_, reject) => pulumi.once("exit", (code) => reject(new Error(`pulumi up ended (${code}) before the plugin logged in:\n${output}`))));
    await Promise.race([loggedIn, ended]);
    assert.equal(emu.liveRefreshTokens(USER.username), liveBefore + 1, "the plugin's login minted a refresh token");

    const below = descendants(pulumi.pid!);
    leftovers.push(...below.map((d) => d.pid));
    // The engine's own plugin: a child of `pulumi` (the YAML language host starts one of its own for the schema).
    const plugin = processes().find((x) => x.ppid === pulumi.pid && x.cmdline.includes("pulumi-resource-dns-account"));
    assert.ok(plugin, `the engine's plugin runs: ${JSON.stringify(below)}`);

    pulumi.kill("SIGKILL");
    await new Promise((resolve) => pulumi.once("exit", resolve));
    const took = await exited(plugin.pid, EXIT_WITHIN_MS);
    console.log(`      the plugin exited ${took} ms after the engine was killed`);
    assert.equal(emu.liveRefreshTokens(USER.username), liveBefore, "the refresh token the plugin's login minted is revoked");
    assert.ok(emu.stats.revokeCalls > revokesBefore, "the plugin called the revoke endpoint");
    _assertNoSecrets(output, [USER.password, USER.password.toLowerCase()]);
  });
});
