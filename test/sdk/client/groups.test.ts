import assert from "node:assert/strict";
import { createClient, HttpError, QuotaError } from "../../../sdk";
import { _rejects, _useEmulator, USER } from "../../support/helpers";

// Every typed method of the client against the 1.15 emulator, as users call them.

describe("typed methods against the emulator (API 1.15)", function () {
  const emu = _useEmulator({ limits: { devices: 6, dns_servers: 6, dedicated_ipv4: 1 } });
  let client: ReturnType<typeof createClient>;
  before(() => {
    client = createClient({ baseUrl: emu().url, credentials: USER, retry: { retries: 0 } });
  });
  after(() => client?.close());

  it("account.limits()", async () => {
    const limits = await client.account.limits();
    assert.equal(limits.devices.limit, 6);
    assert.equal(typeof limits.dns_servers.used, "number");
  });

  it("dnsServers: create, get, update, list/pages with filters, settings, remove", async () => {
    const a = await client.dnsServers.create({ name: "Groups A" });
    const b = await client.dnsServers.create({ name: "Groups B", settings: { protection_enabled: false } });
    assert.equal((await client.dnsServers.get(a.id)).name, "Groups A");
    await client.dnsServers.update(a.id, { name: "Groups A2" });
    assert.equal((await client.dnsServers.get(a.id)).name, "Groups A2");
    assert.deepEqual((await client.dnsServers.list({ search: "Groups" })).map((s) => s.name).sort(), ["Groups A2", "Groups B"]);
    assert.deepEqual((await client.dnsServers.list({ dns_servers: [a.id, b.id] })).length, 2);
    const pages = [];
    for await (const page of client.dnsServers.pages({ limit: 1 })) pages.push(page.items.length);
    assert.ok(pages.length >= 3 && pages.every((n) => n === 1), "one server per page, several pages");
    const settings = await client.dnsServers.getSettings(a.id);
    assert.equal(typeof settings.protection_enabled, "boolean");
    await client.dnsServers.updateSettings(a.id, { user_rules_settings: { enabled: true, rules: ["||ads.example^"] } });
    assert.deepEqual((await client.dnsServers.getSettings(a.id)).user_rules_settings.rules, ["||ads.example^"]);
    const bad = await _rejects(client.dnsServers.updateSettings(a.id, { blocking_mode_settings: { blocking_mode: "CUSTOM_IP", ipv4_blocking_address: "not-an-ip" } }));
    assert.ok(bad instanceof HttpError && bad.status === 400);
    assert.ok(bad.fields && bad.fields.length > 0);
    await client.dnsServers.remove(b.id);
    assert.equal((await _rejects(client.dnsServers.get(b.id))).status, 404);
  });

  it("devices: create, get, update, list/pages, settings, DoH password, mobileconfig, remove", async () => {
    const [server] = await client.dnsServers.list({ search: "Groups A2" });
    const d1 = await client.devices.create({ name: "Groups laptop", device_type: "LINUX", dns_server_id: server!.id });
    const d2 = await client.devices.create({ name: "Groups phone", device_type: "IOS", dns_server_id: server!.id });
    assert.equal((await client.devices.get(d1.id)).device_type, "LINUX");
    await client.devices.update(d1.id, { name: "Groups notebook" });
    assert.equal((await client.devices.get(d1.id)).name, "Groups notebook");
    assert.deepEqual((await client.devices.list({ dns_servers: [server!.id] })).map((d) => d.id).sort(), [d1.id, d2.id].sort());
    assert.deepEqual((await client.devices.list({ devices: [d2.id] })).map((d) => d.id), [d2.id]);
    let pages = 0;
    for await (const page of client.devices.pages({ limit: 1, dns_servers: [server!.id] })) pages += page.items.length === 1 ? 1 : 0;
    assert.equal(pages, 2);
    await client.devices.updateSettings(d1.id, { protection_enabled: false });
    assert.equal((await client.devices.getSettings(d1.id)).protection_enabled, false);
    await client.devices.resetDohPassword(d1.id);
    for (const protocol of ["doh", "dot"] as const) {
      const bytes = await client.devices.mobileConfig(d1.id, { protocol, excludeWifiNetworks: ["Home"], excludeDomains: ["intranet.example"] });
      assert.ok(Buffer.isBuffer(bytes) && bytes.length > 0);
      assert.match(bytes.toString("utf8"), /<plist/);
    }
    await client.devices.remove(d2.id);
    assert.equal((await _rejects(client.devices.get(d2.id))).status, 404);
  });

  it("dedicatedIpv4 and device links: allocate, list, link, dedicatedAddresses, unlink; the quota names dedicated_ipv4", async () => {
    const [device] = await client.devices.list({ search: "Groups notebook" });
    const { ip } = await client.dedicatedIpv4.allocate();
    assert.ok((await client.dedicatedIpv4.list()).some((a) => a.ip === ip));
    const over = await _rejects(client.dedicatedIpv4.allocate());
    assert.ok(over instanceof QuotaError);
    assert.equal((over as QuotaError).limit, "dedicated_ipv4");
    await client.devices.linkDedicatedIpv4(device!.id, ip);
    assert.deepEqual((await client.devices.dedicatedAddresses(device!.id)).ipv4, [ip]);
    assert.equal((await client.dedicatedIpv4.list()).find((a) => a.ip === ip)!.device_id, device!.id);
    await client.devices.unlinkDedicatedIpv4(device!.id, ip);
    assert.deepEqual((await client.devices.dedicatedAddresses(device!.id)).ipv4, []);
  });

  it("a used-up devices quota is a QuotaError naming devices", async () => {
    const [server] = await client.dnsServers.list({ search: "Groups A2" });
    let err: Error | undefined;
    for (let i = 0; i < 10 && !err; i++) {
      err = await client.devices.create({ name: `Filler ${i}`, device_type: "UNKNOWN", dns_server_id: server!.id }).then(() => undefined, (e: Error) => e);
    }
    assert.ok(err instanceof QuotaError);
    assert.equal(err.code, "limit_reached");
    assert.equal((err as QuotaError).limit, "devices");
  });

  it("reference data: filterLists, webServices, parentalControlCategories", async () => {
    assert.ok((await client.filterLists.list()).length > 0);
    assert.ok((await client.webServices.list()).length > 0);
    assert.ok((await client.parentalControlCategories.list()).length > 0);
  });

  it("queryLog: get, pages, clear; stats: every kind", async () => {
    const now = Date.now();
    const window = { time_from_millis: now - 7 * 86_400_000, time_to_millis: now };
    const first = await client.queryLog.get({ ...window, limit: 5 });
    assert.ok(first.items.length > 0);
    let items = 0;
    let pages = 0;
    for await (const page of client.queryLog.pages({ ...window, limit: 50 })) {
      items += page.items.length;
      if (++pages === 3) break;
    }
    assert.ok(items > 0);
    assert.ok((await client.stats.time(window)).stats.length > 0);
    assert.ok(Array.isArray((await client.stats.domains({ ...window, limit: 5 })).stats));
    assert.ok(Array.isArray((await client.stats.companies(window)).stats));
    assert.ok(Array.isArray((await client.stats.companiesDetailed(window)).stats));
    assert.ok(Array.isArray((await client.stats.countries(window)).stats));
    assert.ok(Array.isArray((await client.stats.devices(window)).stats));
    assert.ok(Array.isArray((await client.stats.categories(window)).stats));
    assert.ok(Array.isArray((await client.stats.blockedParentalCategories(window)).stats));
    await client.queryLog.clear();
    assert.equal((await client.queryLog.get(window)).items.length, 0);
  });

  it("operations() loads /swagger/openapi.json and call() reaches a 1.15 operation", async () => {
    const ops = await client.operations();
    assert.ok(ops.some((o) => o.operationId === "getDevices" && o.path === "/oapi/v2/devices"));
    const limits = (await client.call("getAccountLimits")) as { devices: { limit: number } };
    assert.equal(limits.devices.limit, 6);
    const page = (await client.call("getDnsServers", { query: { limit: 1 } })) as { items: unknown[] };
    assert.equal(page.items.length, 1);
  });
});
