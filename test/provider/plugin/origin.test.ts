import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Emulator, startEmulator } from "../../../emulator";
import { type Client, createClient, issueToken, TokenStore } from "../../../sdk";
import { type PluginHost, startPlugin } from "../../support/engine/plugin-host";
import { _reveal } from "../../support/engine/rpc-client";
import { _assertNoSecrets, _cleanEnv } from "../../support/helpers";
import { _installedProgram } from "../../support/program";

const ALICE = { username: "alice@example.com", password: "pw-PLUGORIGIN-A-6b0e2c" };
const BOB = { username: "bob@example.com", password: "pw-PLUGORIGIN-B-d41f93" };
const KEY_A = "key-PLUGORIGIN-A-27c9e0f1";
const KEY_B = "key-PLUGORIGIN-B-e5a3b8d6";
const urn = (type: string, name: string) => `urn:pulumi:dev::home::dns-account:index:${type}::${name}`;

/**
 * Issue 22 §1 and §8 for the native plugin over gRPC: two emulators A and B, one account each. The
 * provider's configuration comes before the environment, and a base URL from one place with a secret
 * from another naming another origin is `base_url_conflict` naming both, with no request to either.
 */
describe("the native plugin: one origin per secret, configuration before the environment", function () {
  this.timeout(180_000);
  let a: Emulator;
  let b: Emulator;
  let dashA: Client;
  let dashB: Client;
  let program: string;
  const dirs: string[] = [];
  const outputs: string[] = [];
  const secrets: string[] = [ALICE.password, BOB.password, KEY_A, KEY_B];

  before(async () => {
    a = await startEmulator({ users: [ALICE], apiKeys: [{ key: KEY_A, username: ALICE.username }] });
    b = await startEmulator({ users: [BOB], apiKeys: [{ key: KEY_B, username: BOB.username }] });
    dashA = createClient({ baseUrl: a.url, apiKey: KEY_A });
    dashB = createClient({ baseUrl: b.url, apiKey: KEY_B });
    program = await _installedProgram();
  });

  after(async () => {
    await dashA?.close();
    await dashB?.close();
    await a?.close();
    await b?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    _assertNoSecrets(outputs.join("\n"), secrets);
  });

  /** An empty CLI store (or one given), so nothing of this machine's leaks in. */
  const store = (): string => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-plugorigin-"));
    dirs.push(dir);
    return dir;
  };

  async function withPlugin(env: NodeJS.ProcessEnv, config: Record<string, unknown>, fn: (plugin: PluginHost) => Promise<void>): Promise<void> {
    const plugin = await startPlugin({ programDir: program, env: _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: store(), ...env }) });
    try {
      await plugin.configureArgs(config, Object.keys(config).filter((k) => /password|apiKey/.test(k)));
      a.resetStats();
      b.resetStats();
      await fn(plugin);
    } finally {
      outputs.push(plugin.output(), JSON.stringify(plugin.logs));
      await plugin.stop();
    }
  }

  const envB = () => ({ DNS_ACCOUNT_BASE_URL: b.url, DNS_ACCOUNT_API_KEY: KEY_B, DNS_ACCOUNT_USERNAME: BOB.username, DNS_ACCOUNT_PASSWORD: BOB.password });
  const rejection = (p: Promise<unknown>): Promise<Error> => p.then(() => assert.fail("expected a rejection"), (e: Error) => e);
  const quiet = () => {
    assert.equal(a.stats.requests, 0, "nothing reached A");
    assert.equal(b.stats.requests, 0, "nothing reached B");
  };
  const namesBoth = (text: string, ...names: string[]) => {
    assert.match(text, /base_url_conflict/);
    for (const n of names) assert.ok(text.includes(n), `${n} in ${text}`);
  };

  it("the provider's configuration before the environment: resources, a Token and a function act on A's account (issue 22 §8)", async () => {
    await withPlugin(envB(), { baseUrl: a.url, apiKey: KEY_A, username: ALICE.username, password: ALICE.password }, async (plugin) => {
      const server = await plugin.create(urn("DnsServer", "order"), { name: "Plugin order" });
      const device = await plugin.create(urn("Device", "order"), { name: "Plugin device", deviceType: "LINUX", dnsServerId: server.id });
      const ip = await plugin.create(urn("DedicatedIpv4", "order"), {});
      const { failures } = await plugin.invoke("dns-account:index:getAccountLimits", {});
      assert.deepEqual(failures, []);
      const token = await plugin.create(urn("Token", "order"), {});
      secrets.push(_reveal(token.properties.accessToken) as string, _reveal(token.properties.refreshToken) as string);
      assert.equal(token.properties.baseUrl, a.url);
      assert.equal(token.properties.username, ALICE.username);
      assert.equal(b.stats.requests, 0, "nothing reached B");
      assert.equal((await dashA.dnsServers.get(server.id)).name, "Plugin order");
      assert.equal((await dashA.devices.get(device.id)).name, "Plugin device");
      assert.ok((await dashA.dedicatedIpv4.list()).some((x) => x.ip === ip.id));
      await plugin.delete(token.id, urn("Token", "order"), token.properties);
      await plugin.delete(ip.id, urn("DedicatedIpv4", "order"), ip.properties);
      await plugin.delete(device.id, urn("Device", "order"), device.properties);
      await plugin.delete(server.id, urn("DnsServer", "order"), server.properties);
    });
  });

  it("credentials holding only a baseUrl never take the provider's key there (resources and functions); with their own key they go to their own service", async () => {
    await withPlugin({}, { baseUrl: a.url, apiKey: KEY_A }, async (plugin) => {
      const steered = { baseUrl: b.url };
      for (const [type, inputs] of [
        ["DnsServer", { name: "Steered" }],
        ["Device", { name: "Steered", deviceType: "LINUX", dnsServerId: "x" }],
        ["DedicatedIpv4", {}],
      ] as const) {
        const news = { ...inputs, credentials: steered };
        const { failures } = await plugin.check(urn(type, "steered"), {}, news);
        // credentials holds secrets: the engine would print its value, so the failure names it in the reason.
        assert.deepEqual(failures.map((f) => f.property), [""], type);
        assert.match(failures[0]!.reason, /^credentials: /);
        namesBoth(failures[0]!.reason, "credentials.baseUrl", "dns-account:apiKey");
        namesBoth((await rejection(plugin.create(urn(type, "steered"), news))).message, "credentials.baseUrl", "dns-account:apiKey");
      }
      namesBoth((await rejection(plugin.invoke("dns-account:index:getFilterLists", { credentials: steered }))).message, "credentials.baseUrl", "dns-account:apiKey");
      quiet();
      const own = await plugin.create(urn("DnsServer", "own"), { name: "Own key", credentials: { baseUrl: b.url, apiKey: KEY_B } });
      assert.equal((await dashB.dnsServers.get(own.id)).name, "Own key");
      assert.equal(a.stats.requests, 0, "nothing reached A");
      await plugin.delete(own.id, urn("DnsServer", "own"), own.properties);
    });
  });

  it("DNS_ACCOUNT_BASE_URL with the CLI's default profile logged in elsewhere: base_url_conflict, for a Token, a resource and a function", async () => {
    const dir = store();
    const issued = await issueToken({ baseUrl: a.url, ...ALICE });
    secrets.push(issued.refreshToken, issued.accessToken);
    await new TokenStore({ dir }).put("default", { baseUrl: a.url, username: ALICE.username, refreshToken: issued.refreshToken });
    await withPlugin({ DNS_ACCOUNT_BASE_URL: b.url, DNS_ACCOUNT_CONFIG_DIR: dir }, {}, async (plugin) => {
      const names = ["DNS_ACCOUNT_BASE_URL", 'default profile ("default")'];
      const token = await plugin.check(urn("Token", "conflict"), {}, {});
      assert.equal(token.failures.length, 1, JSON.stringify(token.failures));
      namesBoth(token.failures[0]!.reason, ...names);
      namesBoth((await rejection(plugin.create(urn("Token", "conflict"), {}))).message, ...names);
      const server = await plugin.check(urn("DnsServer", "conflict"), {}, { name: "X" });
      assert.deepEqual(server.failures.map((f) => f.property), [""]);
      assert.match(server.failures[0]!.reason, /^credentials: /);
      namesBoth(server.failures[0]!.reason, ...names);
      namesBoth((await rejection(plugin.invoke("dns-account:index:getAccountLimits", {}))).message, ...names);
      // The provider's own baseUrl and profile, at two origins: CheckConfig names the key.
      const config = await plugin.checkConfig("urn:pulumi:dev::home::pulumi:providers:dns-account::default", {}, { baseUrl: b.url, profile: "default" });
      assert.deepEqual(config.failures.map((f) => f.property), ["baseUrl"]);
      namesBoth(config.failures[0]!.reason, "dns-account:baseUrl", 'the profile "default" (dns-account:profile)');
      quiet();
    });
  });
  it("an explicit provider's own apiKey with DNS_ACCOUNT_BASE_URL elsewhere: CheckConfig fails once, in the provider's words; nothing is sent", async () => {
    const kids = "urn:pulumi:dev::home::pulumi:providers:dns-account::kids";
    const dflt = "urn:pulumi:dev::home::pulumi:providers:dns-account::default_0_3_0";
    const failed = (r: { failures: { property: string; reason: string }[] }, ...names: string[]) => {
      assert.deepEqual(r.failures.map((f) => f.property), ["baseUrl"], JSON.stringify(r.failures));
      namesBoth(r.failures[0]!.reason, ...names);
      if (names.some((n) => n.includes("of provider kids"))) assert.doesNotMatch(r.failures[0]!.reason, /dns-account:/, "the provider's words, not stack config's");
      for (const s of secrets) assert.ok(!r.failures[0]!.reason.includes(s), "no secret in the reason");
    };
    await withPlugin({ DNS_ACCOUNT_BASE_URL: b.url }, {}, async (plugin) => {
      failed(await plugin.checkConfig(kids, {}, { apiKey: KEY_A }), "the apiKey of provider kids", "DNS_ACCOUNT_BASE_URL");
      failed(await plugin.checkConfig(dflt, {}, { apiKey: KEY_A }), "dns-account:apiKey", "DNS_ACCOUNT_BASE_URL");
      // With its own base URL beside the key, the provider is fine (the environment's URL is not its).
      assert.deepEqual((await plugin.checkConfig(kids, {}, { apiKey: KEY_A, baseUrl: a.url })).failures, []);
      quiet();
    });
    await withPlugin({ DNS_ACCOUNT_API_KEY: KEY_B }, {}, async (plugin) => {
      // The provider's baseUrl alone would steer the environment's key away from its own origin.
      failed(await plugin.checkConfig(kids, {}, { baseUrl: a.url }), "the baseUrl of provider kids", "DNS_ACCOUNT_API_KEY");
      failed(await plugin.checkConfig(dflt, {}, { baseUrl: a.url }), "dns-account:baseUrl", "DNS_ACCOUNT_API_KEY");
      quiet();
    });
  });
});
