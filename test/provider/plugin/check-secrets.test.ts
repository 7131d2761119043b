import assert from "node:assert/strict";
import { createServer } from "node:net";
import { type Emulator, startEmulator } from "../../../emulator";
import { startPlugin, type PluginHost } from "../../support/engine/plugin-host";
import { _isSecret, _secret } from "../../support/engine/rpc-client";
import { _assertNoSecrets, _cleanEnv, _closeAll } from "../../support/helpers";
import { _installedProgram } from "../../support/program";
import { _useTempDirs } from "../../support/temp";

const OPS = { username: "checks@example.com", password: "pw-PLUGINCHECK-7b2e90" };
const KEY = "key-PLUGINCHECK-4c81d3aa";
const WRONG_KEY = "key-PLUGINCHECK-WRONG-19fe02";
const LITERAL_REFRESH = "rt-PLUGINCHECK-Literal-5d3c";
const urn = (type: string, name: string) => `urn:pulumi:dev::home::dns-account:index:${type}::${name}`;
const PROVIDER = "urn:pulumi:dev::home::pulumi:providers:dns-account::default";

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The plugin's Check and CheckConfig over gRPC (issue 32 §2, §5, §6): secrets that arrive in clear go back
 * secret, no failure names a property that holds a secret, a misspelled configuration key is a warning
 * and a hint beside "No credentials", and the credentials are tried once during the check (a wrong key or
 * an unreachable service fails the preview) unless `skipCredentialsValidation` says not to.
 */
describe("the native plugin: what Check and CheckConfig say, and never say", function () {
  const tmp = _useTempDirs();
  this.timeout(120_000);
  let emu: Emulator;
  let plugin: PluginHost;
  const secrets = [OPS.password, KEY, WRONG_KEY, LITERAL_REFRESH].flatMap((s) => [s, s.toLowerCase()]);

  before(async () => {
    emu = await startEmulator({ users: [OPS], apiKeys: [{ key: KEY, username: OPS.username }] });
    plugin = await startPlugin({ programDir: await _installedProgram(), env: _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: tmp("dns-account-plugin-checks-") }) });
  });

  after(async () => {
    await _closeAll(
      () => _assertNoSecrets(plugin.output() + JSON.stringify(plugin.logs), secrets),
      () => plugin?.stop(),
      () => emu?.close(),
    );
  });

  it("a Token's password sent in clear comes back secret", async () => {
    await plugin.configureArgs({ baseUrl: emu.url }, []);
    const checked = await plugin.check(urn("Token", "ci"), {}, { baseUrl: emu.url, username: OPS.username, password: OPS.password });
    assert.deepEqual(checked.failures, []);
    assert.ok(_isSecret(checked.inputs.password), "the password goes back as a secret");
  });

  it("failures name no property that holds a secret: a Token's password with a refreshToken, conflicting credentials, the provider's password with a refreshToken", async () => {
    const token = await plugin.check(urn("Token", "ci"), {}, { baseUrl: emu.url, username: OPS.username, password: OPS.password, refreshToken: LITERAL_REFRESH });
    assert.ok(token.failures.length > 0);
    const server = await plugin.check(urn("DnsServer", "s"), {}, { name: "S", credentials: { baseUrl: "https://elsewhere.example", refreshToken: _secret(LITERAL_REFRESH), apiKey: _secret(KEY) } });
    assert.ok(server.failures.length > 0);
    const config = await plugin.checkConfig(PROVIDER, {}, { baseUrl: emu.url, username: OPS.username, password: OPS.password, refreshToken: LITERAL_REFRESH });
    assert.ok(config.failures.length > 0);
    for (const f of [...token.failures, ...server.failures, ...config.failures]) {
      assert.ok(!["password", "refreshToken", "apiKey", "credentials", "mfaToken"].includes(f.property.split(/[.[]/)[0]!), `failure on ${f.property}`);
      assert.match(f.reason, /password|refreshToken|credentials|apiKey/, "the reason names the field");
    }
    _assertNoSecrets(JSON.stringify([token.failures, server.failures, config.failures]), secrets);
  });

  it("a misspelled configuration key is a warning naming the key meant, and a hint beside No credentials", async () => {
    const config = await plugin.checkConfig(PROVIDER, {}, { baseUrl: emu.url, apikey: _secret(KEY), ttl: "60" });
    assert.deepEqual(config.failures, []);
    const messages = plugin.logs.map((l) => l.message);
    assert.ok(messages.some((m) => /dns-account:apikey .*did you mean dns-account:apiKey\?/.test(m)), messages.join("\n"));
    assert.ok(messages.some((m) => /dns-account:ttl is not a setting/.test(m)), messages.join("\n"));
    await plugin.configureArgs({ baseUrl: emu.url, apikey: KEY }, ["apikey"]);
    const checked = await plugin.check(urn("DnsServer", "s"), {}, { name: "S" });
    assert.equal(checked.failures.length, 1);
    assert.match(checked.failures[0]!.reason, /No credentials.*dns-account:apikey is set.*did you mean dns-account:apiKey\?/s);
  });

  it("a wrong API key or an unreachable service fails the check, once per credential; skipCredentialsValidation skips it", async () => {
    await plugin.configureArgs({ baseUrl: emu.url, apiKey: WRONG_KEY }, ["apiKey"]);
    const wrong = await plugin.check(urn("DnsServer", "s"), {}, { name: "S" });
    assert.equal(wrong.failures.length, 1);
    assert.match(wrong.failures[0]!.reason, /refused.*invalid_api_key/);
    // A refused credential fails whenever it is used: no advice to skip the check (which only puts that off).
    assert.doesNotMatch(wrong.failures[0]!.reason, /skipCredentialsValidation/);
    await plugin.configureArgs({ baseUrl: emu.url, apiKey: KEY }, ["apiKey"]);
    const requestsBefore = emu.stats.requests;
    assert.deepEqual((await plugin.check(urn("DnsServer", "s"), {}, { name: "S" })).failures, []);
    assert.deepEqual((await plugin.check(urn("DnsServer", "t"), {}, { name: "T" })).failures, []);
    assert.equal(emu.stats.requests - requestsBefore, 1, "one call validates the key for every resource of the process");
    await plugin.configureArgs({ baseUrl: emu.url, apiKey: WRONG_KEY, skipCredentialsValidation: true }, ["apiKey"]);
    assert.deepEqual((await plugin.check(urn("DnsServer", "s"), {}, { name: "S2" })).failures, [], "skipped");
    const port = await closedPort();
    await plugin.configureArgs({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY }, ["apiKey"]);
    const unreachable = await plugin.check(urn("DnsServer", "s"), {}, { name: "S" });
    assert.equal(unreachable.failures.length, 1);
    assert.match(unreachable.failures[0]!.reason, /cannot be reached/);
  });
});
