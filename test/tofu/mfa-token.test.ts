import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../emulator";
import { _assertNoSecrets, _closeAll } from "../support/helpers";
import { _useTempDirs } from "../support/temp";
import { _failWithoutTofu, _tofuMissing } from "../support/tofu-cli";
import { type TofuProject, _tofuProject } from "../support/tofu-project";

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
  const tmp = _useTempDirs();
  let emu: Emulator;
  let project: TofuProject;
  const printed: string[] = [];

  before(async () => {
    _failWithoutTofu(_tofuMissing());
    emu = await startEmulator({ users: [{ ...USER, mfa: [CODE] }] });
    project = _tofuProject(tmp("dns-account-tofu-mfa-"), { DNS_ACCOUNT_CONFIG_DIR: tmp("dns-account-tofu-mfa-cli-") });
  });

  after(async () => {
    await _closeAll(
      () => _assertNoSecrets(printed.join("\n") + (project?.stateText() ?? ""), [USER.password]),
      () => emu?.close(),
    );
  });

  it("apply after the plan's login is refused, saying that each phase logs in and to use a profile or a refresh_token", async () => {
    project.write(`provider "dnsaccount" {
  base_url  = "${emu.url}"
  username  = "${USER.username}"
  password  = "${USER.password}"
  mfa_token = "${CODE}"
}

resource "dnsaccount_dns_server" "home" {
  name = "Home"
}
`);
    const r = await project.tofu(["apply", "-auto-approve"]);
    printed.push(r.stdout + r.stderr);
    assert.notEqual(r.code, 0, `the second login with the same code passed:\n${r.stdout}${r.stderr}`);
    const said = (r.stdout + r.stderr).replace(/\s+/g, " ");
    assert.match(said, /rejected the MFA code/);
    assert.match(said, /mfa_token in the provider block is a single-use code, and tofu starts the provider anew for each phase \(plan, then apply\)/);
    assert.match(said, /Log in once with `dns-account login` and set profile in the provider block .* or give a refresh_token/);
    // (dev_overrides prints the provider's source, pulumi-dns-account/dnsaccount: no Pulumi word of ours.)
    assert.doesNotMatch(said, /dns-account:|mfaToken|stack config|pulumi config/i, "tofu's words, not Pulumi's");
    assert.equal(project.resources().size, 0, "nothing was created");
  });
});
