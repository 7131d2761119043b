import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import sinon from "sinon";
import { type Emulator, startEmulator } from "../../emulator";
import { checkInterval, DEFAULT_CHECK_MS, type GoneReason, grpcHealthCheck, stillParented, watchEngine } from "../../provider/plugin/engine-watch";
import { _grpcPieces, _secret, connectProvider } from "../support/engine/rpc-client";
import { _spawnProvider, _stopProvider } from "../support/engine/provider-host";
import { _assertNoSecrets, _cleanEnv, _closeAll, _repoRoot } from "../support/helpers";
import { _useTempDirs } from "../support/temp";

/* eslint-disable @typescript-eslint/no-explicit-any -- generated gRPC classes are untyped here */

const PULUMI_DIR = path.join(_repoRoot(), "node_modules", "@pulumi", "pulumi");
/** The npm bin of this checkout: the face the engine starts from an npm install (its bundle holds start.ts). */
const BIN = path.join(_repoRoot(), "dist", "provider", "plugin", "bin.js");
const USER = { username: "lifetime@example.com", password: "pw-LIFETIME-7e2b91c4" };
/** What issue 32 allows between the engine's death and the plugin's exit. */
const EXIT_WITHIN_MS = 20_000;

/** A stand-in engine's gRPC server (Engine.Log only): `kill()` closes it and its connections at once, as a SIGKILL does. */
async function standInEngine(): Promise<{ address: string; kill(): void }> {
  const { grpc, engineServices, empty } = _grpcPieces(PULUMI_DIR);
  const server = new grpc.Server();
  server.addService(engineServices.EngineService, { log: (_call: any, cb: any) => cb(null, new empty.Empty()) });
  const port = await new Promise<number>((resolve, reject) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err: Error | null, p: number) => (err ? reject(err) : resolve(p))));
  return { address: `127.0.0.1:${port}`, kill: () => server.forceShutdown() };
}

/** Resolves once `child` has exited, or rejects after `ms` (a bound on the event). */
function exited(child: ChildProcess, ms: number): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code))),
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the plugin is still running ${ms} ms after its engine went`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

/**
 * True while a process `pid` runs: it exists and has not exited (an exited process whose new parent does
 * not reap it, as pid 1 in a container may not, stays a zombie: "Z" in /proc/<pid>/stat).
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc here: it exists
  }
}

/** Resolves once process `pid` is gone, polling its existence; rejects after `ms`. */
async function gone(pid: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still runs after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/**
 * After a SIGKILL of `pulumi up` the engine never stops its plugins (issue 32): the plugin notices that
 * its engine is gone (provider/plugin/engine-watch.ts), stops listening, revokes the refresh token its
 * password login minted and exits, within 20 s. test/engine/plugin-lifetime.test.ts does it under the
 * real engine; here a stand-in engine shows each sign the plugin watches, and the watch itself runs on
 * a fake clock.
 */
describe("the plugin ends when its engine is gone", function () {
  this.timeout(60_000);

  describe("the watch", () => {
    let clock: sinon.SinonFakeTimers;
    beforeEach(() => (clock = sinon.useFakeTimers()));
    afterEach(() => clock.restore());

    it("a changed parent is found at the next backstop check, once; then the watch stops", async () => {
      let parented = true;
      const reasons: GoneReason[] = [];
      watchEngine({ intervalMs: 1000, parentAlive: () => parented, onGone: (r) => reasons.push(r) });
      await clock.tickAsync(3000);
      assert.deepEqual(reasons, []);
      parented = false;
      await clock.tickAsync(999);
      assert.deepEqual(reasons, [], "not before the check");
      await clock.tickAsync(1);
      assert.deepEqual(reasons, ["parent-gone"]);
      await clock.tickAsync(5000);
      assert.deepEqual(reasons, ["parent-gone"], "once");
      assert.equal(clock.countTimers(), 0, "no timer left");
    });

    it("an engine that stops answering: found by check() at once (a connection closed), else by the backstop", async () => {
      let up = true;
      const asked: string[] = [];
      const reasons: GoneReason[] = [];
      const engineAlive = async (address: string): Promise<boolean> => (asked.push(address), up);
      const watch = watchEngine({ engineAddress: "127.0.0.1:7", engineAlive, intervalMs: 1000, parentAlive: () => true, onGone: (r) => reasons.push(r) });
      watch.check();
      await clock.tickAsync(0);
      assert.deepEqual([asked, reasons], [["127.0.0.1:7"], []]);
      up = false;
      watch.check();
      await clock.tickAsync(0);
      assert.deepEqual(reasons, ["engine-unreachable"], "without waiting for the interval");

      const later: GoneReason[] = [];
      watchEngine({ engineAddress: "127.0.0.1:8", engineAlive: async () => false, intervalMs: 1000, parentAlive: () => true, onGone: (r) => later.push(r) });
      await clock.tickAsync(1000);
      assert.deepEqual(later, ["engine-unreachable"]);
    });

    it("a check asked for while one is in flight runs again after it (the engine may have died in between)", async () => {
      const answers: ((alive: boolean) => void)[] = [];
      const reasons: GoneReason[] = [];
      const watch = watchEngine({ engineAddress: "e", engineAlive: () => new Promise((resolve) => answers.push(resolve)), intervalMs: 60_000, parentAlive: () => true, onGone: (r) => reasons.push(r) });
      watch.check();
      watch.check();
      watch.check();
      await clock.tickAsync(0);
      assert.equal(answers.length, 1, "one check in flight at a time");
      answers[0]!(true);
      await clock.tickAsync(0);
      assert.equal(answers.length, 2, "the asked-for checks run once more, together");
      answers[1]!(false);
      await clock.tickAsync(0);
      assert.deepEqual(reasons, ["engine-unreachable"]);
    });

    it("stop() ends the checks; without an engine address only the parent is watched", async () => {
      let asked = 0;
      const reasons: GoneReason[] = [];
      const watch = watchEngine({ engineAlive: async () => (asked++, false), intervalMs: 1000, parentAlive: () => true, onGone: (r) => reasons.push(r) });
      await clock.tickAsync(5000);
      assert.deepEqual([asked, reasons], [0, []]);
      watch.stop();
      assert.equal(clock.countTimers(), 0);
    });

    it("the parent, as the system tells it (Node's process.ppid is read once, at start)", () => {
      assert.equal(stillParented(), true);
      assert.equal(stillParented(process.pid), false, "this process is not its own parent");
    });

    it("the backstop interval: 5 s by default, which keeps the 20 s promise; DNS_ACCOUNT_PLUGIN_HEALTH_CHECK_MS may only shorten it", () => {
      assert.equal(DEFAULT_CHECK_MS, 5000);
      assert.ok(DEFAULT_CHECK_MS + 5000 < EXIT_WITHIN_MS, "a check and the revocation's bound fit in 20 s");
      assert.equal(checkInterval({}), 5000);
      assert.equal(checkInterval({ DNS_ACCOUNT_PLUGIN_HEALTH_CHECK_MS: "200" }), 200);
      for (const v of ["60000", "5001", "0", "9", "-1", "1e3", "soon", ""]) assert.equal(checkInterval({ DNS_ACCOUNT_PLUGIN_HEALTH_CHECK_MS: v }), 5000, v);
    });
  });

  describe("the health check, over gRPC", () => {
    const { grpc, engineServices, empty } = _grpcPieces(PULUMI_DIR);
    const check = grpcHealthCheck(grpc);

    it("an engine that does not serve grpc.health.v1 (UNIMPLEMENTED) is alive; a closed port is gone", async () => {
      const engine = await standInEngine();
      assert.equal(await check(engine.address), true);
      engine.kill();
      assert.equal(await check(engine.address), false);
    });

    it("an engine that answers the health check is alive", async () => {
      const server = new grpc.Server();
      server.addService(engineServices.EngineService, { log: (_c: any, cb: any) => cb(null, new empty.Empty()) });
      // grpc.health.v1.Health/Check answering SERVING (field 1 = 1), as the engine's rpcutil server does.
      const bytes = (b: Buffer): Buffer => b;
      server.addService({ Check: { path: "/grpc.health.v1.Health/Check", requestStream: false, responseStream: false, requestSerialize: bytes, requestDeserialize: bytes, responseSerialize: bytes, responseDeserialize: bytes } }, {
        Check: (_c: any, cb: any) => cb(null, Buffer.from([8, 1])),
      });
      const port = await new Promise<number>((resolve, reject) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err: Error | null, p: number) => (err ? reject(err) : resolve(p))));
      try {
        assert.equal(await grpcHealthCheck(grpc)(`127.0.0.1:${port}`), true);
      } finally {
        server.forceShutdown();
      }
    });
  });

  describe("the plugin process", () => {
    const tmp = _useTempDirs();
    let emu: Emulator;
    const children: ChildProcess[] = [];
    const pids: number[] = [];
    const outputs: string[] = [];

    before(async () => {
      emu = await startEmulator({ users: [USER] });
    });

    after(async () => {
      await _closeAll(
        ...children.map((c) => () => _stopProvider(c)),
        ...pids.map((pid) => () => alive(pid) && process.kill(pid, "SIGKILL")),
        () => emu?.close(),
        () => _assertNoSecrets(outputs.join("\n"), [USER.password, USER.password.toLowerCase()]),
      );
    });

    it("the engine killed after a password login: it stops listening, revokes the minted refresh token and exits, noticed as the engine's connection closes", async () => {
      const engine = await standInEngine();
      // The production backstop (5 s) is left as is: the closed connection alone must make it check.
      const spawned = await _spawnProvider(process.execPath, [BIN, "--tracing", "file:///dev/null", engine.address], { cwd: _repoRoot(), env: _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: tmp("dns-account-lifetime-") }) });
      children.push(spawned.child);
      const rpc = connectProvider(PULUMI_DIR, spawned.port);
      await rpc.configureArgs({ baseUrl: emu.url, username: USER.username, password: _secret(USER.password) }, ["password"]);
      const { outputs: limits } = await rpc.invoke("dns-account:index:getAccountLimits", {});
      assert.ok(limits.devices, "the invoke answered with the account's quotas");
      assert.equal(emu.liveRefreshTokens(USER.username), 1, "the login minted a refresh token");
      const revokesBefore = emu.stats.revokeCalls;

      // SIGKILL of the engine: its port closes, and with it its connection to the plugin.
      engine.kill();
      rpc.close();
      const code = await exited(spawned.child, EXIT_WITHIN_MS);
      outputs.push(spawned.output());
      assert.equal(code, 0);
      assert.equal(emu.liveRefreshTokens(USER.username), 0, "the refresh token the login minted is revoked");
      assert.equal(emu.stats.revokeCalls, revokesBefore + 1);
      assert.equal(await accepts(spawned.port), false, "nothing listens on the plugin's port any more");
    });

    it("its parent killed while the engine's address still answers: it exits too (the parent is gone)", async () => {
      const engine = await standInEngine();
      // A parent in between (a wrapper), killed: the plugin is re-parented; its engine still answers.
      const parent = spawn(
        process.execPath,
        [
          "-e",
          `const c = require("node:child_process").spawn(process.execPath, ${JSON.stringify([BIN, engine.address])}, { stdio: ["ignore", "pipe", "inherit"] });
           c.stdout.once("data", (d) => process.stdout.write(c.pid + " " + d));
           setInterval(() => {}, 1000);`,
        ],
        { env: _cleanEnv({ DNS_ACCOUNT_PLUGIN_HEALTH_CHECK_MS: "100" }), stdio: ["ignore", "pipe", "pipe"] },
      );
      children.push(parent);
      let out = "";
      parent.stderr!.on("data", (d: Buffer) => (out += d.toString()));
      const line = await new Promise<string>((resolve) => parent.stdout!.on("data", (d: Buffer) => /\n/.test((out += d.toString())) && resolve(out)));
      const [pid, port] = line.trim().split(/\s+/).map(Number) as [number, number];
      pids.push(pid);
      assert.ok(await accepts(port), "the plugin serves");
      parent.kill("SIGKILL");
      await exited(parent, 10_000);
      try {
        await gone(pid, EXIT_WITHIN_MS);
      } finally {
        engine.kill();
      }
    });
  });
});
