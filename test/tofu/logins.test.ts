import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { type Emulator, startEmulator } from "../../emulator";
import { SHUTDOWN_REVOKE_MS } from "../../provider/tofu/main";
import { _assertNoSecrets, _withLowerCase } from "../support/helpers";
import { _useTempDirs } from "../support/temp";
import { _failWithoutTofu, _tofuMissing } from "../support/tofu-cli";
import { _pidfdMissing, _processAlive, _providersOf, _startTofu, _stopWaiting, _waitForExit } from "../support/tofu-process";
import { _tofuProject, _tofuSuite } from "../support/tofu-project";

const USERNAME = "tofu-login@example.com";
const PASSWORD = "Pw-TOFU-Login-3f9a1c77";
const API_KEY = "key-TOFU-LOGINS-0b7d52e4";

/**
 * Issue 34, "Logins": tofu starts a provider process per phase (validate, plan, apply…), and each one
 * with a password login (the provider block's `username`, the password from DNS_ACCOUNT_PASSWORD) mints a
 * refresh token that no state records. Each is revoked when its process ends: on go-plugin's Shutdown
 * and on SIGTERM; SIGINT is ignored (tofu turns the user's Ctrl-C into StopProvider). After a full
 * apply, plan and destroy the service holds no live refresh token of the account but a Token resource's,
 * which destroy revokes. The password is never in the state or in what tofu printed.
 */
describe("tofu: password logins are revoked when each provider process ends", function () {
  this.timeout(600_000);
  /** The emulator's answered requests, as "METHOD /path STATUS", as they finish. */
  const requests = new EventEmitter();
  const suite = _tofuSuite({
    prefix: "dns-account-tofu-logins-",
    emulator: { users: [{ username: USERNAME, password: PASSWORD }], log: (line) => requests.emit("request", line) },
    dashboard: { username: USERNAME, apiKey: API_KEY },
    // The password's origin is the environment's base URL (one origin for a secret and the place it goes).
    env: (emu) => ({ DNS_ACCOUNT_PASSWORD: PASSWORD, DNS_ACCOUNT_BASE_URL: emu.url }),
    secrets: () => [PASSWORD, API_KEY],
  });
  const { ok } = suite;

  before(() =>
    suite.project.write(`
provider "dnsaccount" {
  username = "${USERNAME}"
}

resource "dnsaccount_token" "ci" {}

resource "dnsaccount_dns_server" "home" {
  name = "Home"
}

resource "dnsaccount_device" "laptop" {
  name          = "Laptop"
  device_type   = "MAC"
  dns_server_id = dnsaccount_dns_server.home.server_id
}
`),
  );

  afterEach(_stopWaiting);

  const live = (): number => suite.emu.liveRefreshTokens(USERNAME);

  it("apply: every provider process logs in with the password and revokes its token on Shutdown; only the Token resource's stays live", async () => {
    suite.emu.resetStats();
    const applied = await ok("apply", "-auto-approve");
    assert.match(applied, /Apply complete! Resources: 3 added, 0 changed, 0 destroyed/);
    assert.ok(suite.emu.stats.passwordGrants >= 2, `the provider processes logged in with the password (${suite.emu.stats.passwordGrants} password grants)`);
    // Every grant but the Token resource's own was revoked, each by the process that minted it.
    assert.equal(suite.emu.stats.revokeCalls, suite.emu.stats.passwordGrants - 1, "one revocation per process login");
    assert.equal(live(), 1, "the Token resource's refresh token, and no provider process's");
  });

  it("plan: no changes, and its processes' logins are revoked too", async () => {
    suite.emu.resetStats();
    const r = await suite.project.tofu(["plan", "-detailed-exitcode"]);
    suite.record(r.stdout + r.stderr);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /No changes\./);
    assert.match(r.stdout, /dnsaccount_device\.laptop: Refreshing state/);
    assert.ok(suite.emu.stats.passwordGrants >= 1, "the plan's processes logged in");
    assert.equal(live(), 1);
  });

  /**
   * Starts `tofu plan` and sends `signal` to its providers once one has logged in (`at: "login"`: the
   * refresh's reads are still to come), or has also called the API with the login (`at: "read"`: the
   * process holds its refresh token then).
   */
  const planSignalled = async (signal: NodeJS.Signals, at: "login" | "read"): Promise<{ code: number; out: string; providers: number[] }> => {
    const plan = _startTofu(suite.project, ["plan", "-detailed-exitcode"]);
    let loggedIn = false;
    let onRequest: (line: string) => void = () => undefined;
    const signalled = new Promise<number[]>((resolve) => {
      onRequest = (line: string): void => {
        if (/^POST \/oapi\/v1\/oauth_token 200$/.test(line)) loggedIn = true;
        if (loggedIn && (at === "login" || /^GET \/oapi\/v1\/\S+ 200$/.test(line))) {
          const pids = _providersOf(plan.child.pid!);
          if (pids.length === 0) return;
          requests.off("request", onRequest);
          for (const pid of pids) process.kill(pid, signal);
          resolve(pids);
        }
      };
      requests.on("request", onRequest);
    });
    const providers = await Promise.race([signalled, plan.done.then(() => undefined)]);
    requests.off("request", onRequest);
    const done = await plan.done;
    if (!providers) assert.fail(`the plan ended before a provider process called the API with its login:\n${done.stdout}${done.stderr}`);
    suite.record(done.stdout + done.stderr);
    return { code: done.code, out: done.stdout + done.stderr, providers };
  };

  it("SIGINT to a provider process as it logs in is ignored: its login stays usable, the plan completes", async () => {
    const before = live();
    const r = await planSignalled("SIGINT", "login");
    assert.equal(r.code, 0, `the plan succeeded with no changes (exit ${r.code}):\n${r.out}`);
    assert.doesNotMatch(r.out, /Error/);
    for (const pid of r.providers) assert.ok(!_processAlive(pid), `provider ${pid} left on Shutdown`);
    assert.equal(live(), before);
  });

  it("SIGTERM ends a provider process in the middle of a plan, and its login is revoked first", async function () {
    const missing = _pidfdMissing();
    if (missing) {
      console.log(`skipped: ${missing}`);
      return this.skip();
    }
    const before = live();
    const r = await planSignalled("SIGTERM", "read");
    await Promise.all(r.providers.map((pid) => _waitForExit(pid)));
    assert.notEqual(r.code, 0, `the plan lost its provider:\n${r.out}`);
    assert.equal(live(), before, "the killed process's login was revoked");
  });

  it("destroy revokes the Token resource's refresh token; no live refresh token of the account is left", async () => {
    const destroyed = await ok("destroy", "-auto-approve");
    assert.match(destroyed, /Destroy complete! Resources: 3 destroyed/);
    assert.equal(live(), 0);
    assert.deepEqual(suite.emu.tokenCounts(USERNAME).refreshTokens, 0);
    assert.deepEqual((await suite.dashboard.devices.list()).map((d) => d.name), []);
  });
});

/**
 * A revocation at Shutdown is bounded: go-plugin kills a provider that has not exited 2 s after Shutdown
 * answered, and tofu waits for that. With the service's revoke endpoint hanging, each provider process
 * still exits by itself (go-plugin logs "plugin exited", never "plugin failed to exit gracefully").
 */
describe("tofu: a revocation that hangs does not hold a provider process past go-plugin's 2 s", function () {
  this.timeout(600_000);
  const tmp = _useTempDirs();
  let emu: Emulator;

  before(async () => {
    _failWithoutTofu(_tofuMissing());
    emu = await startEmulator({ users: [{ username: USERNAME, password: PASSWORD }] });
  });
  after(() => emu?.close());

  it(`each process exits within ${SHUTDOWN_REVOKE_MS} ms of revoking, without being killed`, async () => {
    const project = await _tofuProject(tmp("dns-account-tofu-logins-hang-"), { DNS_ACCOUNT_PASSWORD: PASSWORD, DNS_ACCOUNT_BASE_URL: emu.url, TF_LOG: "debug" }, { install: "mirror" });
    project.write(`
provider "dnsaccount" {
  username = "${USERNAME}"
}

data "dnsaccount_account_limits" "now" {}
`);
    emu.inject({ kind: "hang", path: "/oapi/v1/revoke_token", count: 1000 });
    const r = await project.tofu(["plan"]);
    _assertNoSecrets(r.stdout + r.stderr, _withLowerCase([PASSWORD]));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const shutdowns = r.stderr.match(/Shutdown: the client is done with the provider/g)?.length ?? 0;
    // Logins were minted, and none of them could be revoked: the revocations hung until the processes exited.
    assert.ok(emu.stats.passwordGrants >= 1, "the provider processes logged in");
    assert.equal(emu.liveRefreshTokens(USERNAME), emu.stats.passwordGrants, "no revocation went through");
    assert.ok(shutdowns >= 1, r.stderr);
    assert.doesNotMatch(r.stderr, /plugin failed to exit gracefully/);
    assert.equal(r.stderr.match(/\[DEBUG\] provider: plugin exited/g)?.length ?? 0, shutdowns, "every process shut down exited by itself");
  });
});
