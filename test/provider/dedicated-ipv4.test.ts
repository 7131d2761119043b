import assert from "node:assert/strict";
import { type AccountHost, _accountHost } from "../support/account-host";

describe("DedicatedIpv4 through the dynamic-provider host (installed copy)", function () {
  this.timeout(120_000);
  let t: AccountHost;
  let p: string;
  let urn: string;
  let d1: string;
  let d2: string;

  before(async () => {
    t = await _accountHost({ limits: { dedicated_ipv4: 2 } });
    p = t.providers.DedicatedIpv4;
    urn = t.urn("DedicatedIpv4", "router");
    const server = (await t.dashboard.dnsServers.list())[0]!.id;
    d1 = (await t.dashboard.devices.create({ name: "Router", device_type: "ROUTER", dns_server_id: server })).id;
    d2 = (await t.dashboard.devices.create({ name: "Console", device_type: "GAME_CONSOLE", dns_server_id: server })).id;
  });

  after(() => t?.close());

  let state: Record<string, unknown>;

  it("Create: allocates an address and links it to the device", async () => {
    const res = await t.host.create(urn, { __provider: p, deviceId: d1 });
    state = res.properties;
    assert.equal(res.id, state.ip);
    assert.equal(state.deviceId, d1);
    assert.deepEqual((await t.dashboard.devices.dedicatedAddresses(d1)).ipv4, [state.ip]);
  });

  it("Diff and Update: another device relinks in place; no device unlinks", async () => {
    assert.deepEqual(await t.host.diff(res(), urn, state, { __provider: p, deviceId: d2 }), { changes: "some", replaces: [], deleteBeforeReplace: false });
    state = (await t.host.update(res(), urn, state, { __provider: p, deviceId: d2 })).properties;
    assert.deepEqual((await t.dashboard.devices.dedicatedAddresses(d1)).ipv4, []);
    assert.deepEqual((await t.dashboard.devices.dedicatedAddresses(d2)).ipv4, [state.ip]);
    state = (await t.host.update(res(), urn, state, { __provider: p })).properties;
    assert.equal(state.deviceId, undefined);
    assert.deepEqual((await t.dashboard.devices.dedicatedAddresses(d2)).ipv4, []);
  });

  it("Read: a link made in the dashboard shows as drift", async () => {
    await t.dashboard.devices.linkDedicatedIpv4(d1, state.ip as string);
    const read = await t.host.read(res(), urn, state);
    assert.equal(read.properties.deviceId, d1);
    assert.equal((await t.host.diff(res(), urn, read.properties, { __provider: p })).changes, "some");
    state = (await t.host.update(res(), urn, read.properties, { __provider: p, deviceId: d1 })).properties;
  });

  it("Delete: unlinks, keeps the address allocated, and warns that the service cannot release it", async () => {
    await t.host.delete(res(), urn, state);
    const all = await t.dashboard.dedicatedIpv4.list();
    const kept = all.find((a) => a.ip === state.ip);
    assert.ok(kept, "still allocated");
    assert.ok(!kept.device_id);
    assert.match(t.host.output(), /no release operation/);
  });

  it("Adopt: takes over the address that stayed allocated", async () => {
    const res2 = await t.host.create(t.urn("DedicatedIpv4", "again"), { __provider: p, adopt: state.ip, deviceId: d2 });
    assert.equal(res2.id, state.ip);
    assert.deepEqual((await t.dashboard.devices.dedicatedAddresses(d2)).ipv4, [state.ip]);
    const missing = await t.host.check(urn, {}, { __provider: p, adopt: "198.51.100.77" });
    assert.deepEqual(missing.failures.map((f) => f.property), ["adopt"]);
  });

  it("Allocating over the quota names the quota", async () => {
    await t.host.create(t.urn("DedicatedIpv4", "second"), { __provider: p });
    const err = await t.host.create(t.urn("DedicatedIpv4", "third"), { __provider: p }).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(err);
    assert.match(err.message, /dedicated_ipv4: 2 used of 2/);
  });

  function res(): string {
    return state.ip as string;
  }
});
