import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { type AccountHost, _accountHost, OPS_PASSWORD } from "../support/account-host";
import { startPlugin, type PluginHost } from "../support/engine/plugin-host";
import { _assertNoSecrets, _cleanEnv, _closeAll } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _useTempDirs } from "../support/temp";

type Props = Record<string, unknown>;

/** Whether the account still has the server and the device (read by a client of its own, as a person would). */
async function exists(dashboard: Client, serverId: string, deviceId: string): Promise<{ server: boolean; device: boolean }> {
  const [servers, devices] = await Promise.all([dashboard.dnsServers.list(), dashboard.devices.list()]);
  return { server: servers.some((s) => s.id === serverId), device: devices.some((d) => d.id === deviceId) };
}

/**
 * Issue 33 §4: an explicit `deleteOnDestroy: false` keeps the object whoever made it (Pulumi's
 * `retainOnDelete`), on both engine faces; unset, a created object is deleted and an adopted one kept.
 */
describe("deleteOnDestroy: false keeps what the program created (dynamic provider)", function () {
  this.timeout(120_000);
  let t: AccountHost;
  let server: string;
  let device: string;
  const urnS = (n: string) => t.urn("DnsServer", n);
  const urnD = (n: string) => t.urn("Device", n);

  before(async () => {
    t = await _accountHost();
    server = t.providers.DnsServer;
    device = t.providers.Device;
  });

  after(async () => {
    await _closeAll(() => _assertNoSecrets(t.host.output(), [OPS_PASSWORD]), () => t?.close());
  });

  /** A created server and a device in it, as the program declares them. */
  async function made(name: string): Promise<{ s: { id: string; properties: Props; inputs: Props }; d: { id: string; properties: Props; inputs: Props } }> {
    const sInputs = { __provider: server, name };
    const s = await t.host.create(urnS(name), sInputs);
    const dInputs = { __provider: device, name: `${name} phone`, deviceType: "ANDROID", dnsServerId: s.id };
    const d = await t.host.create(urnD(name), dInputs);
    return { s: { ...s, inputs: sInputs }, d: { ...d, inputs: dInputs } };
  }

  it("declaring it on created objects is a change; the update calls nothing and records it; delete keeps the server and its device", async () => {
    const { s, d } = await made("Kept");
    assert.equal(s.properties.retainOnDestroy, false, "created, undeclared: destroy deletes it");
    const sNews = { ...s.inputs, deleteOnDestroy: false };
    const dNews = { ...d.inputs, deleteOnDestroy: false };
    assert.equal((await t.host.diff(s.id, urnS("Kept"), s.properties, sNews)).changes, "some");
    assert.equal((await t.host.diff(d.id, urnD("Kept"), d.properties, dNews)).changes, "some");
    const calls = t.emu.stats.apiCalls;
    const sUp = await t.host.update(s.id, urnS("Kept"), s.properties, sNews);
    const dUp = await t.host.update(d.id, urnD("Kept"), d.properties, dNews);
    assert.equal(sUp.properties.retainOnDestroy, true);
    assert.equal(dUp.properties.retainOnDestroy, true);
    assert.equal(t.emu.stats.apiCalls, calls, "recording the rule calls nothing");
    assert.equal((await t.host.diff(s.id, urnS("Kept"), sUp.properties, sNews)).changes, "none", "then nothing changes");
    // The program no longer declares them: the engine deletes the device, then the server.
    await t.host.delete(d.id, urnD("Kept"), dUp.properties);
    await t.host.delete(s.id, urnS("Kept"), sUp.properties);
    assert.deepEqual(await exists(t.dashboard, s.id, d.id), { server: true, device: true });
    assert.equal((await t.dashboard.devices.get(d.id)).dns_server_id, s.id, "a kept server keeps its device");
    assert.match(t.host.output(), new RegExp(`DnsServer ${s.id} is kept at the service \\(deleteOnDestroy: false, declared by the program`));
    assert.match(t.host.output(), new RegExp(`Device ${d.id} is kept at the service`));
  });

  it("a state written before retainOnDestroy (deleteOnDestroy: false for an undeclared value) shows the declared false as a change, not an undeclared value", async () => {
    const { s } = await made("Older");
    const { retainOnDestroy: _r, ...older } = s.properties;
    assert.equal(older.deleteOnDestroy, false);
    assert.equal((await t.host.diff(s.id, urnS("Older"), older, { ...s.inputs, deleteOnDestroy: false })).changes, "some");
    assert.equal((await t.host.diff(s.id, urnS("Older"), older, s.inputs)).changes, "none", "an upgrade alone changes nothing");
    const refreshed = await t.host.read(s.id, urnS("Older"), older);
    assert.equal(refreshed.properties.retainOnDestroy, false, "a refresh records the rule of then");
    await t.host.delete(s.id, urnS("Older"), older);
    assert.equal((await exists(t.dashboard, s.id, "")).server, false, "an older state of a created server is deleted, as before");
  });

  it("the defaults stay: created and undeclared is deleted, adopted and undeclared is kept, deleteOnDestroy: true deletes either", async () => {
    const { s, d } = await made("Default");
    await t.host.delete(d.id, urnD("Default"), d.properties);
    await t.host.delete(s.id, urnS("Default"), s.properties);
    assert.deepEqual(await exists(t.dashboard, s.id, d.id), { server: false, device: false });

    const live = await t.dashboard.dnsServers.create({ name: "Dashboard" });
    const adopted = await t.host.create(urnS("adopted"), { __provider: server, adopt: live.id });
    assert.equal(adopted.properties.retainOnDestroy, true);
    await t.host.delete(adopted.id, urnS("adopted"), adopted.properties);
    assert.equal((await exists(t.dashboard, live.id, "")).server, true);
    const news = { __provider: server, adopt: live.id, deleteOnDestroy: true };
    const up = await t.host.update(adopted.id, urnS("adopted"), adopted.properties, news);
    assert.equal(up.properties.retainOnDestroy, false);
    await t.host.delete(adopted.id, urnS("adopted"), up.properties);
    assert.equal((await exists(t.dashboard, live.id, "")).server, false);
  });

  it("Check refuses a deleteOnDestroy that is not true or false, on a Device too", async () => {
    const { failures } = await t.host.check(urnD("bad"), {}, { __provider: device, name: "d", deviceType: "LINUX", dnsServerId: "x", deleteOnDestroy: "no" });
    assert.deepEqual(
      failures.map((f) => f.property),
      ["deleteOnDestroy"],
    );
  });
});

describe("deleteOnDestroy: false keeps what the program created (native plugin)", function () {
  const tmp = _useTempDirs();
  this.timeout(120_000);
  const A = { username: "alice@example.com", password: "pw-RETAIN-A-3e91c0" };
  let emu: Emulator;
  let plugin: PluginHost;
  let key: string;
  let dashboard: Client;
  const urn = (type: string, name: string) => `urn:pulumi:dev::home::dns-account:index:${type}::${name}`;

  before(async () => {
    emu = await startEmulator({ users: [A] });
    key = emu.addApiKey(A.username, "key-RETAIN-A-6d02b4e1");
    const program = await _installedProgram();
    plugin = await startPlugin({ programDir: program, env: _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: tmp("dns-account-retain-") }) });
    await plugin.configureArgs({ baseUrl: emu.url, apiKey: key }, ["apiKey"]);
    dashboard = createClient({ baseUrl: emu.url, apiKey: key });
  });

  after(async () => {
    const out = plugin ? [plugin.output(), JSON.stringify(plugin.logs)].join("\n") : "";
    await _closeAll(
      () => plugin?.stop(),
      () => dashboard?.close(),
      () => emu?.close(),
      () => _assertNoSecrets(out, [A.password, key]),
    );
  });

  async function made(name: string) {
    const sInputs: Props = { name };
    const s = await plugin.create(urn("DnsServer", name), sInputs);
    const dInputs: Props = { name: `${name} phone`, deviceType: "ANDROID", dnsServerId: s.id };
    const d = await plugin.create(urn("Device", name), dInputs);
    return { s: { ...s, inputs: sInputs }, d: { ...d, inputs: dInputs } };
  }

  it("the schema's deleteOnDestroy has no default (an SDK that filled one in would declare false on every object) and says what it does", async () => {
    const schema = JSON.parse(await plugin.getSchema()) as { resources: Record<string, { inputProperties: Record<string, { default?: unknown; description: string }>; required: string[] }> };
    for (const type of ["DnsServer", "Device"]) {
      const r = schema.resources[`dns-account:index:${type}`]!;
      assert.equal(r.inputProperties.deleteOnDestroy!.default, undefined, type);
      assert.match(r.inputProperties.deleteOnDestroy!.description, /whoever made the/);
      assert.ok(r.required.includes("retainOnDestroy"), type);
    }
  });

  it("declared on created objects: diff sees it, update records it, delete keeps the server and its device and says so", async () => {
    const { s, d } = await made("Kept");
    const sNews = { ...s.inputs, deleteOnDestroy: false };
    const dNews = { ...d.inputs, deleteOnDestroy: false };
    assert.equal((await plugin.diff(s.id, urn("DnsServer", "Kept"), s.properties, sNews)).changes, "some");
    const sUp = await plugin.update(s.id, urn("DnsServer", "Kept"), s.properties, sNews);
    const dUp = await plugin.update(d.id, urn("Device", "Kept"), d.properties, dNews);
    assert.equal(sUp.properties.retainOnDestroy, true);
    await plugin.delete(d.id, urn("Device", "Kept"), dUp.properties, dNews);
    await plugin.delete(s.id, urn("DnsServer", "Kept"), sUp.properties, sNews);
    assert.deepEqual(await exists(dashboard, s.id, d.id), { server: true, device: true });
    assert.equal((await dashboard.devices.get(d.id)).dns_server_id, s.id);
    const warnings = plugin.logs.map((l) => l.message).join("\n");
    assert.match(warnings, new RegExp(`DnsServer ${s.id} is kept at the service`));
    assert.match(warnings, new RegExp(`Device ${d.id} is kept at the service`));
  });

  it("Delete takes the declared value from the old inputs: a state written before retainOnDestroy is kept when its inputs declare false", async () => {
    const { s, d } = await made("Older");
    const { retainOnDestroy: _rs, ...sOlder } = s.properties;
    const { retainOnDestroy: _rd, ...dOlder } = d.properties;
    // What an earlier version recorded: deleteOnDestroy: false in the outputs, declared false in the inputs.
    await plugin.delete(d.id, urn("Device", "Older"), dOlder, { ...d.inputs, deleteOnDestroy: false });
    await plugin.delete(s.id, urn("DnsServer", "Older"), sOlder, { ...s.inputs, deleteOnDestroy: false });
    assert.deepEqual(await exists(dashboard, s.id, d.id), { server: true, device: true });
  });

  it("the defaults stay, and a declared true in the old inputs deletes an adopted server whose state keeps it", async () => {
    const { s, d } = await made("Default");
    await plugin.delete(d.id, urn("Device", "Default"), d.properties, d.inputs);
    await plugin.delete(s.id, urn("DnsServer", "Default"), s.properties, s.inputs);
    assert.deepEqual(await exists(dashboard, s.id, d.id), { server: false, device: false });

    const live = await dashboard.dnsServers.create({ name: "Dashboard" });
    const adopted = await plugin.create(urn("DnsServer", "adopted"), { adopt: live.id });
    assert.equal(adopted.properties.retainOnDestroy, true);
    await plugin.delete(adopted.id, urn("DnsServer", "adopted"), adopted.properties, { adopt: live.id });
    assert.equal((await exists(dashboard, live.id, "")).server, true, "adopted and undeclared: kept");
    await plugin.delete(adopted.id, urn("DnsServer", "adopted"), adopted.properties, { adopt: live.id, deleteOnDestroy: true });
    assert.equal((await exists(dashboard, live.id, "")).server, false);
  });
});
