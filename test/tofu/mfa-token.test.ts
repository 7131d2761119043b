import assert from "node:assert/strict";
import { _tofuSuite } from "../support/tofu-project";

const USER = { username: "mfa-tofu@example.com", password: "pw-TOFU-MFA-3c91d0" };
const CODE = "271828";

/**
 * Issue 34: `mfa_token` in the provider block under the real tofu. tofu starts the provider anew for each
 * phase (plan, then apply) and each logs in; the emulator, as the service, takes a code once. The phase
 * after the first is refused, and the failure says why and what to use instead (`dns-account login`
 * then `profile`, or a `refresh_token`), in tofu's words; nothing secret is printed.
 */
describe("tofu: mfa_token in the provider block is a single-use code, and tofu logs in once per phase", function () {
  this.timeout(600_000);
  const suite = _tofuSuite({
    prefix: "dns-account-tofu-mfa-",
    emulator: { users: [{ ...USER, mfa: [CODE] }] },
    dashboard: { username: USER.username, apiKey: "key-TOFU-MFA-DASHBOARD-8e1f" },
    // No profile of the machine's: a CLI configuration folder of the suite's own.
    env: () => ({ DNS_ACCOUNT_CONFIG_DIR: suite.tmp("dns-account-tofu-mfa-cli-") }),
    secrets: () => [USER.password],
  });

  it("apply after the plan's login is refused, saying that each phase logs in and to use a profile or a refresh_token", async () => {
    suite.project.write(`provider "dnsaccount" {
  base_url  = "${suite.emu.url}"
  username  = "${USER.username}"
  password  = "${USER.password}"
  mfa_token = "${CODE}"
}

resource "dnsaccount_dns_server" "home" {
  name = "Home"
}
`);
    const { code, out } = await suite.run(["apply", "-auto-approve"]);
    assert.notEqual(code, 0, `the second login with the same code passed:\n${out}`);
    const said = out.replace(/\s+/g, " ");
    assert.match(said, /rejected the MFA code/);
    assert.match(said, /mfa_token in the provider block is a single-use code, and tofu starts the provider anew for each phase \(plan, then apply\)/);
    assert.match(said, /Log in once with `dns-account login` and set profile in the provider block .* or give a refresh_token/);
    // (tofu prints the provider's source, pulumi-dns-account/dnsaccount: no Pulumi word of ours.)
    assert.doesNotMatch(said, /dns-account:|mfaToken|stack config|pulumi config/i, "tofu's words, not Pulumi's");
    assert.equal(suite.project.resources().size, 0, "nothing was created");
  });
});
