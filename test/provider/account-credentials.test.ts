import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../emulator";
import { type ProviderHost, startProviderHost } from "../support/engine/provider-host";
import { issueToken } from "../../sdk";
import { _assertNoSecrets, _cleanEnv, _closeAll } from "../support/helpers";
import { _installedProgram, _runInProgram, MOCKS_PRELUDE, RECORD_REGISTRATIONS } from "../support/program";

const PASSWORD = "pw-CRED-9d2e51";
const API_KEY = "ak-RESOURCE-5f0c2b7e";
const OPS = "ops@example.com";

describe("account resources: credentials, secrets and lookups", function () {
  this.timeout(120_000);
  let emu: Emulator;
  let host: ProviderHost;
  let providers: Record<string, string>;
  const secrets = [PASSWORD, API_KEY, API_KEY.toLowerCase()];

  before(async () => {
    emu = await startEmulator({ users: [{ username: OPS, password: PASSWORD }], apiKeys: [{ key: API_KEY, username: OPS }] });
    const program = await _installedProgram();
    const { stdout } = await _runInProgram(
      "serialize-credentials",
      `${MOCKS_PRELUDE}
const { DnsServer, Device } = require("pulumi-dns-account");
new DnsServer("s", { name: "x" });
new Device("d", { name: "d", deviceType: "LINUX", dnsServerId: "x" });
Promise.all(["DnsServer", "Device"].map((t) => registered((r) => r.type.endsWith(":" + t) && r.inputs.__provider)))
  .then((rs) => console.log(JSON.stringify(Object.fromEntries(rs.map((r) => [r.type.split(":").pop(), r.inputs.__provider])))));`,
    );
    providers = JSON.parse(stdout) as Record<string, string>;
    // No stack config at all: each resource brings its own credentials.
    host = await startProviderHost({ programDir: program, env: _cleanEnv() });
    await host.configure({});
  });

  after(async () => {
    await _closeAll(() => _assertNoSecrets(host.output(), secrets), () => host?.close(), () => emu?.close());
  });

  it("the program sends credentials as a secret and asks the engine to keep them (and DoH addresses) secret", async () => {
    const { stdout, stderr } = await _runInProgram(
      "account-secrets",
      `${MOCKS_PRELUDE}${RECORD_REGISTRATIONS}const { DnsServer, Device, DedicatedIpv4 } = require("pulumi-dns-account");
const credentials = { apiKey: process.env.K };
const s = new DnsServer("s", { name: "Home", credentials });
const d = new Device("d", { name: "Laptop", deviceType: "MAC", dnsServerId: s.serverId, credentials });
const i = new DedicatedIpv4("i", { deviceId: d.deviceId, credentials });
Promise.all([settle(s.id), settle(d.id), settle(i.id)]).then(() => {
  const SIG = "4dabf18193072939515e22adb298388d";
  const isSecret = (v) => typeof v === "object" && v !== null && SIG in v;
  console.log(JSON.stringify(sent.map((r) => ({
    type: r.type.split(":").pop(),
    secretOutputs: r.secretOutputs.sort(),
    secretInputs: Object.keys(r.object).filter((k) => isSecret(r.object[k])).sort(),
    clear: JSON.stringify(Object.fromEntries(Object.entries(r.object).filter(([, v]) => !isSecret(v)))),
  }))));
});`,
      { K: API_KEY },
    );
    const report = JSON.parse(stdout) as { type: string; secretOutputs: string[]; secretInputs: string[]; clear: string }[];
    const by = Object.fromEntries(report.map((r) => [r.type, r]));
    assert.deepEqual(by.DnsServer!.secretInputs, ["credentials"]);
    assert.deepEqual(by.DnsServer!.secretOutputs, ["credentials"]);
    assert.deepEqual(by.Device!.secretOutputs, ["credentials", "dnsAddressesWithAuth"]);
    assert.deepEqual(by.DedicatedIpv4!.secretInputs, ["credentials"]);
    for (const r of report) _assertNoSecrets(r.clear, secrets);
    _assertNoSecrets(stderr, secrets);
  });

  it("a resource authenticates with its own API key: no token call at all", async () => {
    emu.resetStats();
    const urn = "urn:pulumi:dev::dns-account-test::pulumi-nodejs:dynamic/dns-account:DnsServer::k";
    const res = await host.create(urn, { __provider: providers.DnsServer, name: "By key", credentials: { baseUrl: emu.url, apiKey: API_KEY }, settings: { blockTtlSeconds: 5 } });
    assert.equal(res.properties.name, "By key");
    assert.equal(emu.stats.passwordGrants + emu.stats.refreshGrants, 0);
    await host.delete(res.id, urn, res.properties);
    const bad = await host.create(urn, { __provider: providers.DnsServer, name: "Bad key", credentials: { baseUrl: emu.url, apiKey: "ak-wrong-0000" } }).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(bad);
    assert.match(bad.message, /invalid_api_key/);
  });

  it("a resource authenticates with a Token's outputs ({ baseUrl, refreshToken })", async () => {
    const set = await issueToken({ baseUrl: emu.url, username: OPS, password: PASSWORD });
    secrets.push(set.refreshToken, set.accessToken);
    const urn = "urn:pulumi:dev::dns-account-test::pulumi-nodejs:dynamic/dns-account:Device::t";
    const server = await host.create(urn.replace("Device::t", "DnsServer::t"), { __provider: providers.DnsServer, name: "Via token", credentials: { baseUrl: emu.url, refreshToken: set.refreshToken } });
    const device = await host.create(urn, { __provider: providers.Device, name: "Tablet", deviceType: "ANDROID", dnsServerId: server.id, credentials: { baseUrl: emu.url, refreshToken: set.refreshToken } });
    assert.equal(device.properties.dnsServerId, server.id);
    const unmarked = { ...device.properties, dnsAddressesWithAuth: undefined, credentials: undefined };
    _assertNoSecrets(JSON.stringify(unmarked), secrets);
    await host.delete(device.id, urn, device.properties);
    await host.delete(server.id, urn, server.properties);
  });

  it("a resource with no credentials anywhere fails check naming credentials, and create says why", async () => {
    const urn = "urn:pulumi:dev::dns-account-test::pulumi-nodejs:dynamic/dns-account:DnsServer::none";
    const { failures } = await host.check(urn, {}, { __provider: providers.DnsServer, name: "Nobody" });
    // credentials holds secrets: the engine would print its value, so the reason names it instead.
    assert.deepEqual(failures.map((f) => f.property), [""]);
    assert.match(failures[0]!.reason, /^credentials: /);
    const device = await host.check(urn, {}, { __provider: providers.Device, name: "d", deviceType: "MAC", dnsServerId: "x" });
    assert.deepEqual(device.failures.map((f) => f.property), [""]);
    assert.match(device.failures[0]!.reason, /^credentials: /);
    const err = await host.create(urn, { __provider: providers.DnsServer, name: "Nobody" }).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(err);
    assert.match(err.message, /no credentials|No credentials/i);
  });

  it("lookups read reference data and limits with the program's credentials", async () => {
    const { stdout } = await _runInProgram(
      "lookups",
      `const { getFilterLists, getWebServices, getParentalControlCategories, getAccountLimits } = require("pulumi-dns-account");
(async () => {
  const [lists, services, categories, limits] = await Promise.all([getFilterLists(), getWebServices(), getParentalControlCategories(), getAccountLimits()]);
  console.log(JSON.stringify({ lists: lists.filterLists.map((l) => l.filterId), services: services.webServices.length, categories: categories.categories.length, devices: limits.devices }));
})();`,
      { DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_API_KEY: API_KEY },
    );
    const out = JSON.parse(stdout) as { lists: string[]; services: number; categories: number; devices: { limit: number } };
    assert.ok(out.lists.includes("adguard_dns_filter"));
    assert.ok(out.services > 0 && out.categories > 0);
    assert.equal(typeof out.devices.limit, "number");
  });
});
