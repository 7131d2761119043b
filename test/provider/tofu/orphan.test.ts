import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { procStat } from "../../../provider/tofu/parent";
import { _pidfdMissing, _processAlive, _stopWaiting, _waitForExit } from "../../support/tofu-process";
import { _pluginEnv } from "../../support/tofu-face";

const BIN = path.join(__dirname, "..", "..", "..", "provider", "tofu", "bin.js");

/**
 * The OpenTofu face's backstop (provider/tofu/main.ts): a tofu killed before it connected closes no
 * connection, and the pipes it would have read stay open when someone else holds them, so neither a
 * closed connection nor a broken stderr tells the provider. The face asks every second whether tofu is
 * gone. The test waits for the provider's exit on a pidfd (no polling, no sleep); a provider that stayed
 * fails it by the timeout. test/tofu/killed.test.ts is the case under the real tofu.
 */
describe("the OpenTofu face: a provider whose tofu died before it connected exits by itself", function () {
  this.timeout(60_000);
  let sh: ChildProcess | undefined;
  let provider: number | undefined;

  before(function () {
    const missing = _pidfdMissing();
    if (missing) {
      console.log(`skipped: ${missing}`);
      return this.skip();
    }
  });
  afterEach(() => {
    _stopWaiting();
    sh?.kill("SIGKILL");
    if (provider !== undefined && _processAlive(provider)) process.kill(provider, "SIGKILL");
  });

  it("its parent killed after the handshake line, no connection ever made, stdout and stderr still open: it says tofu is gone and exits", async () => {
    // sh stands in for tofu: it starts the provider in the background with sh's own stdout and stderr
    // (the test's pipes, which stay open), prints the provider's pid, and waits.
    sh = spawn("sh", ["-c", '"$0" "$1" & echo "pid $!"; wait', process.execPath, BIN], { env: _pluginEnv({ PLUGIN_PROTOCOL_VERSIONS: "6" }), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    sh.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<void>((resolve) => sh!.once("exit", () => resolve()));
    provider = await new Promise<number>((resolve, reject) => {
      sh!.stdout!.on("data", (d: Buffer) => {
        stdout += d.toString();
        const pid = /^pid (\d+)$/m.exec(stdout);
        if (pid && /^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|$/m.test(stdout)) resolve(Number(pid[1]));
      });
      void exited.then(() => reject(new Error(`sh ended before the provider's handshake line:\n${stdout}${stderr}`)));
    });
    assert.equal(procStat(provider)?.ppid, sh.pid, "the provider is sh's child");
    assert.ok(_processAlive(provider), `the provider runs after its handshake line:\n${stderr}`);
    sh.kill("SIGKILL");
    await exited;
    await _waitForExit(provider);
    assert.match(stderr, /"@message":"tofu is gone: revoking this process's logins and exiting"/);
  });
});
