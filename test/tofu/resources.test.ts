import assert from "node:assert/strict";
import { _tofuSuite } from "../support/tofu-project";

const API_KEY = "key-TOFU-RESOURCES-5d1c9e07";

/**
 * Issue 34: DnsServer and Device through the OpenTofu face under the real `tofu`, against the emulator:
 * apply, a plan with no changes, an in-place change that keeps the ids known in the plan, drift seen by
 * plan and repaired by apply, an import block that plans no change, destroy. The provider is the release
 * zip, installed by `tofu init` from the filesystem mirror as users install it. The API key comes from the
 * environment (DNS_ACCOUNT_API_KEY, the same chain as the CLI and Pulumi) and is never in the state.
 */
describe("tofu: DNS servers and devices under the real tofu", function () {
  this.timeout(600_000);
  const suite = _tofuSuite({
    prefix: "dns-account-tofu-resources-",
    dashboard: { username: "user@example.com", apiKey: API_KEY },
    env: (emu) => ({ DNS_ACCOUNT_API_KEY: API_KEY, DNS_ACCOUNT_BASE_URL: emu.url }),
    secrets: () => [API_KEY],
  });
  const { ok, plan } = suite;

  const config = (o: { serverName?: string; deviceName?: string; protection?: boolean; rules?: string[]; extra?: string } = {}) => `
provider "dnsaccount" {}

resource "dnsaccount_dns_server" "home" {
  name = "${o.serverName ?? "Home"}"
  settings {
    block_ttl_seconds = 60
    user_rules {
      enabled = true
      rules   = ${JSON.stringify(o.rules ?? ["||ads.example^"])}
    }
  }
}

resource "dnsaccount_device" "laptop" {
  name          = "${o.deviceName ?? "Laptop"}"
  device_type   = "MAC"
  dns_server_id = dnsaccount_dns_server.home.server_id
  settings {
    protection_enabled = ${o.protection ?? true}
  }
}
${o.extra ?? ""}`;

  it("base_url_conflict: a provider block's base_url beside an API key of the environment that has none fails, in tofu's words", async () => {
    suite.project.write(config().replace('provider "dnsaccount" {}', `provider "dnsaccount" {\n  base_url = "${suite.emu.url}"\n}`));
    const r = await suite.project.tofu(["plan"], { DNS_ACCOUNT_BASE_URL: "" });
    suite.record(r.stdout + r.stderr);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const said = r.stderr.replace(/\s+/g, " ");
    assert.match(said, /base_url_conflict: base_url in the provider block points at/);
    assert.match(said, /DNS_ACCOUNT_API_KEY/);
    assert.doesNotMatch(said, /dns-account:|baseUrl|apiKey/, "tofu's words, not Pulumi's");
    assert.deepEqual(await suite.dashboard.dnsServers.list().then((l) => l.filter((x) => !x.default)), [], "nothing was made");
  });

  let serverId: string;
  let deviceId: string;

  it("apply creates the server with its settings and the device in it; the next plan has no changes", async () => {
    suite.project.write(config());
    const applied = await ok("apply", "-auto-approve");
    assert.match(applied, /Apply complete! Resources: 2 added, 0 changed, 0 destroyed/);
    // What destroy will do is the configuration's, planned known (a created object is deleted).
    assert.equal(applied.match(/\+ retain_on_destroy\s+= false/g)?.length, 2, applied);
    assert.doesNotMatch(applied, /(delete|retain)_on_destroy\s+= \(known after apply\)/, applied);
    const state = suite.project.resources();
    serverId = String(state.get("dnsaccount_dns_server.home")!.server_id);
    deviceId = String(state.get("dnsaccount_device.laptop")!.device_id);
    assert.equal(state.get("dnsaccount_dns_server.home")!.id, serverId);
    const server = await suite.dashboard.dnsServers.get(serverId);
    assert.equal(server.name, "Home");
    assert.equal(server.settings.block_ttl_seconds, 60);
    assert.deepEqual(server.settings.user_rules_settings?.rules, ["||ads.example^"]);
    const device = await suite.dashboard.devices.get(deviceId);
    assert.equal(device.dns_server_id, serverId);
    assert.equal(device.settings?.protection_enabled, true);
    const again = await plan();
    assert.equal(again.code, 0, again.out);
    assert.match(again.out, /No changes\./);
  });

  it("an in-place change: an update of each, the ids stay known in the plan, the service follows", async () => {
    suite.project.write(config({ deviceName: "Laptop 2", protection: false, rules: ["||ads.example^", "||tracker.example^"] }));
    const planned = await plan();
    assert.equal(planned.code, 2, planned.out);
    assert.match(planned.out, /Plan: 0 to add, 2 to change, 0 to destroy/);
    assert.doesNotMatch(planned.out, /must be replaced|forces replacement/);
    assert.doesNotMatch(planned.out, /(server_id|device_id|dns_addresses)\s+=\s+\(known after apply\)/, "what the change cannot move stays known");
    assert.doesNotMatch(planned.out, /(delete|retain)_on_destroy/, "nor does what destroy will do (it is the configuration's)");
    await ok("apply", "-auto-approve");
    const device = await suite.dashboard.devices.get(deviceId);
    assert.equal(device.name, "Laptop 2");
    assert.equal(device.settings?.protection_enabled, false);
    assert.deepEqual((await suite.dashboard.dnsServers.get(serverId)).settings.user_rules_settings?.rules, ["||ads.example^", "||tracker.example^"]);
    assert.equal(String(suite.project.resources().get("dnsaccount_device.laptop")!.device_id), deviceId);
    assert.equal((await plan()).code, 0);
  });

  it("drift: a change at the service shows in the plan and apply puts it back", async () => {
    await suite.dashboard.dnsServers.update(serverId, { name: "Renamed in the dashboard" });
    const drifted = await plan();
    assert.equal(drifted.code, 2, drifted.out);
    assert.match(drifted.out, /"Renamed in the dashboard" -> "Home"/);
    await ok("apply", "-auto-approve");
    assert.equal((await suite.dashboard.dnsServers.get(serverId)).name, "Home");
    assert.equal((await plan()).code, 0);
  });

  it("an import block adopts a device made in the dashboard, and the plan after it has no changes", async () => {
    const made = await suite.dashboard.devices.create({ name: "Phone", device_type: "ANDROID", dns_server_id: serverId });
    const extra = `
import {
  to = dnsaccount_device.phone
  id = "${made.id}"
}

resource "dnsaccount_device" "phone" {
  name          = "Phone"
  device_type   = "ANDROID"
  dns_server_id = dnsaccount_dns_server.home.server_id
  settings {
    protection_enabled = true
    detect_doh_auth_only = false
  }
}
`;
    suite.project.write(config({ deviceName: "Laptop 2", protection: false, rules: ["||ads.example^", "||tracker.example^"], extra }));
    const planned = await plan();
    assert.match(planned.out, /Plan: 1 to import, 0 to add, 0 to change, 0 to destroy/, planned.out);
    await ok("apply", "-auto-approve");
    assert.equal(String(suite.project.resources().get("dnsaccount_device.phone")!.device_id), made.id);
    const after = await plan();
    assert.equal(after.code, 0, after.out);
  });

  it("delete_on_destroy = false, then out of the configuration: the device stays at the service, and tofu says so", async () => {
    const phone = String(suite.project.resources().get("dnsaccount_device.phone")!.device_id);
    const kept = `
resource "dnsaccount_device" "phone" {
  name              = "Phone"
  device_type       = "ANDROID"
  dns_server_id     = dnsaccount_dns_server.home.server_id
  delete_on_destroy = false
}
`;
    const base = { deviceName: "Laptop 2", protection: false, rules: ["||ads.example^", "||tracker.example^"] };
    suite.project.write(config({ ...base, extra: kept }));
    const declared = await ok("apply", "-auto-approve");
    assert.match(declared, /Resources: 0 added, 1 changed, 0 destroyed/);
    assert.equal(suite.project.resources().get("dnsaccount_device.phone")!.retain_on_destroy, true);
    suite.project.write(config(base));
    const removed = await ok("apply", "-auto-approve");
    assert.match(removed, /Resources: 0 added, 0 changed, 1 destroyed/);
    assert.match(removed.replace(/\s+/g, " "), new RegExp(`dnsaccount_device ${phone} is kept at the service`));
    assert.ok((await suite.dashboard.devices.list()).some((d) => d.id === phone), "the device is still at the service");
  });

  it("an adopted device: delete_on_destroy = true taken out of the configuration goes back to keeping it, and it is kept", async () => {
    const tablet = (await suite.dashboard.devices.create({ name: "Tablet", device_type: "IOS", dns_server_id: serverId })).id;
    const base = { deviceName: "Laptop 2", protection: false, rules: ["||ads.example^", "||tracker.example^"] };
    const adopted = (rule: string) => `
resource "dnsaccount_device" "tablet" {
  adopt = "${tablet}"${rule}
}
`;
    suite.project.write(config({ ...base, extra: adopted("\n  delete_on_destroy = true") }));
    await ok("apply", "-auto-approve");
    assert.equal(suite.project.resources().get("dnsaccount_device.tablet")!.retain_on_destroy, false, "declared: deleted on destroy");
    suite.project.write(config({ ...base, extra: adopted("") }));
    const planned = await plan();
    assert.equal(planned.code, 2, `taking the line out is a change:\n${planned.out}`);
    await ok("apply", "-auto-approve");
    const state = suite.project.resources().get("dnsaccount_device.tablet")!;
    assert.equal(state.delete_on_destroy, false);
    assert.equal(state.retain_on_destroy, true, "adopted, and nothing declared: kept");
    assert.equal((await plan()).code, 0);
    suite.project.write(config(base));
    await ok("apply", "-auto-approve");
    assert.ok((await suite.dashboard.devices.list()).some((d) => d.id === tablet), "the adopted device is still at the service");
  });

  it("destroy deletes what the configuration made and imported", async () => {
    const destroyed = await ok("destroy", "-auto-approve");
    assert.match(destroyed, /Destroy complete! Resources: 2 destroyed/);
    const devices = await suite.dashboard.devices.list();
    assert.deepEqual(devices.filter((d) => d.id === deviceId), []);
    assert.ok(!(await suite.dashboard.dnsServers.list()).some((s) => s.id === serverId));
  });
});
