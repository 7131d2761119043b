import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { type Emulator, startEmulator } from "../../../emulator";
import { type Client, createClient } from "../../../sdk";
import { startPlugin, type PluginHost } from "../../support/engine/plugin-host";
import { _isSecret, _reveal, _secret } from "../../support/engine/rpc-client";
import { _assertNoSecrets, _cleanEnv, _closeAll, _repoRoot } from "../../support/helpers";
import { _installedProgram } from "../../support/program";
import { _useTempDirs } from "../../support/temp";

const A = { username: "alice@example.com", password: "pw-PLUGIN-A-5c1e09" };
const B = { username: "bob@example.com", password: "pw-PLUGIN-B-77d3a2" };
const urn = (type: string, name: string) => `urn:pulumi:dev::home::dns-account:index:${type}::${name}`;

/**
 * The native plugin (`pulumi-resource-dns-account`) from an `npm pack` install, started as Pulumi starts
 * it and driven over gRPC as the engine drives it, against the emulator.
 */
describe("the native plugin (pulumi-resource-dns-account) over gRPC", function () {
  const tmp = _useTempDirs();
  this.timeout(120_000);
  let emu: Emulator;
  let program: string;
  let plugin: PluginHost;
  let keyA: string;
  let keyB: string;
  let dashboard: Client;
  let env: NodeJS.ProcessEnv;
  const outputs: string[] = [];
  const minted: string[] = [];
  const secrets = () => [A.password, B.password, keyA, keyB, ...minted, ...minted.map((m) => m.toLowerCase())];

  before(async () => {
    emu = await startEmulator({ users: [A, B] });
    keyA = emu.addApiKey(A.username, "key-PLUGIN-A-0f3b6e2d");
    keyB = emu.addApiKey(B.username, "key-PLUGIN-B-9a81c4f7");
    program = await _installedProgram();
    // No credential from this machine: an empty CLI store, no DNS_ACCOUNT_* variables.
    env = _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: tmp("dns-account-plugin-") });
    plugin = await startPlugin({ programDir: program, env });
    await plugin.configureArgs({ baseUrl: emu.url, apiKey: keyA, version: "0.2.0" }, ["apiKey"]);
    dashboard = createClient({ baseUrl: emu.url, apiKey: keyA });
  });

  after(async () => {
    await _closeAll(
      () => outputs.push(plugin.output(), JSON.stringify(plugin.logs)),
      () => plugin?.stop(),
      () => dashboard?.close(),
      () => emu?.close(),
      () => _assertNoSecrets(outputs.join("\n"), secrets()),
    );
  });

  it("prints only its port on stdout, reports the package version, and serves a schema valid against Pulumi's metaschema", async () => {
    assert.equal(plugin.stdout(), "", "nothing on stdout after the port");
    const version = JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")).version as string;
    assert.equal(await plugin.getPluginInfo(), version);
    const served = JSON.parse(await plugin.getSchema()) as Record<string, unknown>;
    assert.equal(served.version, version);
    const source = JSON.parse(readFileSync(path.join(_repoRoot(), "provider", "schema", "schema.json"), "utf8")) as object;
    assert.deepEqual({ ...served, version: undefined }, { ...source, version: undefined }, "the schema file is what GetSchema serves");
    const meta = JSON.parse(readFileSync(path.join(_repoRoot(), "scripts", "reference", "pulumi-package-metaschema.facts.json"), "utf8")) as object;
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(meta);
    assert.ok(validate(served), ajv.errorsText(validate.errors));
  });

  it("CheckConfig names the key of missing or contradictory credentials, marks secrets, and DiffConfig sees a change", async () => {
    const u = "urn:pulumi:dev::home::pulumi:providers:dns-account::default";
    const ok = await plugin.checkConfig(u, {}, { apiKey: _secret(keyA), baseUrl: emu.url });
    assert.deepEqual(ok.failures, []);
    assert.ok(_isSecret(ok.inputs.apiKey));
    const apiKeyPlain = await plugin.checkConfig(u, {}, { apiKey: keyA });
    assert.ok(_isSecret(apiKeyPlain.inputs.apiKey), "a secret key goes back as a secret even when sent in clear");
    const cases: [Record<string, unknown>, string][] = [
      [{ password: _secret(A.password) }, "username"],
      [{ username: A.username, password: _secret(A.password), refreshToken: _secret("r") }, "refreshToken"],
      [{ profile: "nope" }, "profile"],
      [{ baseUrl: "http://dns.example.net" }, "baseUrl"],
      [{ baseUrl: "not a url" }, "baseUrl"],
      [{ allowInsecureHttp: "maybe" }, "allowInsecureHttp"],
      [{ apiKey: 42 }, "apiKey"],
    ];
    // A failure on a key whose value is a secret names no property (the engine prints the value of the
    // property a failure names): the key is the reason's first word instead.
    const SECRET = new Set(["password", "refreshToken", "apiKey", "mfaToken"]);
    for (const [news, property] of cases) {
      const r = await plugin.checkConfig(u, {}, news);
      if (SECRET.has(property)) {
        assert.deepEqual(r.failures.map((f) => f.property), [""], JSON.stringify(Object.keys(news)));
        assert.match(r.failures[0]!.reason, new RegExp(`^${property}\\b`));
      } else assert.deepEqual(r.failures.map((f) => f.property), [property], JSON.stringify(Object.keys(news)));
      _assertNoSecrets(JSON.stringify(r.failures), secrets());
    }
    assert.deepEqual((await plugin.checkConfig(u, {}, { baseUrl: "http://dns.example.net", allowInsecureHttp: "true" })).failures, []);
    assert.equal((await plugin.diffConfig(u, { apiKey: _secret(keyA) }, { apiKey: _secret(keyB) })).changes, "some");
    assert.equal((await plugin.diffConfig(u, { apiKey: _secret(keyA), version: "1" }, { apiKey: keyA, version: "2" })).changes, "none");
  });

  it("a DnsServer: check, preview, create, refresh after a dashboard edit, diff, update, import, delete", async () => {
    const type = "DnsServer";
    const news = { name: "Home", settings: { blockTtlSeconds: 60, userRules: { rules: ["||ads.example^"] } } };
    const checked = await plugin.check(urn(type, "home"), {}, news);
    assert.deepEqual(checked.failures, []);
    const preview = await plugin.create(urn(type, "home"), checked.inputs, { preview: true });
    assert.equal(preview.id, "", "a preview creates nothing");
    assert.equal((await dashboard.dnsServers.list()).length, 1);
    const { id, properties } = await plugin.create(urn(type, "home"), checked.inputs);
    assert.equal(properties.serverId, id);
    assert.deepEqual(properties.settings, news.settings);
    // A dashboard edit shows on refresh, and the next diff wants to repair it.
    await dashboard.dnsServers.updateSettings(id, { block_ttl_seconds: 10 });
    const refreshed = await plugin.read(id, urn(type, "home"), properties, checked.inputs);
    assert.equal((refreshed.properties.settings as { blockTtlSeconds: number }).blockTtlSeconds, 10);
    const diff = await plugin.diff(id, urn(type, "home"), refreshed.properties, checked.inputs);
    assert.equal(diff.changes, "some");
    assert.deepEqual(diff.replaces, []);
    const updated = await plugin.update(id, urn(type, "home"), refreshed.properties, { ...checked.inputs, name: "Home 2" });
    assert.equal(updated.properties.name, "Home 2");
    assert.equal((await dashboard.dnsServers.get(id)).settings.block_ttl_seconds, 60);
    // Import: a read with only the id gives inputs whose check passes and whose diff is empty.
    const imported = await plugin.read(id, urn(type, "imported"), {});
    assert.equal(imported.id, id);
    assert.ok(imported.inputs, "an import returns inputs");
    const again = await plugin.check(urn(type, "imported"), {}, imported.inputs!);
    assert.deepEqual(again.failures, []);
    assert.equal((await plugin.diff(id, urn(type, "imported"), imported.properties, again.inputs)).changes, "none");
    await plugin.delete(id, urn(type, "home"), updated.properties);
    assert.equal((await dashboard.dnsServers.list()).length, 1);
    // Gone out of band: read answers no id.
    assert.equal((await plugin.read(id, urn(type, "home"), updated.properties)).id, "");
  });

  it("a Device with its secret addresses, and a DedicatedIpv4 linked to it, imported by their ids", async () => {
    const [def] = await dashboard.dnsServers.list();
    const dev = await plugin.check(urn("Device", "tv"), {}, { name: "TV", deviceType: "SMART_TV", dnsServerId: def!.id, settings: { protectionEnabled: true } });
    assert.deepEqual(dev.failures, []);
    const device = await plugin.create(urn("Device", "tv"), dev.inputs);
    assert.ok(_isSecret(device.properties.dnsAddressesWithAuth), "the addresses that embed the DoH password are a secret");
    assert.equal(typeof (device.properties.dnsAddresses as Record<string, string>)[Object.keys(device.properties.dnsAddresses as object)[0]!], "string");
    assert.equal(_isSecret(device.properties.dnsAddresses), false);
    // A dashboard rename shows on refresh; an update puts the declared name back and renames on request.
    await dashboard.devices.update(device.id, { name: "Renamed in the dashboard" });
    const refreshed = await plugin.read(device.id, urn("Device", "tv"), device.properties, dev.inputs);
    assert.equal(refreshed.properties.name, "Renamed in the dashboard");
    assert.equal((await plugin.diff(device.id, urn("Device", "tv"), refreshed.properties, dev.inputs)).changes, "some");
    const renamed = await plugin.update(device.id, urn("Device", "tv"), refreshed.properties, { ...dev.inputs, name: "Living-room TV" });
    assert.equal(renamed.properties.name, "Living-room TV");
    assert.ok(_isSecret(renamed.properties.dnsAddressesWithAuth));
    assert.equal((await dashboard.devices.get(device.id)).name, "Living-room TV");
    device.properties = renamed.properties;
    const importedDevice = await plugin.read(device.id, urn("Device", "tv2"), {});
    assert.deepEqual((await plugin.check(urn("Device", "tv2"), {}, importedDevice.inputs!)).failures, []);
    assert.equal((await plugin.diff(device.id, urn("Device", "tv2"), importedDevice.properties, importedDevice.inputs!)).changes, "none");

    const ipCheck = await plugin.check(urn("DedicatedIpv4", "ip"), {}, { deviceId: device.id });
    assert.deepEqual(ipCheck.failures, []);
    const ip = await plugin.create(urn("DedicatedIpv4", "ip"), ipCheck.inputs);
    assert.equal(ip.properties.ip, ip.id);
    assert.deepEqual((await dashboard.devices.dedicatedAddresses(device.id)).ipv4, [ip.id]);
    const importedIp = await plugin.read(ip.id, urn("DedicatedIpv4", "ip2"), {});
    assert.equal(importedIp.id, ip.id);
    assert.deepEqual((await plugin.check(urn("DedicatedIpv4", "ip2"), {}, importedIp.inputs!)).failures, []);
    assert.equal((await plugin.diff(ip.id, urn("DedicatedIpv4", "ip2"), importedIp.properties, importedIp.inputs!)).changes, "none");
    // An update without deviceId unlinks in place; delete then forgets the address.
    const unlinked = await plugin.update(ip.id, urn("DedicatedIpv4", "ip"), ip.properties, {});
    assert.equal(unlinked.properties.deviceId, undefined);
    assert.deepEqual((await dashboard.devices.dedicatedAddresses(device.id)).ipv4, []);
    await plugin.delete(ip.id, urn("DedicatedIpv4", "ip"), unlinked.properties);
    await plugin.delete(device.id, urn("Device", "tv"), device.properties);
    assert.equal((await dashboard.devices.list()).length, 0);
  });

  it("a Token: secret inputs in, secret tokens out, renewed by update, revoked on delete; import is refused with a reason", async () => {
    const inputs = { baseUrl: emu.url, username: A.username, password: _secret(A.password) };
    const checked = await plugin.check(urn("Token", "ci"), {}, inputs);
    assert.deepEqual(checked.failures, []);
    assert.ok(_isSecret(checked.inputs.password));
    const token = await plugin.create(urn("Token", "ci"), checked.inputs);
    assert.ok(_isSecret(token.properties.accessToken) && _isSecret(token.properties.refreshToken));
    const refreshToken = _reveal(token.properties.refreshToken) as string;
    minted.push(refreshToken, _reveal(token.properties.accessToken) as string);
    const read = await plugin.read(token.id, urn("Token", "ci"), token.properties, checked.inputs);
    assert.equal(read.id, token.id);
    assert.ok(_isSecret(read.properties.accessToken));
    const diff = await plugin.diff(token.id, urn("Token", "ci"), token.properties, { ...checked.inputs, keepers: { q: "2" } });
    assert.deepEqual(diff.replaces, ["keepers"]);
    // A renewal window that covers the whole lifetime makes the update renew the access token in place.
    const renewed = await plugin.update(token.id, urn("Token", "ci"), token.properties, { ...checked.inputs, renewBeforeSeconds: 10 * 365 * 86400 });
    assert.ok(_isSecret(renewed.properties.accessToken) && _isSecret(renewed.properties.refreshToken));
    assert.notEqual(_reveal(renewed.properties.accessToken), _reveal(token.properties.accessToken), "renewed in place");
    assert.equal(_reveal(renewed.properties.refreshToken), refreshToken, "same refresh token: an update, not a replacement");
    await plugin.delete(token.id, urn("Token", "ci"), renewed.properties);
    const err = await plugin.read("anything", urn("Token", "imported"), {}).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.match(String(err?.message), /A Token cannot be imported/);
    assert.equal(emu.tokenCounts(A.username).refreshTokens, 0, "the Token's refresh token is revoked");
  });

  it("Invoke answers the four functions as objects with the schema's keys", async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const schema = JSON.parse(await plugin.getSchema()) as { types: Record<string, object>; functions: Record<string, { outputs: object }> };
    // The schema's types as JSON Schema: `#/types/x` refs resolve inside one document.
    const doc = { $id: "s", types: schema.types, functions: schema.functions };
    ajv.addSchema(JSON.parse(JSON.stringify(doc).replaceAll('"#/types/', '"s#/types/')) as object);
    for (const fn of ["getFilterLists", "getWebServices", "getParentalControlCategories", "getAccountLimits"]) {
      const token = `dns-account:index:${fn}`;
      const { outputs: out, failures } = await plugin.invoke(token, {});
      assert.deepEqual(failures, []);
      const validate = ajv.getSchema(`s#/functions/${encodeURIComponent(token).replaceAll("%3A", ":")}/outputs`)!;
      assert.ok(validate(out), `${fn}: ${ajv.errorsText(validate.errors)}`);
      assert.ok(!JSON.stringify(out).includes("_id\""), `${fn}: camelCase keys`);
    }
    const { outputs: lists } = await plugin.invoke("dns-account:index:getFilterLists", {});
    assert.ok((lists.filterLists as { filterId: string }[]).length > 0);
    const { outputs: limits } = await plugin.invoke("dns-account:index:getAccountLimits", {});
    assert.equal(typeof (limits.dnsServers as { limit: number }).limit, "number");
  });

  it("two plugin processes with different credentials act on two accounts", async () => {
    const other = await startPlugin({ programDir: program, env });
    try {
      // The older engine protocol: configuration in the variables map only.
      await other.configureVariables({ "dns-account:config:baseUrl": emu.url, "dns-account:config:apiKey": keyB });
      const a = await plugin.create(urn("DnsServer", "a"), { name: "In A" });
      const b = await other.create(urn("DnsServer", "b"), { name: "In B" });
      const dashboardB = createClient({ baseUrl: emu.url, apiKey: keyB });
      try {
        assert.ok((await dashboard.dnsServers.list()).some((s) => s.id === a.id && s.name === "In A"));
        assert.ok(!(await dashboard.dnsServers.list()).some((s) => s.id === b.id));
        assert.ok((await dashboardB.dnsServers.list()).some((s) => s.id === b.id && s.name === "In B"));
      } finally {
        await dashboardB.close();
      }
      await plugin.delete(a.id, urn("DnsServer", "a"), a.properties);
      await other.delete(b.id, urn("DnsServer", "b"), b.properties);
      outputs.push(other.output());
    } finally {
      await other.stop();
    }
  });

  it("without credentials anywhere a resource's check names credentials and the provider keys; a wrong configuration fails Configure naming the key", async () => {
    const bare = await startPlugin({ programDir: program, env });
    try {
      await bare.configureArgs({ baseUrl: emu.url });
      const r = await bare.check(urn("DnsServer", "x"), {}, { name: "X" });
      // credentials holds secrets: the failure names no property, and its reason starts with credentials.
      assert.deepEqual(r.failures.map((f) => f.property), [""]);
      assert.match(r.failures[0]!.reason, /^credentials: No credentials.*apiKey/);
      const err = await bare.configureArgs({ baseUrl: emu.url, password: A.password }, ["password"]).then(
        () => undefined,
        (e: Error) => e,
      );
      assert.match(String(err?.message), /username/);
      outputs.push(bare.output(), String(err?.message));
    } finally {
      await bare.stop();
    }
  });
});
