import assert from "node:assert/strict";
import { _tofuSuite } from "../support/tofu-project";

const USER = { username: "deferred-tofu@example.com", password: "pw-TOFU-DEFERRED-5c1e7a" };
const KEY = "key-TOFU-DEFERRED-3b8f20";

/**
 * Issue 34: a provider block whose api_key comes from a resource not created yet (unknown at plan), under
 * the real `tofu`. The environment holds another API key, one the service refuses: the provider must not
 * check the plan with it (it used to: the unknown value was dropped and the environment's key checked),
 * but plan "deferred", with a warning, and apply with the key once it is known.
 */
describe("tofu: a provider block with a value not known at plan configures the provider deferred", function () {
  this.timeout(600_000);
  const suite = _tofuSuite({
    prefix: "dns-account-tofu-deferred-",
    emulator: { users: [USER] },
    dashboard: { username: USER.username, apiKey: KEY },
    // Other credentials, which the service refuses: a plan that asked the service with them would fail.
    env: (emu) => ({ DNS_ACCOUNT_API_KEY: "key-the-service-refuses-000000", DNS_ACCOUNT_BASE_URL: emu.url }),
    // The key is a terraform_data input on purpose (the plan prints it, the state holds it): only the password is searched.
    secrets: () => [USER.password],
  });

  before(() => {
    suite.project.write(`
resource "terraform_data" "key" {
  input = "${KEY}"
}

provider "dnsaccount" {
  base_url = "${suite.emu.url}"
  api_key  = terraform_data.key.output
}

resource "dnsaccount_dns_server" "home" {
  name = "Deferred"
}
`);
  });

  after(async () => {
    if (suite.project) await suite.run(["destroy", "-auto-approve"]);
  });

  it("the plan warns that api_key is not known yet and checks nothing with other credentials; the apply uses the key once known", async () => {
    const { code, out } = await suite.run(["plan"]);
    assert.equal(code, 0, out);
    assert.match(out, /Provider configured with values not known yet/);
    // tofu wraps a diagnostic's detail at its width: any run of white space between the words.
    assert.match(out, new RegExp("api_key is not known until the resource it comes from is applied".split(" ").join("\\s+")));
    assert.doesNotMatch(out, /refused/);
    const applied = await suite.ok("apply", "-auto-approve");
    assert.match(applied, /Apply complete! Resources: 2 added/);
    const servers = (await suite.dashboard.dnsServers.list()).filter((s) => s.name === "Deferred");
    assert.equal(servers.length, 1, "the DNS server is in the account the key names");
    assert.equal(suite.project.resources().get("dnsaccount_dns_server.home")?.id, servers[0]!.id);
  });
});
