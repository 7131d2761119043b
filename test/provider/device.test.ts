import assert from "node:assert/strict";
import { type AccountHost, _accountHost, OPS_PASSWORD } from "../support/account-host";
import { _assertNoSecrets, _closeAll } from "../support/helpers";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** The DoH password embedded in a with-auth URL (`https://<login>:<password>@host/…`). */
function dohPassword(url: string): string {
  return decodeURIComponent(new URL(url).password);
}

describe("Device through the dynamic-provider host (installed copy)", function () {
  this.timeout(120_000);
  let t: AccountHost;
  let p: string;
  let urn: string;
  let s1: string;
  let s2: string;
  const dohPasswords: string[] = [];

  before(async () => {
    t = await _accountHost({ limits: { devices: 3 } });
    p = t.providers.Device;
    urn = t.urn("Device", "laptop");
    s1 = (await t.dashboard.dnsServers.create({ name: "Kids" })).id;
    s2 = (await t.dashboard.dnsServers.create({ name: "Adults" })).id;
  });

  after(async () => {
    await _closeAll(() => {
      assert.ok(dohPasswords.length >= 2, "the test saw DoH passwords to search for");
      const secrets = [OPS_PASSWORD, ...dohPasswords, ...dohPasswords.map((s) => s.toLowerCase())];
      _assertNoSecrets(t.host.output(), secrets);
    }, () => t?.close());
  });

  it("Check: names the property at fault; accepts a server id unknown during preview", async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ["name", "deviceType", "dnsServerId"]],
      [{ name: "x", deviceType: "TOASTER", dnsServerId: "s" }, ["deviceType"]],
      [{ name: "x", deviceType: "MAC", dnsServerId: "s", settings: { protectionEnabled: 1 } }, ["settings.protectionEnabled"]],
      [{ name: "x", deviceType: "MAC", dnsServerId: "s", dohPasswordKeepers: ["a"] }, ["dohPasswordKeepers"]],
      [{ adopt: "dev-missing" }, ["adopt"]],
      [{ adopt: 12345678 }, ["adopt"]],
      [{ adopt: "" }, ["adopt"]],
    ];
    for (const [news, properties] of cases) {
      const { failures } = await t.host.check(urn, {}, { __provider: p, ...news });
      assert.deepEqual(failures.map((f) => f.property), properties, JSON.stringify(news));
    }
    assert.deepEqual((await t.host.check(urn, {}, { __provider: p, name: "x", deviceType: "MAC", dnsServerId: UNKNOWN })).failures, []);
  });

  let id: string;
  let state: Record<string, unknown>;
  const inputs = () => ({ __provider: p, name: "Laptop", deviceType: "MAC", dnsServerId: s1, settings: { protectionEnabled: false }, dohPasswordKeepers: { v: "1" } });

  it("Create: the device with its settings; with-auth addresses apart from the plain ones", async () => {
    const res = await t.host.create(urn, inputs());
    id = res.id;
    state = res.properties;
    assert.equal(state.deviceId, id);
    assert.equal(state.dnsServerId, s1);
    assert.deepEqual(state.settings, { protectionEnabled: false });
    assert.equal((await t.dashboard.devices.get(id)).settings.protection_enabled, false);
    const withAuth = state.dnsAddressesWithAuth as Record<string, string>;
    const plain = state.dnsAddresses as Record<string, string>;
    assert.ok(withAuth.dnsOverHttpsWithAuthUrl);
    assert.ok(plain.dnsOverHttpsUrl);
    assert.ok(!Object.keys(plain).some((k) => k.endsWith("WithAuthUrl")));
    assert.ok(Object.keys({ ...plain, ...withAuth }).every((k) => /^[a-z][A-Za-z0-9]*$/.test(k)), "camelCase keys");
    dohPasswords.push(dohPassword(withAuth.dnsOverHttpsWithAuthUrl!));
    const { dnsAddressesWithAuth: _w, ...unmarked } = state;
    _assertNoSecrets(JSON.stringify(unmarked), dohPasswords);
  });

  it("Diff: moving, renaming or retyping is an update, also with an unknown server id", async () => {
    for (const change of [{ dnsServerId: s2 }, { name: "Laptop 2" }, { deviceType: "LINUX" }, { dnsServerId: UNKNOWN }]) {
      assert.deepEqual(await t.host.diff(id, urn, state, { ...inputs(), ...change }), { changes: "some", replaces: [], deleteBeforeReplace: false }, JSON.stringify(change));
    }
    assert.equal((await t.host.diff(id, urn, state, inputs())).changes, "none");
  });

  it("Update: moves the device to another server in place", async () => {
    const { properties } = await t.host.update(id, urn, state, { ...inputs(), dnsServerId: s2 });
    assert.equal(properties.deviceId, id);
    assert.equal((await t.dashboard.devices.get(id)).dns_server_id, s2);
    state = properties;
  });

  it("Update: a change of dohPasswordKeepers resets the DoH password", async () => {
    const { properties } = await t.host.update(id, urn, state, { ...inputs(), dnsServerId: s2, dohPasswordKeepers: { v: "2" } });
    const next = dohPassword((properties.dnsAddressesWithAuth as Record<string, string>).dnsOverHttpsWithAuthUrl!);
    assert.notEqual(next, dohPasswords[0]);
    dohPasswords.push(next);
    state = properties;
  });

  it("Read: a dashboard edit of a managed setting is drift; a device deleted out of band is gone", async () => {
    await t.dashboard.devices.updateSettings(id, { protection_enabled: true } as never);
    const read = await t.host.read(id, urn, state);
    assert.deepEqual(read.properties.settings, { protectionEnabled: true });
    assert.equal((await t.host.diff(id, urn, read.properties, { ...inputs(), dnsServerId: s2, dohPasswordKeepers: { v: "2" } })).changes, "some");
    const other = await t.dashboard.devices.create({ name: "Gone", device_type: "IOS", dns_server_id: s1 });
    await t.dashboard.devices.remove(other.id);
    assert.equal((await t.host.read(other.id, urn, { ...state, deviceId: other.id })).id, "");
  });

  it("Adopt: takes a dashboard device over and forgets it on delete", async () => {
    const made = await t.dashboard.devices.create({ name: "TV", device_type: "SMART_TV", dns_server_id: s1 });
    const res = await t.host.create(t.urn("Device", "tv"), { __provider: p, adopt: made.id, dnsServerId: s2 });
    assert.equal(res.id, made.id);
    assert.equal((await t.dashboard.devices.get(made.id)).dns_server_id, s2);
    await t.host.delete(res.id, t.urn("Device", "tv"), res.properties);
    assert.equal((await t.dashboard.devices.get(made.id)).id, made.id);
  });

  it("Create over the quota names the quota", async () => {
    let err: Error | undefined;
    for (let i = 0; i < 4 && !err; i++) {
      err = await t.host.create(t.urn("Device", `q${i}`), { __provider: p, name: `Extra ${i}`, deviceType: "LINUX", dnsServerId: s1 }).then(
        () => undefined,
        (e: Error) => e,
      );
    }
    assert.ok(err, "the quota was reached");
    assert.match(err.message, /devices: 3 used of 3/);
  });

  it("Delete: removes the device", async () => {
    await t.host.delete(id, urn, state);
    assert.ok(!(await t.dashboard.devices.list()).some((d) => d.id === id));
  });
});
