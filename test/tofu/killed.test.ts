import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { type Emulator, startEmulator } from "../../emulator";
import { procStat } from "../../provider/tofu/parent";
import { _assertNoSecrets, _withLowerCase } from "../support/helpers";
import { _useTempDirs } from "../support/temp";
import { _failWithoutTofu, _tofuMissing } from "../support/tofu-cli";
import { _pidfdMissing, _processAlive, _providersOf, _startTofu, _stopWaiting, _waitForExit } from "../support/tofu-process";
import { _tofuProject } from "../support/tofu-project";

const USERNAME = "tofu-killed@example.com";
const PASSWORD = "Pw-TOFU-Killed-6e2b0d58";

/**
 * Issue 34: tofu killed with SIGKILL never calls Shutdown. A go-plugin server has no watch of its parent
 * (it dies at its next write to the stdout/stderr pipes only the client read); the face notices at once:
 * tofu's gRPC connection closes as tofu dies, and tofu is then exiting or gone (provider/tofu/parent.ts).
 * The provider process revokes its password login and exits. The test waits for that exit on a pidfd
 * (no polling, no sleep), and a provider that stayed fails it by the test's timeout. The face also asks
 * every second (its backstop, test/provider/tofu/orphan.test.ts), so this passes when either way works.
 */
describe("tofu: a provider process exits when tofu is killed", function () {
  this.timeout(120_000);
  const tmp = _useTempDirs();
  let emu: Emulator;
  const requests = new EventEmitter();

  before(async function () {
    _failWithoutTofu(_tofuMissing());
    const missing = _pidfdMissing();
    if (missing) {
      console.log(`skipped: ${missing}`);
      return this.skip();
    }
    emu = await startEmulator({ users: [{ username: USERNAME, password: PASSWORD }], limits: { devices: 20 }, log: (line) => requests.emit("request", line) });
  });
  /** The provider processes of the test's tofu: one that stayed (a failure) is killed after the test. */
  let providers: number[] = [];
  /** What the test waits for now: a failure (a timeout) says where it stood, and what /proc says of each process. */
  let waitingFor = "";
  afterEach(function () {
    if (this.currentTest?.state === "failed") {
      const states = providers.map((pid) => `${pid}: ${JSON.stringify(procStat(pid) ?? "gone")}`).join("; ");
      console.log(`      waiting for ${waitingFor}; provider processes: ${states || "none found"}`);
    }
    _stopWaiting();
    for (const pid of providers) if (_processAlive(pid)) process.kill(pid, "SIGKILL");
  });
  after(() => emu?.close());

  it("SIGKILL to tofu in the middle of an apply: its provider processes revoke their logins and exit", async () => {
    const project = _tofuProject(tmp("dns-account-tofu-killed-"), { DNS_ACCOUNT_USERNAME: USERNAME, DNS_ACCOUNT_PASSWORD: PASSWORD, DNS_ACCOUNT_BASE_URL: emu.url });
    project.write(`
provider "dnsaccount" {}

resource "dnsaccount_dns_server" "home" {
  name = "Home"
}

resource "dnsaccount_device" "d" {
  count         = 10
  name          = "Device \${count.index}"
  device_type   = "MAC"
  dns_server_id = dnsaccount_dns_server.home.server_id
}
`);
    const apply = _startTofu(project, ["apply", "-auto-approve"]);
    let onRequest: (line: string) => void = () => undefined;
    // Kill tofu once the apply's provider has made a device: it holds a login and calls in flight.
    const killed = new Promise<number[]>((resolve) => {
      onRequest = (line) => {
        if (!/^POST \/oapi\/v1\/devices 200$/.test(line)) return;
        const providers = _providersOf(apply.child.pid!);
        if (providers.length === 0) return;
        requests.off("request", onRequest);
        apply.child.kill("SIGKILL");
        resolve(providers);
      };
      requests.on("request", onRequest);
    });
    waitingFor = "a device made by the apply, or the apply's end";
    const started = await Promise.race([killed, apply.done.then(() => undefined)]);
    requests.off("request", onRequest);
    providers = started ?? [];
    waitingFor = `tofu (pid ${apply.child.pid}) to end and its pipes to close`;
    const r = await apply.done;
    _assertNoSecrets(r.stdout + r.stderr, _withLowerCase([PASSWORD]));
    if (!started) assert.fail(`the apply ended before it made a device:\n${r.stdout}${r.stderr}`);
    assert.equal(r.signal, "SIGKILL");
    assert.ok(emu.stats.passwordGrants >= 1);
    waitingFor = "the provider processes to exit";
    await Promise.all(providers.map((pid) => _waitForExit(pid)));
    assert.equal(emu.liveRefreshTokens(USERNAME), 0, "every provider process revoked its login before it exited");
  });
});
