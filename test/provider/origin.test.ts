import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient, issueToken, TokenStore } from "../../sdk";
import { type ProviderHost, startProviderHost } from "../support/engine/provider-host";
import { _assertNoSecrets, _cleanEnv } from "../support/helpers";
import { _installedProgram, _runInProgram, MOCKS_PRELUDE } from "../support/program";

// Two services, one account each: every secret below belongs to exactly one of them.
const ALICE = { username: "alice@example.com", password: "pw-ORIGIN-A-3f9c1e" };
const BOB = { username: "bob@example.com", password: "pw-ORIGIN-B-8d2a47" };
const KEY_A = "key-ORIGIN-A-51c0d9e3";
const KEY_B = "key-ORIGIN-B-a7e2f604";
const urnOf = (type: string, name: string) => `urn:pulumi:dev::dns-account-test::pulumi-nodejs:dynamic/dns-account:${type}::${name}`;
type Types = "Token" | "DnsServer" | "Device" | "DedicatedIpv4";

/**
 * Issue 22 §1 and §8, for every face of the provider in the dynamic-provider host and the program
 * (Token, DnsServer, Device, DedicatedIpv4, the lookups, getClient): two emulators A and B, one account
 * each. Stack config comes before the environment (the account of A changes, B hears nothing), and a
 * base URL from one place with a secret from another naming another origin is `base_url_conflict`,
 * naming both places in Pulumi's words, with no request to either service.
 */
describe("one origin per secret, and stack config before the environment: the provider's faces", function () {
  this.timeout(180_000);
  let a: Emulator;
  let b: Emulator;
  let dashA: Client;
  let dashB: Client;
  let program: string;
  let providers: Record<Types, string>;
  /** A CLI store whose default profile is logged in at A. */
  let storeA: string;
  const outputs: string[] = [];
  const secrets: string[] = [ALICE.password, BOB.password, KEY_A, KEY_B];

  before(async () => {
    a = await startEmulator({ users: [ALICE], apiKeys: [{ key: KEY_A, username: ALICE.username }] });
    b = await startEmulator({ users: [BOB], apiKeys: [{ key: KEY_B, username: BOB.username }] });
    dashA = createClient({ baseUrl: a.url, apiKey: KEY_A });
    dashB = createClient({ baseUrl: b.url, apiKey: KEY_B });
    storeA = mkdtempSync(path.join(os.tmpdir(), "dns-account-origin-"));
    const issued = await issueToken({ baseUrl: a.url, ...ALICE });
    secrets.push(issued.refreshToken, issued.accessToken);
    await new TokenStore({ dir: storeA }).put("default", { baseUrl: a.url, username: ALICE.username, refreshToken: issued.refreshToken });
    program = await _installedProgram();
    const { stdout } = await _runInProgram(
      "serialize-origin",
      `${MOCKS_PRELUDE}
const { Token, DnsServer, Device, DedicatedIpv4 } = require("pulumi-dns-account");
new Token("t", { username: "x", password: "y" });
new DnsServer("s", { name: "x" });
new Device("d", { name: "d", deviceType: "LINUX", dnsServerId: "x" });
new DedicatedIpv4("i", {});
Promise.all(["Token", "DnsServer", "Device", "DedicatedIpv4"].map((t) => registered((r) => r.type.endsWith(":" + t) && r.inputs.__provider)))
  .then((rs) => console.log(JSON.stringify(Object.fromEntries(rs.map((r) => [r.type.split(":").pop(), r.inputs.__provider])))));`,
    );
    providers = JSON.parse(stdout) as Record<Types, string>;
  });

  after(async () => {
    await dashA?.close();
    await dashB?.close();
    await a?.close();
    await b?.close();
    if (storeA) rmSync(storeA, { recursive: true, force: true });
    _assertNoSecrets(outputs.join("\n"), secrets);
  });

  /** Runs `fn` against a dynamic-provider host with this environment and stack config. */
  async function inHost(env: NodeJS.ProcessEnv, config: Record<string, string>, fn: (host: ProviderHost) => Promise<void>): Promise<void> {
    const host = await startProviderHost({ programDir: program, env: _cleanEnv(env) });
    try {
      await host.configure(config, Object.keys(config).filter((k) => /password|apiKey/.test(k)));
      a.resetStats();
      b.resetStats();
      await fn(host);
    } finally {
      outputs.push(host.output());
      await host.close();
    }
  }

  const configA = { "dns-account:username": ALICE.username, "dns-account:password": ALICE.password };
  const envB = () => ({ DNS_ACCOUNT_BASE_URL: b.url, DNS_ACCOUNT_USERNAME: BOB.username, DNS_ACCOUNT_PASSWORD: BOB.password, DNS_ACCOUNT_API_KEY: KEY_B });
  const rejection = (p: Promise<unknown>): Promise<Error> => p.then(() => assert.fail("expected a rejection"), (e: Error) => e);
  const quiet = () => {
    assert.equal(a.stats.requests, 0, "nothing reached A");
    assert.equal(b.stats.requests, 0, "nothing reached B");
  };
  /** The conflict, naming both places. */
  const namesBoth = (text: string, first: string | RegExp, second: string | RegExp, code = true) => {
    if (code) assert.match(text, /base_url_conflict/);
    for (const n of [first, second]) assert.match(text, typeof n === "string" ? new RegExp(n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : n);
  };

  describe("stack config before the environment (issue 22 §8): the environment names B's account", () => {
    it("a Token logs in at A with A's account", async () => {
      await inHost(envB(), { ...configA, "dns-account:baseUrl": a.url }, async (host) => {
        const urn = urnOf("Token", "order");
        assert.deepEqual((await host.check(urn, {}, { __provider: providers.Token })).failures, []);
        const res = await host.create(urn, { __provider: providers.Token });
        secrets.push(res.properties.accessToken as string, res.properties.refreshToken as string);
        assert.equal(res.properties.baseUrl, a.url);
        assert.equal(res.properties.username, ALICE.username);
        assert.equal(a.stats.passwordGrants, 1);
        assert.equal(b.stats.requests, 0, "nothing reached B");
        await host.delete(res.id, urn, res.properties);
      });
    });

    it("a DnsServer, a Device and a DedicatedIpv4 are made in A's account", async () => {
      await inHost(envB(), { "dns-account:baseUrl": a.url, "dns-account:apiKey": KEY_A }, async (host) => {
        const server = await host.create(urnOf("DnsServer", "order"), { __provider: providers.DnsServer, name: "Order server" });
        const device = await host.create(urnOf("Device", "order"), { __provider: providers.Device, name: "Order device", deviceType: "LINUX", dnsServerId: server.id });
        const ip = await host.create(urnOf("DedicatedIpv4", "order"), { __provider: providers.DedicatedIpv4 });
        assert.equal(b.stats.requests, 0, "nothing reached B");
        assert.equal((await dashA.dnsServers.get(server.id)).name, "Order server");
        assert.equal((await dashA.devices.get(device.id)).name, "Order device");
        assert.ok((await dashA.dedicatedIpv4.list()).some((x) => x.ip === ip.id));
        assert.ok(!(await dashB.dnsServers.list()).some((s) => s.name === "Order server"));
        await host.delete(ip.id, urnOf("DedicatedIpv4", "order"), ip.properties);
        await host.delete(device.id, urnOf("Device", "order"), device.properties);
        await host.delete(server.id, urnOf("DnsServer", "order"), server.properties);
      });
    });

    it("the lookups and getClient act on A's account", async () => {
      a.resetStats();
      b.resetStats();
      const { stdout } = await _runInProgram(
        "origin-order",
        `${MOCKS_PRELUDE}
const { getClient, getAccountLimits, getFilterLists } = require("pulumi-dns-account");
(async () => {
  const client = await getClient();
  const server = await client.dnsServers.create({ name: "Via getClient" });
  await getAccountLimits();
  await getFilterLists();
  console.log(JSON.stringify({ id: server.id }));
})().catch((e) => { console.log(JSON.stringify({ code: e.code, message: e.message })); });`,
        { ...envB(), PULUMI_CONFIG: JSON.stringify({ "dns-account:baseUrl": a.url, "dns-account:apiKey": KEY_A }) },
      );
      outputs.push(stdout);
      const out = JSON.parse(stdout) as { id?: string; message?: string };
      assert.ok(out.id, out.message);
      assert.equal((await dashA.dnsServers.get(out.id)).name, "Via getClient");
      assert.equal(b.stats.requests, 0, "nothing reached B");
      assert.ok(a.stats.apiKeyCalls >= 3);
      await dashA.dnsServers.remove(out.id);
    });
  });

  describe("a secret goes only to its own origin (issue 22 §1)", () => {
    it("a Token: DNS_ACCOUNT_BASE_URL and the CLI's default profile at A; a Token's baseUrl alone and the config's password", async () => {
      await inHost({ DNS_ACCOUNT_BASE_URL: b.url, DNS_ACCOUNT_CONFIG_DIR: storeA }, {}, async (host) => {
        const urn = urnOf("Token", "conflict");
        const { failures } = await host.check(urn, {}, { __provider: providers.Token });
        assert.equal(failures.length, 1, JSON.stringify(failures));
        namesBoth(failures[0]!.reason, "DNS_ACCOUNT_BASE_URL", 'default profile ("default")');
        namesBoth((await rejection(host.create(urn, { __provider: providers.Token }))).message, "DNS_ACCOUNT_BASE_URL", 'default profile ("default")');
        quiet();
      });
      await inHost({}, { ...configA, "dns-account:baseUrl": a.url }, async (host) => {
        const urn = urnOf("Token", "args-url");
        const { failures } = await host.check(urn, {}, { __provider: providers.Token, baseUrl: b.url });
        assert.equal(failures.length, 1, JSON.stringify(failures));
        namesBoth(failures[0]!.reason, /^base_url_conflict: baseUrl points at/, "dns-account:password (with dns-account:baseUrl)");
        namesBoth((await rejection(host.create(urn, { __provider: providers.Token, baseUrl: b.url }))).message, "baseUrl", "dns-account:password");
        quiet();
      });
    });

    it("account resources: credentials holding only a baseUrl never take the provider's key there", async () => {
      await inHost({}, { "dns-account:baseUrl": a.url, "dns-account:apiKey": KEY_A }, async (host) => {
        const cases: [Types, Record<string, unknown>][] = [
          ["DnsServer", { name: "Steered" }],
          ["Device", { name: "Steered", deviceType: "LINUX", dnsServerId: "x" }],
          ["DedicatedIpv4", {}],
        ];
        for (const [type, inputs] of cases) {
          const urn = urnOf(type, "steered");
          const news = { __provider: providers[type], ...inputs, credentials: { baseUrl: b.url } };
          const { failures } = await host.check(urn, {}, news);
          // credentials holds secrets: named in the reason, not as the property whose value the engine prints.
          assert.deepEqual(failures.map((f) => f.property), [""], type);
          assert.match(failures[0]!.reason, /^credentials: /);
          namesBoth(failures[0]!.reason, "credentials.baseUrl", "dns-account:apiKey (with dns-account:baseUrl)");
          namesBoth((await rejection(host.create(urn, news))).message, "credentials.baseUrl", "dns-account:apiKey");
        }
        quiet();
        // With its own key beside it, the resource's base URL is its own: B's account, and A hears nothing.
        const own = await host.create(urnOf("DnsServer", "own"), { __provider: providers.DnsServer, name: "Own key", credentials: { baseUrl: b.url, apiKey: KEY_B } });
        assert.equal((await dashB.dnsServers.get(own.id)).name, "Own key");
        assert.equal(a.stats.requests, 0, "nothing reached A");
        await host.delete(own.id, urnOf("DnsServer", "own"), own.properties);
      });
      await inHost({ DNS_ACCOUNT_BASE_URL: b.url, DNS_ACCOUNT_CONFIG_DIR: storeA }, {}, async (host) => {
        const { failures } = await host.check(urnOf("DnsServer", "profile"), {}, { __provider: providers.DnsServer, name: "Profile" });
        assert.deepEqual(failures.map((f) => f.property), [""]);
        assert.match(failures[0]!.reason, /^credentials: /);
        namesBoth(failures[0]!.reason, "DNS_ACCOUNT_BASE_URL", 'default profile ("default")');
        quiet();
      });
    });

    it("the lookups and getClient: DNS_ACCOUNT_BASE_URL with the CLI's default profile at A, and getClient's baseUrl with the config's key", async () => {
      a.resetStats();
      b.resetStats();
      const script = `${MOCKS_PRELUDE}
const { getClient, getFilterLists, getAccountLimits } = require("pulumi-dns-account");
const outcome = (p) => p.then(() => ({ ok: true }), (e) => ({ code: e.code, message: e.message }));
(async () => {
  console.log(JSON.stringify([await outcome(getClient()), await outcome(getFilterLists()), await outcome(getAccountLimits())]));
})();`;
      const profile = await _runInProgram("origin-profile", script, { DNS_ACCOUNT_BASE_URL: b.url, DNS_ACCOUNT_CONFIG_DIR: storeA });
      outputs.push(profile.stdout, profile.stderr);
      for (const r of JSON.parse(profile.stdout) as { code?: string; message: string }[]) {
        assert.equal(r.code, "base_url_conflict", r.message);
        namesBoth(r.message, "DNS_ACCOUNT_BASE_URL", 'default profile ("default")', false);
      }
      const steered = await _runInProgram(
        "origin-steered",
        `const { getClient } = require("pulumi-dns-account");
getClient({ baseUrl: process.env.B }).then(() => console.log("{}"), (e) => console.log(JSON.stringify({ code: e.code, message: e.message })));`,
        { PULUMI_CONFIG: JSON.stringify({ "dns-account:baseUrl": a.url, "dns-account:apiKey": KEY_A }), B: b.url },
      );
      outputs.push(steered.stdout, steered.stderr);
      const client = JSON.parse(steered.stdout) as { code?: string; message: string };
      assert.equal(client.code, "base_url_conflict", client.message);
      namesBoth(client.message, /^baseUrl points at/, "dns-account:apiKey (with dns-account:baseUrl)", false);
      quiet();
    });
  });
});
