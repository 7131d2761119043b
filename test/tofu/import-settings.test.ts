import assert from "node:assert/strict";
import { _tofuSuite } from "../support/tofu-project";

const API_KEY = "key-TOFU-IMPORT-SETTINGS-3b7e90c1";

/** A DNS server's settings other than a new server's (the service's field names). */
const SERVER_SETTINGS = {
  protection_enabled: false,
  block_ttl_seconds: 42,
  block_private_relay: true,
  blocking_mode_settings: { blocking_mode: "CUSTOM_IP", ipv4_blocking_address: "192.0.2.7", ipv6_blocking_address: "2001:db8::7" },
  user_rules_settings: { enabled: false, rules: ["||games.example^", "@@||school.example^"] },
  parental_control_settings: {
    enabled: true,
    blocked_services: [{ id: "tiktok", enabled: true }],
    screen_time_schedule: { daily_schedule: [{ day_of_week: "MONDAY", enabled: true, from_time: { hours: 7, minutes: 30 }, to_time: { hours: 21, minutes: 0 } }] },
  },
  safebrowsing_settings: { enabled: false, block_nrd: true },
};

type Settings = Record<string, any>;

/**
 * Issue 34, its last item: after an import the next plan shows no change. A server's and a device's
 * `settings` are group blocks of optional and computed arguments: the state holds every setting as the
 * service has it, and a configuration without a settings block (or declaring some) manages only what it
 * declares, so tofu proposes the state's value of the rest. Under the real tofu, installed from the mirror.
 */
describe("tofu: an import of a server and a device without a settings block plans no change", function () {
  this.timeout(600_000);
  const suite = _tofuSuite({
    prefix: "dns-account-tofu-import-settings-",
    dashboard: { username: "user@example.com", apiKey: API_KEY },
    env: (emu) => ({ DNS_ACCOUNT_API_KEY: API_KEY, DNS_ACCOUNT_BASE_URL: emu.url }),
    secrets: () => [API_KEY],
  });
  const { ok, plan } = suite;

  let serverId: string;
  let deviceId: string;
  let otherId: string;

  const resources = (o: { serverSettings?: string; imports?: boolean } = {}) => `
provider "dnsaccount" {}
${
  o.imports
    ? `
import {
  to = dnsaccount_dns_server.kids
  id = "${serverId}"
}

import {
  to = dnsaccount_device.tablet
  id = "${deviceId}"
}
`
    : ""
}
resource "dnsaccount_dns_server" "kids" {
  name = "Kids"
${o.serverSettings ?? ""}}

resource "dnsaccount_device" "tablet" {
  name          = "Tablet"
  device_type   = "ANDROID"
  dns_server_id = dnsaccount_dns_server.kids.server_id
}

resource "dnsaccount_dns_server" "other" {
  name = "Other"
}
`;

  const state = (address: string): Settings => suite.project.resources().get(address)! as Settings;

  it("an import block of a server and a device with other settings than a new one's, configured without settings: the plan shows only the imports, the next plan no change, and the state holds the service's settings", async () => {
    const server = await suite.dashboard.dnsServers.create({ name: "Kids" });
    await suite.dashboard.dnsServers.updateSettings(server.id, SERVER_SETTINGS as never);
    const device = await suite.dashboard.devices.create({ name: "Tablet", device_type: "ANDROID", dns_server_id: server.id });
    await suite.dashboard.devices.updateSettings(device.id, { protection_enabled: false, detect_doh_auth_only: true });
    const other = await suite.dashboard.dnsServers.create({ name: "Other" });
    await suite.dashboard.dnsServers.updateSettings(other.id, { block_ttl_seconds: 7, ip_log_enabled: false } as never);
    (serverId = server.id), (deviceId = device.id), (otherId = other.id);

    // `tofu import` too: the other server, before the rest is written.
    suite.project.write(resources());
    await ok("import", "dnsaccount_dns_server.other", otherId);
    suite.project.write(resources({ imports: true }));
    const planned = await plan();
    assert.equal(planned.code, 2, planned.out);
    assert.match(planned.out, /Plan: 2 to import, 0 to add, 0 to change, 0 to destroy/, planned.out);
    assert.doesNotMatch(planned.out, /update in-place|->/, planned.out);
    await ok("apply", "-auto-approve");
    const after = await plan();
    assert.equal(after.code, 0, after.out);

    const kids = state("dnsaccount_dns_server.kids").settings as Settings;
    assert.equal(kids.protection_enabled, false);
    assert.equal(kids.block_ttl_seconds, 42);
    assert.deepEqual(kids.user_rules, { enabled: false, rules: ["||games.example^", "@@||school.example^"] });
    assert.deepEqual(kids.blocking_mode, { mode: "CUSTOM_IP", ipv4: "192.0.2.7", ipv6: "2001:db8::7" });
    assert.deepEqual(kids.parental_control.schedule.monday, { from: "07:30", to: "21:00" });
    assert.deepEqual(state("dnsaccount_device.tablet").settings, { protection_enabled: false, detect_doh_auth_only: true });
    assert.equal((state("dnsaccount_dns_server.other").settings as Settings).block_ttl_seconds, 7);
    // Nothing was written to the account.
    const now = await suite.dashboard.dnsServers.get(serverId);
    assert.equal(now.settings.block_ttl_seconds, 42);
    assert.equal(now.settings.protection_enabled, false);
    assert.equal((await suite.dashboard.devices.get(deviceId)).settings?.detect_doh_auth_only, true);
  });

  it("a declared setting drifted at the service plans an update of that setting only; an undeclared one follows the service; a setting taken out of the configuration is no longer managed", async () => {
    suite.project.write(resources({ serverSettings: "  settings {\n    block_ttl_seconds = 42\n  }\n" }));
    assert.equal((await plan()).code, 0, "declaring the value the server has changes nothing");
    await suite.dashboard.dnsServers.updateSettings(serverId, { block_ttl_seconds: 9, protection_enabled: true } as never);
    const drifted = await plan();
    assert.equal(drifted.code, 2, drifted.out);
    assert.match(drifted.out, /Plan: 0 to add, 1 to change, 0 to destroy/, drifted.out);
    assert.match(drifted.out, /~ block_ttl_seconds\s+= 9 -> 42/, drifted.out);
    // In the settings block, that setting only; beside it, what any settings update of a server plans (what
    // the service reports of every setting, known after apply). What destroy does is the configuration's:
    // planned known, unchanged, so not shown.
    const settings = /^ {6}~ settings \{\n([\s\S]*?)\n {8}\}$/m.exec(drifted.out)?.[1] ?? "";
    const changedIn = (text: string, indent: number) => [...text.matchAll(new RegExp(`^ {${indent}}[~+-] (\\w+)`, "gm"))].map((m) => m[1]);
    assert.deepEqual(changedIn(settings, 10), ["block_ttl_seconds"], drifted.out);
    assert.deepEqual(changedIn(drifted.out, 6).sort(), ["effective_settings", "settings"], drifted.out);
    await ok("apply", "-auto-approve");
    const repaired = await suite.dashboard.dnsServers.get(serverId);
    assert.equal(repaired.settings.block_ttl_seconds, 42, "the declared setting is repaired");
    assert.equal(repaired.settings.protection_enabled, true, "the undeclared one stays as the service has it");
    assert.equal((await plan()).code, 0);
    assert.equal((state("dnsaccount_dns_server.kids").settings as Settings).protection_enabled, true);

    // Taken out of the configuration: no change planned, and a change at the service is no drift.
    suite.project.write(resources());
    assert.equal((await plan()).code, 0);
    await suite.dashboard.dnsServers.updateSettings(serverId, { block_ttl_seconds: 11 } as never);
    const followed = await plan();
    assert.equal(followed.code, 0, followed.out);
  });

  it("a server and a device created without settings: apply fills the state with the service's settings, and the next plan has no changes", async () => {
    suite.project.write(
      resources() +
        `
resource "dnsaccount_dns_server" "fresh" {
  name = "Fresh"
}

resource "dnsaccount_device" "fresh" {
  name          = "Fresh"
  device_type   = "IOS"
  dns_server_id = dnsaccount_dns_server.fresh.server_id
}
`,
    );
    const planned = await plan();
    assert.match(planned.out, /Plan: 2 to add, 0 to change, 0 to destroy/, planned.out);
    await ok("apply", "-auto-approve");
    const fresh = state("dnsaccount_dns_server.fresh");
    const live = await suite.dashboard.dnsServers.get(String(fresh.server_id));
    const settings = fresh.settings as Settings;
    assert.equal(settings.protection_enabled, live.settings.protection_enabled);
    assert.equal(settings.block_ttl_seconds, live.settings.block_ttl_seconds);
    assert.equal(typeof settings.block_ttl_seconds, "number", "the service's value, not null");
    const device = state("dnsaccount_device.fresh");
    const liveDevice = await suite.dashboard.devices.get(String(device.device_id));
    assert.deepEqual(device.settings, { protection_enabled: liveDevice.settings?.protection_enabled === true, detect_doh_auth_only: liveDevice.settings?.detect_doh_auth_only === true });
    const again = await plan();
    assert.equal(again.code, 0, again.out);
  });
});
