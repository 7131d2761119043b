import assert from "node:assert/strict";
import { type AccountHost, _accountHost } from "../../support/account-host";

/** The settings issue 22 §3 found unmanaged: access.enabled and safe browsing's own blocking mode. */
describe("DnsServer: access.enabled and safeBrowsing.blockingMode through the dynamic-provider host", function () {
  this.timeout(120_000);
  let t: AccountHost;

  before(async () => {
    t = await _accountHost();
  });

  after(async () => {
    await t?.close();
  });

  it("creates with them, shows a dashboard change as drift, and puts it back", async () => {
    const p = t.providers.DnsServer;
    const urn = t.urn("DnsServer", "guarded");
    const settings = { access: { enabled: true }, safeBrowsing: { blockingMode: { mode: "CUSTOM_IP", ipv4: "192.0.2.10", ipv6: "2001:db8::10" } } };
    const inputs = { __provider: p, name: "Guarded", settings };
    const { id, properties } = await t.host.create(urn, inputs);
    const live = (await t.dashboard.dnsServers.get(id)).settings as unknown as Record<string, any>;
    assert.equal(live.access_settings.enabled, true);
    assert.deepEqual(live.safebrowsing_settings.blocking_mode_settings, { blocking_mode: "CUSTOM_IP", ipv4_blocking_address: "192.0.2.10", ipv6_blocking_address: "2001:db8::10" });
    assert.deepEqual(properties.settings, settings);
    assert.equal((await t.host.diff(id, urn, properties, inputs)).changes, "none");

    await t.dashboard.dnsServers.updateSettings(id, { access_settings: { enabled: false }, safebrowsing_settings: { blocking_mode_settings: { blocking_mode: "REFUSED" } } });
    const read = await t.host.read(id, urn, properties);
    assert.deepEqual(read.properties.settings, { access: { enabled: false }, safeBrowsing: { blockingMode: { mode: "REFUSED", ipv4: "192.0.2.10", ipv6: "2001:db8::10" } } });
    assert.equal((await t.host.diff(id, urn, read.properties, inputs)).changes, "some");
    const updated = await t.host.update(id, urn, read.properties, inputs);
    assert.deepEqual(updated.properties.settings, settings);
    const after = (await t.dashboard.dnsServers.get(id)).settings as unknown as Record<string, any>;
    assert.equal(after.access_settings.enabled, true);
    assert.equal(after.safebrowsing_settings.blocking_mode_settings.blocking_mode, "CUSTOM_IP");
  });
});
