import assert from "node:assert/strict";
import { _useTempDirs } from "../support/temp";
import { _failWithoutTofu, _tofuMissing } from "../support/tofu-cli";
import { type TofuProject, _tofuProject } from "../support/tofu-project";

/**
 * Issue 34, first step: the OpenTofu face's protocol layer (provider/tofu: go-plugin's handshake, AutoMTLS,
 * tfplugin6's GetProviderSchema, ValidateProviderConfig, ConfigureProvider, Shutdown) under the real `tofu`
 * (`npm run tofu`). The provider is this checkout's built bin (`dist/provider/tofu/bin.js`), found through a
 * `dev_overrides` entry of the test's own CLI configuration, so no `tofu init` and no mirror are needed yet.
 * `TF_LOG=debug` shows what go-plugin saw: protocol 6 negotiated, and the process leaving by itself after
 * Shutdown (go-plugin kills one that does not, after 2 s, and says so).
 */
describe("tofu: the OpenTofu face's protocol layer under the real tofu", function () {
  this.timeout(300_000);
  const tmp = _useTempDirs();
  let project: TofuProject;

  before(() => {
    _failWithoutTofu(_tofuMissing());
    project = _tofuProject(tmp("dns-account-tofu-face-"), { TF_LOG: "debug" });
    project.write(`\nprovider "dnsaccount" {}\n`);
  });

  /** A configuration that uses every resource and data source, with nested settings and references between them. */
  const EVERYTHING = `
provider "dnsaccount" {
  base_url = "http://127.0.0.1:9"
  api_key  = "key-not-used-by-validate"
}

resource "dnsaccount_token" "ci" {
  keepers                 = { rotation = "1" }
  rotation_period_seconds = 86400
}

resource "dnsaccount_dns_server" "home" {
  name = "Home"
  settings {
    block_ttl_seconds = 60
    blocking_mode { mode = "NXDOMAIN" }
    user_rules {
      enabled = true
      rules   = ["||ads.example^"]
    }
    blocked_services = [for s in data.dnsaccount_web_services.all.web_services : s.id if s.id == "tiktok"]
  }
}

resource "dnsaccount_device" "laptop" {
  name          = "Laptop \${dnsaccount_dns_server.home.server_id}"
  device_type   = "MAC"
  dns_server_id = dnsaccount_dns_server.home.server_id
  credentials {
    base_url      = dnsaccount_token.ci.base_url
    refresh_token = dnsaccount_token.ci.refresh_token
  }
}

resource "dnsaccount_dedicated_ipv4" "router" {
  device_id = dnsaccount_device.laptop.device_id
}

data "dnsaccount_web_services" "all" {}
data "dnsaccount_filter_lists" "all" {}
data "dnsaccount_parental_control_categories" "all" {}
data "dnsaccount_account_limits" "mine" {}

output "doh" {
  value     = dnsaccount_device.laptop.dns_addresses_with_auth.dns_over_https_with_auth_url
  sensitive = true
}
`;

  /** Runs `tofu validate` of `config` (beside the required_providers block) in a project of its own. */
  const validate = async (name: string, config: string): Promise<{ code: number; out: string }> => {
    const own = _tofuProject(tmp(`dns-account-tofu-face-${name}-`));
    own.write(config);
    const r = await own.tofu(["validate"]);
    return { code: r.code, out: r.stdout + r.stderr };
  };

  it("tofu validate of every resource and data source, nested settings and references between them, against the schema made from the package schema", async () => {
    const { code, out } = await validate("everything", EVERYTHING);
    assert.equal(code, 0, out);
    assert.match(out, /The configuration is valid/);
  });

  it("tofu validate refuses, in tofu's words, a misspelled attribute and a password on a resource (credentials stay on the provider block)", async () => {
    // Inside a block too (tofu drops a misspelled field of an object value without a word,
    // hashicorp/terraform#33570, which is why input objects are blocks).
    const nested = await validate("nested-typo", EVERYTHING.replace("block_ttl_seconds = 60", "block_ttl_second = 60"));
    assert.equal(nested.code, 1, nested.out);
    assert.match(nested.out, /"block_ttl_second" is not expected here/);
    const typo = await validate("typo", EVERYTHING.replace('device_type   = "MAC"', 'device_typ    = "MAC"'));
    assert.equal(typo.code, 1, typo.out);
    assert.match(typo.out, /Unsupported argument/);
    assert.match(typo.out, /"device_typ" is not expected here/);
    const password = await validate("password", EVERYTHING.replace("rotation_period_seconds = 86400", 'rotation_period_seconds = 86400\n  password = "pw-TOFU-never-in-state"'));
    assert.equal(password.code, 1, password.out);
    assert.match(password.out, /Unsupported argument/);
    assert.match(password.out, /"password" is not expected here/);
  });

  for (const command of [["validate"], ["plan"]]) {
    it(`tofu ${command[0]}: protocol 6 over mTLS, the schema read, and the provider leaves by itself on Shutdown`, async () => {
      const { code, stdout, stderr } = await project.tofu(command);
      assert.equal(code, 0, stdout + stderr);
      assert.match(stdout, command[0] === "validate" ? /The configuration is valid/ : /No changes\./, stdout);
      assert.match(stderr, /provider: using plugin: version=6/, "go-plugin negotiated protocol 6");
      assert.match(stderr, /provider: plugin process exited: plugin=\S*terraform-provider-dnsaccount/);
      assert.doesNotMatch(stderr, /failed to exit gracefully|plugin process exited:.*error=|Failed to read plugin|Unrecognized remote plugin message/i);
      // Every provider process tofu started left by itself: as many "exited" lines as "started" ones.
      const count = (re: RegExp): number => stderr.match(re)?.length ?? 0;
      assert.equal(count(/provider: plugin exited\b/g), count(/provider: plugin started: path=\S*terraform-provider-dnsaccount/g));
      assert.ok(count(/provider: plugin started: path=\S*terraform-provider-dnsaccount/g) >= 1);
    });
  }
});
