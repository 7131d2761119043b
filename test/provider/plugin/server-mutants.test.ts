import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../../emulator";
import { type Client, createClient } from "../../../sdk";
import { VERSION } from "../../../sdk/version";
import { KEPT_WARNING } from "../../../provider/dedicated-ipv4/lifecycle";
import { revokeMintedNow } from "../../../provider/shared/exit-revocation";
import { UNKNOWN } from "../../../provider/shared/unknown";
import { _isSecret, _reveal, _secret } from "../../support/engine/rpc-client";
import { _assertNoSecrets, _closeAll, _rejects } from "../../support/helpers";
import { type InProcessPlugin, _setDnsAccountEnv, _startInProcessPlugin } from "../../support/plugin-inprocess";
import { _useTempDirs } from "../../support/temp";

/* eslint-disable @typescript-eslint/no-explicit-any -- raw protobuf messages */

const A = { username: "alice@example.com", password: "pw-INPROC-A-3e91c7" };
const urn = (type: string, name: string) => `urn:pulumi:dev::home::dns-account:index:${type}::${name}`;
const PROVIDER = "urn:pulumi:dev::home::pulumi:providers:dns-account::default";
const WARNING = 2; // pulumirpc.LogSeverity.WARNING

/**
 * The native plugin's gRPC server (provider/plugin/server.ts) in the test process, driven as the engine
 * drives it, against the emulator: what each call answers, secrets marked, the credentials Read and
 * Delete use, check failures, diffs, errors. Fast enough for StrykerJS to run per mutant (the `plugin`
 * group of stryker.config.mjs); the packed plugin's own tests (./server.test.ts) prove the start-up.
 */
describe("the plugin's gRPC server in process (killing mutants)", function () {
  this.timeout(60_000);
  const tmp = _useTempDirs();
  let emu: Emulator;
  let key: string;
  let plugin: InProcessPlugin;
  let dashboard: Client;
  let restoreEnv: () => void;
  const extra: InProcessPlugin[] = [];
  const minted: string[] = [];
  const secrets = () => [A.password, key, ...minted];
  /** A plugin of its own (its configuration is per process), stopped after the suite. */
  const another = async (options: { engine?: boolean } = {}): Promise<InProcessPlugin> => {
    const p = await _startInProcessPlugin(options);
    extra.push(p);
    return p;
  };

  before(async () => {
    restoreEnv = _setDnsAccountEnv({ DNS_ACCOUNT_CONFIG_DIR: tmp("dns-account-inproc-") });
    emu = await startEmulator({ users: [A], limitOverrides: { dedicated_ipv4: 10 } });
    key = emu.addApiKey(A.username, "key-INPROC-A-6d02be41");
    plugin = await _startInProcessPlugin();
    await plugin.configureArgs({ baseUrl: emu.url, apiKey: key }, ["apiKey"]);
    dashboard = createClient({ baseUrl: emu.url, apiKey: key });
  });

  after(async () => {
    await _closeAll(
      () => _assertNoSecrets(JSON.stringify([plugin?.logs, ...extra.map((p) => p.logs)]), secrets()),
      ...extra.map((p) => () => p.stop()),
      () => plugin?.stop(),
      () => revokeMintedNow(),
      () => dashboard?.close(),
      () => emu?.close(),
      () => restoreEnv?.(),
    );
  });

  it("GetPluginInfo, GetSchema (version 0 only), Cancel and Attach", async () => {
    assert.equal(await plugin.getPluginInfo(), VERSION);
    const schema = JSON.parse(await plugin.getSchema()) as { version: string; resources: Record<string, unknown> };
    assert.equal(schema.version, VERSION);
    assert.ok(schema.resources["dns-account:index:Token"]);
    const { messages, empty, plugin: pluginPb } = plugin.pieces;
    const v1 = new messages.GetSchemaRequest();
    v1.setVersion(1);
    // An error that is not the package's has no code to show: its message alone.
    assert.match((await _rejects(plugin.raw("getSchema", v1))).message, /^2 UNKNOWN: unsupported schema version 1$/);
    // An Empty answer (by what it is on the wire: another copy of google-protobuf loaded earlier in the
    // same process may own the class the client decoded it with, so `instanceof` cannot tell).
    for (const answer of [await plugin.raw("cancel", new empty.Empty()), await plugin.raw("attach", new pluginPb.PluginAttach())]) {
      assert.equal(typeof answer?.serializeBinary, "function", "a protobuf message");
      assert.equal(answer.serializeBinary().length, 0, "an Empty");
    }
  });

  it("Check marks secret inputs that arrived in clear, keeps secret what arrived secret, and names no secret property in a failure", async () => {
    // The surviving mutant: a Token's plain password goes back marked secret.
    const token = await plugin.check(urn("Token", "t"), {}, { baseUrl: emu.url, username: A.username, password: A.password });
    assert.deepEqual(token.failures, []);
    assert.ok(_isSecret(token.inputs.password), "a secret input sent in clear goes back secret");
    assert.equal(_reveal(token.inputs.password), A.password);
    assert.equal(token.inputs.username, A.username, "a plain input stays plain");
    assert.equal(token.inputs.baseUrl, emu.url);
    // What arrived secret stays secret, whatever the schema says of it.
    const named = await plugin.check(urn("DnsServer", "s"), {}, { name: _secret("Secret name") });
    assert.deepEqual(named.failures, []);
    assert.ok(_isSecret(named.inputs.name));
    assert.equal(_reveal(named.inputs.name), "Secret name");
    // credentials in clear go back secret.
    const withCreds = await plugin.check(urn("DnsServer", "c"), {}, { name: "C", credentials: { baseUrl: emu.url, apiKey: key } });
    assert.deepEqual(withCreds.failures, []);
    assert.ok(_isSecret(withCreds.inputs.credentials));
    // A failure on a plain property names it; on one that arrived secret, it names none (the engine prints the value).
    const bad = { name: "B", settings: { blockTtlSeconds: "soon" } };
    const plain = await plugin.check(urn("DnsServer", "b"), {}, bad);
    assert.equal(plain.failures.length, 1, JSON.stringify(plain.failures));
    assert.match(plain.failures[0]!.property, /^settings/);
    assert.ok(plain.failures[0]!.reason.length > 0);
    const hidden = await plugin.check(urn("DnsServer", "b"), {}, { ...bad, settings: _secret(bad.settings) });
    assert.deepEqual(hidden.failures.map((f) => f.property), [""]);
    assert.match(hidden.failures[0]!.reason, /^settings/);
    // A failure about credentials (a refused key) names no property: credentials hold a secret.
    const refused = await plugin.check(urn("DnsServer", "r"), {}, { name: "R", credentials: { baseUrl: emu.url, apiKey: "key-INPROC-wrong" } });
    assert.deepEqual(refused.failures.map((f) => f.property), [""]);
    assert.match(refused.failures[0]!.reason, /^credentials/);
  });

  it("Check finds the type in the request's type, else in the URN (a parent's type chain too); an unknown type is an error naming it", async () => {
    const { messages } = plugin.pieces;
    const request = (u: string, type: string | undefined, news: Record<string, unknown>) => {
      const r = new messages.CheckRequest();
      r.setUrn(u);
      if (type !== undefined) r.setType(type);
      r.setOlds(plugin.struct({}));
      r.setNews(plugin.struct(news));
      return r;
    };
    const failures = (res: any) => res.getFailuresList().map((f: any) => f.getProperty());
    const inputs = (res: any) => res.getInputs().toJavaScript();
    // From the URN alone, through a component parent: a Token's password goes back secret.
    const fromUrn = await plugin.raw("check", request("urn:pulumi:dev::home::my:index:Comp$dns-account:index:Token::t", undefined, { baseUrl: emu.url, username: A.username, password: A.password }));
    assert.deepEqual(failures(fromUrn), []);
    assert.ok(_isSecret(inputs(fromUrn).password));
    // The type field wins over the URN.
    const fromType = await plugin.raw("check", request("urn:pulumi:dev::home::dns-account:index:DnsServer::t", "dns-account:index:Token", { baseUrl: emu.url, username: A.username, password: A.password }));
    assert.ok(_isSecret(inputs(fromType).password));
    const unknown = await _rejects(plugin.raw("check", request(urn("Nope", "n"), undefined, {})));
    assert.match(unknown.message, /invalid_config: unknown resource type dns-account:index:Nope$/);
    const noType = await _rejects(plugin.raw("check", request("not-a-urn", undefined, {})));
    assert.match(noType.message, /invalid_config: unknown resource type $/);
  });

  it("CheckConfig marks the secret keys and what arrived secret, names no secret key in a failure, reports an unknown key once", async () => {
    const p = await another();
    const ok = await p.checkConfig(PROVIDER, {}, { apiKey: key, baseUrl: emu.url, username: _secret(A.username) });
    assert.deepEqual(ok.failures, []);
    assert.ok(_isSecret(ok.inputs.apiKey), "a secret key sent in clear goes back secret");
    assert.ok(_isSecret(ok.inputs.username), "what arrived secret stays secret");
    assert.equal(ok.inputs.baseUrl, emu.url);
    // A failure on a plain key names it; on a key sent secret, it names none.
    const plain = await p.checkConfig(PROVIDER, {}, { baseUrl: "not a url" });
    assert.deepEqual(plain.failures.map((f) => f.property), ["baseUrl"]);
    assert.match(plain.failures[0]!.reason, /\S/);
    const hidden = await p.checkConfig(PROVIDER, {}, { baseUrl: _secret("not a url") });
    assert.deepEqual(hidden.failures.map((f) => f.property), [""]);
    assert.match(hidden.failures[0]!.reason, /^baseUrl/);
    const secretKey = await p.checkConfig(PROVIDER, {}, { apiKey: 42 });
    assert.deepEqual(secretKey.failures.map((f) => f.property), [""]);
    // An unknown key: a warning in the engine's log before the answer, once per process, in the provider's words.
    assert.equal(p.logs.length, 0);
    await p.checkConfig(PROVIDER, {}, { apikey: key });
    assert.deepEqual(p.logs.map((l) => l.severity), [WARNING]);
    assert.match(p.logs[0]!.message, /dns-account:apikey.*dns-account:apiKey/);
    await p.checkConfig(PROVIDER, {}, { apikey: key });
    await p.configureArgs({ apikey: key });
    assert.equal(p.logs.length, 1, "reported once");
    await p.checkConfig("urn:pulumi:dev::home::pulumi:providers:dns-account::kids", {}, { apikey: key });
    assert.equal(p.logs.length, 2);
    assert.match(p.logs[1]!.message, /apikey of provider kids/);
  });

  it("CheckConfig fails a base URL of the environment that contradicts the configuration's credentials", async () => {
    const restore = _setDnsAccountEnv({ DNS_ACCOUNT_CONFIG_DIR: tmp("dns-account-inproc-"), DNS_ACCOUNT_BASE_URL: "https://other.example" });
    try {
      const r = await plugin.checkConfig(PROVIDER, {}, { apiKey: key });
      assert.equal(r.failures.length, 1, JSON.stringify(r.failures));
      assert.match(r.failures[0]!.reason, /base_url_conflict/);
    } finally {
      restore();
    }
    assert.deepEqual((await plugin.checkConfig(PROVIDER, {}, { apiKey: key })).failures, []);
  });

  it("DiffConfig: a change of a declared key, one removed or added, and nothing else (version, unknown keys); large messages pass", async () => {
    const diff = (olds: Record<string, unknown>, news: Record<string, unknown>) => plugin.diffConfig(PROVIDER, olds, news);
    const changed = await diff({ apiKey: _secret("k1"), baseUrl: emu.url }, { apiKey: _secret("k2"), baseUrl: emu.url });
    assert.equal(changed.changes, "some");
    assert.deepEqual(changed.diffs, ["apiKey"]);
    assert.deepEqual((await diff({ apiKey: "k1" }, { apiKey: _secret("k1") })).changes, "none", "the same value, secret or not");
    const none = await diff({ apiKey: "k1", version: "1", other: "a" }, { apiKey: "k1", version: "2", other: "b" });
    assert.equal(none.changes, "none");
    assert.deepEqual(none.diffs, []);
    assert.deepEqual((await diff({ apiKey: "k1", profile: "p" }, { apiKey: "k1" })).diffs, ["profile"]);
    assert.deepEqual((await diff({}, { username: "u" })).diffs, ["username"]);
    assert.deepEqual((await diff({ allowInsecureHttp: true }, { allowInsecureHttp: true })).changes, "none");
    // Above grpc-js's default 4 MB receive limit.
    assert.equal((await diff({ version: "x".repeat(5 * 1024 * 1024) }, {})).changes, "none");
  });

  it("Configure answers what the plugin accepts, takes the older variables map, and refuses a wrong configuration naming each key", async () => {
    const { messages } = plugin.pieces;
    const r = new messages.ConfigureRequest();
    r.setArgs(plugin.struct({ baseUrl: emu.url }));
    r.setAcceptsecrets(true);
    r.setAcceptresources(true);
    const res = await (await another()).raw("configure", r);
    assert.deepEqual([res.getAcceptsecrets(), res.getSupportspreview(), res.getAcceptresources(), res.getAcceptoutputs()], [true, true, false, false]);
    // The variables map: the key reaches the resources.
    const old = await another();
    await old.configureVariables({ "dns-account:config:baseUrl": emu.url, "dns-account:config:apiKey": key });
    const created = await old.create(urn("DnsServer", "v"), { name: "Via variables" });
    assert.ok((await dashboard.dnsServers.list()).some((s) => s.id === created.id));
    await old.delete(created.id, urn("DnsServer", "v"), created.properties);
    // Wrong: every failure, by key, the first as the field.
    const err = await _rejects((await another()).configureArgs({ baseUrl: "not a url", allowInsecureHttp: "maybe" }));
    assert.match(err.message, /invalid_config: The provider's configuration is wrong: allowInsecureHttp: allowInsecureHttp must be true or false; baseUrl: "baseUrl" must be an absolute http\(s\) URL$/);
    _assertNoSecrets(err.message, secrets());
  });

  it("Configure speaks of an explicit provider by its name, and logs an unknown key before it answers", async () => {
    const { messages } = plugin.pieces;
    const request = (args: Record<string, unknown>) => {
      const r = new messages.ConfigureRequest();
      r.setArgs(plugin.struct(args));
      r.setUrn("urn:pulumi:dev::home::pulumi:providers:dns-account::kids");
      r.setName("kids");
      r.setAcceptsecrets(true);
      return r;
    };
    const err = await _rejects((await another()).raw("configure", request({ baseUrl: emu.url, password: _secret(A.password) })));
    assert.match(err.message, /the username of provider kids/);
    _assertNoSecrets(err.message, secrets());
    const p = await another();
    await p.raw("configure", request({ baseUrl: emu.url, apikey: key }));
    assert.equal(p.logs.length, 1, "logged before Configure answered");
    assert.equal(p.logs[0]!.severity, WARNING);
    assert.match(p.logs[0]!.message, /^apikey of provider kids .*apiKey of provider kids/);
  });

  it("Configure's settings reach the resources: insecure HTTP allowed, validation skipped, a misspelled credential key named", async () => {
    // Plain HTTP to a host that is not this machine: refused without allowInsecureHttp, tried with it.
    const remote = { credentials: _secret({ baseUrl: "http://dns.example.invalid", apiKey: "key-INPROC-remote" }) };
    const insecure = /uses http:\/\/ for a non-loopback host/;
    const strict = await another();
    await strict.configureArgs({ skipCredentialsValidation: true });
    assert.match((await _rejects(strict.invoke("dns-account:index:getAccountLimits", remote))).message, insecure);
    const lax = await another();
    await lax.configureArgs({ allowInsecureHttp: true, skipCredentialsValidation: true });
    const tried = await _rejects(lax.invoke("dns-account:index:getAccountLimits", remote));
    assert.doesNotMatch(tried.message, insecure);
    // Without skipCredentialsValidation a wrong key fails Check; with it, it passes.
    const wrong = { name: "W", credentials: { baseUrl: emu.url, apiKey: "key-INPROC-wrong2" } };
    assert.deepEqual((await lax.check(urn("DnsServer", "w"), {}, wrong)).failures, []);
    const validating = await another();
    await validating.configureArgs({ skipCredentialsValidation: false });
    assert.equal((await validating.check(urn("DnsServer", "w"), {}, wrong)).failures.length, 1);
    // A misspelled key that would have been the credential is named in the "No credentials" failure.
    const typo = await another();
    await typo.configureArgs({ baseUrl: emu.url, apikey: key }, ["apikey"]);
    const none = await typo.check(urn("DnsServer", "n"), {}, { name: "N" });
    assert.equal(none.failures.length, 1);
    assert.match(none.failures[0]!.reason, /No credentials.*dns-account:apikey is set, which this provider does not read: did you mean dns-account:apiKey\?/);
    const bare = await another();
    await bare.configureArgs({ baseUrl: emu.url });
    assert.doesNotMatch((await bare.check(urn("DnsServer", "n"), {}, { name: "N" })).failures[0]!.reason, /did you mean/);
  });

  it("Diff: changes, the changed keys the program declares, replacements", async () => {
    const created = await plugin.create(urn("DnsServer", "d"), { name: "D" });
    try {
      const same = await plugin.diff(created.id, urn("DnsServer", "d"), created.properties, { name: "D" });
      assert.equal(same.changes, "none");
      assert.deepEqual(same.diffs, []);
      // Settings left to the service differ from the state's, yet nothing changes: no key is listed.
      const undeclared = await plugin.diff(created.id, urn("DnsServer", "d"), created.properties, { name: "D", settings: {} });
      assert.equal(undeclared.changes, "none");
      assert.deepEqual(undeclared.diffs, []);
      const renamed = await plugin.diff(created.id, urn("DnsServer", "d"), created.properties, { name: "D2" });
      assert.equal(renamed.changes, "some");
      assert.deepEqual(renamed.diffs, ["name"], "only what changed, only what the program declares");
      assert.deepEqual(renamed.replaces, []);
      assert.equal(renamed.deleteBeforeReplace, false);
    } finally {
      await plugin.delete(created.id, urn("DnsServer", "d"), created.properties);
    }
    const tokenOlds = { baseUrl: emu.url, username: A.username, keepers: { a: "1" } };
    const replaced = await plugin.diff("t", urn("Token", "t"), tokenOlds, { ...tokenOlds, keepers: { a: "2" } });
    assert.equal(replaced.changes, "some");
    assert.deepEqual(replaced.replaces, ["keepers"]);
    assert.deepEqual(replaced.diffs, ["keepers"]);
  });

  it("Create: a preview echoes the inputs with secrets marked and creates nothing; a create marks secret outputs and inputs", async () => {
    const before = (await dashboard.dnsServers.list()).length;
    const inputs = { name: "P", credentials: { baseUrl: emu.url, apiKey: key } };
    const preview = await plugin.create(urn("DnsServer", "p"), inputs, { preview: true });
    assert.equal(preview.id, "");
    assert.equal(preview.properties.name, "P");
    assert.ok(_isSecret(preview.properties.credentials));
    assert.equal((await dashboard.dnsServers.list()).length, before, "a preview creates nothing");
    const tokenPreview = await plugin.create(urn("Token", "p"), { baseUrl: emu.url, username: A.username, password: A.password, note: _secret("n") }, { preview: true });
    assert.ok(_isSecret(tokenPreview.properties.password));
    assert.ok(_isSecret(tokenPreview.properties.note), "what arrived secret stays secret");
    assert.equal(tokenPreview.properties.username, A.username);

    const created = await plugin.create(urn("DnsServer", "p"), { ...inputs, name: _secret("P") });
    assert.notEqual(created.id, "");
    assert.ok(_isSecret(created.properties.credentials), "a secret input in the outputs");
    assert.ok(_isSecret(created.properties.name), "what arrived secret stays secret");
    assert.equal(created.properties.serverId, created.id);
    await plugin.delete(created.id, urn("DnsServer", "p"), created.properties);

    const token = await plugin.create(urn("Token", "t"), { baseUrl: emu.url, username: A.username, password: A.password });
    minted.push(_reveal(token.properties.refreshToken) as string, _reveal(token.properties.accessToken) as string);
    assert.ok(_isSecret(token.properties.accessToken) && _isSecret(token.properties.refreshToken), "secret outputs");
    assert.equal(_isSecret(token.properties.username), false);
    // A Token with its state reads (only an import, with none, is refused).
    const read = await plugin.read(token.id, urn("Token", "t"), token.properties);
    assert.equal(read.id, token.id);
    assert.ok(_isSecret(read.properties.refreshToken));
    await plugin.delete(token.id, urn("Token", "t"), token.properties);
  });

  it("Create that failed before making anything: its reason and code, no partial state", async () => {
    const err = (await _rejects(plugin.create(urn("DnsServer", "f"), { name: "F", credentials: { baseUrl: emu.url, apiKey: "key-INPROC-refused" } }))) as Error & { partial?: unknown };
    assert.match(err.message, /^2 UNKNOWN: Creating the DNS server failed: invalid_api_key: /);
    assert.equal(err.partial, undefined, "no ErrorResourceInitFailed");
  });

  it("Create that made an object but failed: the error carries its id and its state, secrets marked, with the reason and code", async () => {
    const err = (await _rejects(
      plugin.create(urn("DedicatedIpv4", "ip"), { deviceId: "no-such-device", credentials: { baseUrl: emu.url, apiKey: key } }),
    )) as Error & { partial?: { id: string; properties: Record<string, unknown>; reasons: string[] } };
    assert.ok(err.partial, "ErrorResourceInitFailed");
    assert.match(err.partial.id, /^\d+\.\d+\.\d+\.\d+$/);
    assert.equal(err.partial.properties.ip, err.partial.id);
    assert.ok(_isSecret(err.partial.properties.credentials), "the recorded state marks credentials secret");
    assert.deepEqual(err.partial.reasons, [err.message.replace(/^\d+ UNKNOWN: /, "")]);
    assert.match(err.message, /^2 UNKNOWN: Linking the dedicated IPv4 address failed: /);
    _assertNoSecrets(JSON.stringify(err.partial.reasons), secrets());
  });

  it("a Device: check, create with its secret addresses, read, delete", async () => {
    const [server] = await dashboard.dnsServers.list();
    const inputs = { name: "TV", deviceType: "SMART_TV", dnsServerId: server!.id };
    const checked = await plugin.check(urn("Device", "tv"), {}, inputs);
    assert.deepEqual(checked.failures, []);
    const device = await plugin.create(urn("Device", "tv"), checked.inputs);
    try {
      assert.ok(_isSecret(device.properties.dnsAddressesWithAuth), "the addresses that embed the DoH password are a secret output");
      assert.equal(_isSecret(device.properties.dnsAddresses), false);
      const read = await plugin.read(device.id, urn("Device", "tv"), device.properties, checked.inputs);
      assert.equal(read.properties.name, "TV");
      assert.ok(_isSecret(read.properties.dnsAddressesWithAuth));
    } finally {
      await plugin.delete(device.id, urn("Device", "tv"), device.properties);
    }
    assert.ok(!(await dashboard.devices.list()).some((d) => d.id === device.id));
  });

  it("before any Configure: no credentials of the provider's, plain HTTP refused", async () => {
    const fresh = await another();
    const created = await fresh.create(urn("DnsServer", "early"), { name: "Early", credentials: { baseUrl: emu.url, apiKey: key } });
    await fresh.delete(created.id, urn("DnsServer", "early"), created.properties);
    const none = await fresh.check(urn("DnsServer", "n"), {}, { name: "N" });
    assert.match(none.failures[0]!.reason, /No credentials/);
    const insecure = await _rejects(fresh.invoke("dns-account:index:getAccountLimits", { credentials: _secret({ baseUrl: "http://dns.example.invalid", apiKey: "key-INPROC-remote" }) }));
    assert.match(insecure.message, /uses http:\/\/ for a non-loopback host/);
  });

  it("Read: the inputs' credentials over the outputs' stale ones, the stored inputs back, secrets marked, gone without an id; a Token cannot be imported", async () => {
    const good = { baseUrl: emu.url, apiKey: key };
    const stale = { baseUrl: emu.url, apiKey: "key-INPROC-revoked" };
    const created = await plugin.create(urn("DnsServer", "r"), { name: "R", credentials: good });
    const inputs = { name: "R", credentials: _secret(good) };
    const staleProps = { ...created.properties, credentials: _secret(stale) };
    const read = await plugin.read(created.id, urn("DnsServer", "r"), staleProps, inputs);
    assert.equal(read.id, created.id);
    assert.equal(read.properties.name, "R");
    assert.ok(_isSecret(read.properties.credentials));
    assert.deepEqual(read.inputs, inputs, "the stored inputs, secrets marked");
    // Stored inputs without usable credentials (none, null, not an object, not known yet): the outputs'
    // are used, here by a plugin whose provider has no credentials of its own.
    const bare = await another();
    await bare.configureArgs({ baseUrl: emu.url });
    const goodProps = { ...created.properties, credentials: _secret(good) };
    for (const credentials of [undefined, null, "text", UNKNOWN, { baseUrl: emu.url, apiKey: UNKNOWN }]) {
      const r = await bare.read(created.id, urn("DnsServer", "r"), goodProps, { name: "R", ...(credentials === undefined ? {} : { credentials }) });
      assert.equal(r.id, created.id, JSON.stringify(credentials));
    }
    assert.match((await _rejects(plugin.read(created.id, urn("DnsServer", "r"), staleProps, { name: "R", credentials: UNKNOWN }))).message, /invalid_api_key/);
    // A property that arrived secret stays secret; no stored inputs, no inputs back.
    const secretName = await plugin.read(created.id, urn("DnsServer", "r"), { ...created.properties, name: _secret("R") });
    assert.ok(_isSecret(secretName.properties.name));
    assert.equal(secretName.inputs, undefined);
    // Plain credentials in stored inputs go back secret.
    const plainInputs = await plugin.read(created.id, urn("DnsServer", "r"), created.properties, { name: "R", credentials: good });
    assert.ok(_isSecret(plainInputs.inputs!.credentials));
    // An import (the id alone) gives inputs.
    const imported = await plugin.read(created.id, urn("DnsServer", "i"), {});
    assert.equal(imported.id, created.id);
    assert.equal(imported.inputs?.name, "R");
    await plugin.delete(created.id, urn("DnsServer", "r"), created.properties);
    const gone = await plugin.read(created.id, urn("DnsServer", "r"), created.properties, inputs);
    assert.equal(gone.id, "");
    assert.deepEqual(gone.properties, {});
    assert.equal(gone.inputs, undefined);

    const tokenImport = await _rejects(plugin.read("x", urn("Token", "imported"), {}));
    assert.match(tokenImport.message, /invalid_config: A Token cannot be imported: .*refreshToken, profile or credentialCommand to adopt one$/);
    // A DnsServer import by an unknown id is not refused as a Token's is.
    assert.equal((await plugin.read("999999", urn("DnsServer", "x"), {})).id, "");
  });

  it("Update: a preview merges the olds and news, secrets marked; an update changes the service and marks secrets", async () => {
    const created = await plugin.create(urn("DnsServer", "u"), { name: "U" });
    try {
      const preview = await plugin.update(created.id, urn("DnsServer", "u"), { ...created.properties, name: _secret("U") }, { name: "U2", credentials: { baseUrl: emu.url, apiKey: key } }, { preview: true });
      assert.ok(_isSecret(preview.properties.name), "secret in the olds stays secret");
      assert.equal(_reveal(preview.properties.name), "U2", "the news over the olds");
      assert.equal(preview.properties.serverId, created.id, "the olds' other properties");
      assert.ok(_isSecret(preview.properties.credentials));
      assert.equal((await dashboard.dnsServers.get(created.id)).name, "U", "a preview changes nothing");
      const previewNews = await plugin.update(created.id, urn("DnsServer", "u"), created.properties, { name: _secret("U3") }, { preview: true });
      assert.ok(_isSecret(previewNews.properties.name), "secret in the news stays secret");
      const updated = await plugin.update(created.id, urn("DnsServer", "u"), created.properties, { name: "U2", credentials: { baseUrl: emu.url, apiKey: key } });
      assert.equal(updated.properties.name, "U2");
      assert.ok(_isSecret(updated.properties.credentials));
      assert.equal((await dashboard.dnsServers.get(created.id)).name, "U2");
      const secretNews = await plugin.update(created.id, urn("DnsServer", "u"), updated.properties, { name: _secret("U4") });
      assert.ok(_isSecret(secretNews.properties.name));
    } finally {
      await plugin.delete(created.id, urn("DnsServer", "u"), created.properties);
    }
  });

  it("Delete uses the old inputs' credentials over the outputs' stale ones; a lifecycle's warning reaches the engine's log", async () => {
    const { messages } = plugin.pieces;
    const good = { baseUrl: emu.url, apiKey: key };
    const created = await plugin.create(urn("DnsServer", "del"), { name: "Del", credentials: good });
    const r = new messages.DeleteRequest();
    r.setId(created.id);
    r.setUrn(urn("DnsServer", "del"));
    r.setType("dns-account:index:DnsServer");
    r.setProperties(plugin.struct({ ...created.properties, credentials: _secret({ baseUrl: emu.url, apiKey: "key-INPROC-stale" }) }));
    r.setOldInputs(plugin.struct({ name: "Del", credentials: _secret(good) }));
    await plugin.raw("delete", r);
    assert.ok(!(await dashboard.dnsServers.list()).some((s) => s.id === created.id), "deleted");

    const ip = await plugin.create(urn("DedicatedIpv4", "ip"), {});
    const logged = plugin.logs.length;
    await plugin.delete(ip.id, urn("DedicatedIpv4", "ip"), ip.properties);
    await plugin.waitForLogs(logged + 1);
    assert.deepEqual(plugin.logs.slice(logged), [{ severity: WARNING, message: KEPT_WARNING }]);
  });

  it("Invoke: a function with the provider's credentials or the call's own; an unknown function is an error naming it", async () => {
    const limits = await plugin.invoke("dns-account:index:getAccountLimits", {});
    assert.equal(typeof (limits.outputs.dnsServers as { limit: number }).limit, "number");
    assert.deepEqual(limits.failures, []);
    const refused = await _rejects(plugin.invoke("dns-account:index:getAccountLimits", { credentials: _secret({ baseUrl: emu.url, apiKey: "key-INPROC-nope" }) }));
    assert.match(refused.message, /^2 UNKNOWN: invalid_api_key: /);
    _assertNoSecrets(refused.message, ["key-INPROC-nope"]);
    const unknown = await _rejects(plugin.invoke("dns-account:index:getNothing", {}));
    assert.match(unknown.message, /^2 UNKNOWN: invalid_config: unknown function dns-account:index:getNothing$/);
  });

  it("errors show their code once", async () => {
    const err = await _rejects(plugin.read("x", urn("Token", "imported"), {}));
    assert.equal((err.message.match(/invalid_config/g) ?? []).length, 1);
  });

  it("without an engine address, a warning goes to stderr", async () => {
    const p = await another({ engine: false });
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    try {
      await p.checkConfig(PROVIDER, {}, { apikey: "x" });
    } finally {
      process.stderr.write = write;
    }
    assert.equal(written.length, 1, written.join(""));
    assert.match(written[0]!, /^warning: dns-account:apikey .*\n$/);
    assert.equal(p.logs.length, 0);
  });

  it("after close it takes no call", async () => {
    const p = await _startInProcessPlugin();
    assert.equal(await p.getPluginInfo(), VERSION);
    await p.stop();
    const q = await _startInProcessPlugin();
    try {
      const { services, grpc, empty } = q.pieces;
      const client = new services.ResourceProviderClient(`127.0.0.1:${p.port}`, grpc.credentials.createInsecure());
      try {
        const err = await _rejects(new Promise((resolve, reject) => client.getPluginInfo(new empty.Empty(), (e: Error | null, r: unknown) => (e ? reject(e) : resolve(r)))));
        assert.match(err.message, /UNAVAILABLE|ECONNREFUSED/);
      } finally {
        client.close();
      }
    } finally {
      await q.stop();
    }
  });
});
