import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../emulator";
import { DEFAULT_USERS } from "../../emulator/state";
import { type Client, createClient } from "../../sdk";
import { type DocProgram, DocPrograms, _docBlocks, _oneBlock, _since } from "../support/doc-program";
import { _assertNoSecrets, _withLowerCase } from "../support/helpers";
import { _engineMissing, _failWithout, _summaryCounts } from "../support/pulumi-cli";

const RESOURCES = "docs/resources.md";
const TYPESCRIPT = "docs/typescript.md";
const PASSWORD = "password-ENGINE-DOCS-41c7e2";
/** The programs' accounts: one each (the emulator allows one dedicated address per account). */
const ACCOUNTS = ["typescript", "python", "go", "java", "yaml", "token", "account", "readme"] as const;
type Account = (typeof ACCOUNTS)[number];
const username = (a: Account): string => `docs-${a}@example.com`;
const apiKey = (a: Account): string => `key-ENGINE-DOCS-${a}-9b3f05`;

/**
 * Issue 34: the Pulumi programs of the docs, other than the overview's example
 * (test/engine/overview-examples.test.ts), run as written under the real `pulumi` (`npm run engine`)
 * against one emulator: each block is taken from its page at test time and written, as it is, into a
 * project of its language (DocPrograms, test/support/doc-program.ts: one plugin tarball, one `npm pack`
 * install for the TypeScript blocks), then `pulumi up`, `pulumi preview --expect-no-changes` and
 * `pulumi destroy`, each checked at the service and in the stack's outputs. Each program has an account
 * of its own (a password user and a dashboard API key), so each checks what it did to it alone.
 * - docs/resources.md's "One program" in TypeScript (dynamic resources), Python, Go, Java and YAML: a
 *   Token that rotates (password login from stack config), a DNS server "CI only" on its credentials,
 *   the default server adopted with a block TTL of 60 s, a dedicated address exported as `address`.
 *   Destroy deletes "CI only", revokes the Token's refresh token, leaves the default server and the
 *   address (never released) in the account.
 * - docs/typescript.md's Token program and its account as code (dynamic resources).
 * - README.md's YAML example (a server and a device on the stack's API key). (docs/plugin.md's "Two
 *   accounts in one program" is not run: its explicit provider names no baseUrl, so its key goes only to
 *   the service's own host; test/engine/plugin-yaml-cycle.test.ts runs two explicit providers.)
 * The passwords, API keys, passphrase and minted tokens appear nowhere in what `pulumi` printed nor in
 * the state but as ciphertext.
 */
describe("engine: the docs' Pulumi programs, as written, by pulumi up / preview / destroy", function () {
  this.timeout(2_400_000);
  let emu: Emulator;
  let programs: DocPrograms;
  const dashboards = new Map<Account, Client>();
  let suiteStarted = Date.now();

  before(async function () {
    suiteStarted = Date.now();
    _failWithout(_engineMissing("nodejs"));
    programs = new DocPrograms();
    await programs.tarball();
    emu = await startEmulator({ users: [...DEFAULT_USERS, ...ACCOUNTS.map((a) => ({ username: username(a), password: PASSWORD }))] });
    for (const a of ACCOUNTS) {
      emu.addApiKey(username(a), apiKey(a));
      dashboards.set(a, createClient({ baseUrl: emu.url, apiKey: apiKey(a) }));
    }
  });

  after(async () => {
    for (const d of dashboards.values()) await d.close();
    await emu?.close();
    programs?.remove();
    console.log(`      the docs' programs in ${_since(suiteStarted)} s in all`);
  });

  const dashboard = (a: Account): Client => dashboards.get(a)!;

  /** An account's servers, devices and addresses, by name, id and link. */
  async function inventory(a: Account): Promise<{ servers: string[]; devices: string[]; addresses: string[] }> {
    const d = dashboard(a);
    return {
      servers: (await d.dnsServers.list()).map((s) => `${s.name}:${s.id}:${s.default}`).sort(),
      devices: (await d.devices.list()).map((v) => `${v.name}:${v.id}`).sort(),
      addresses: (await d.dedicatedIpv4.list()).map((x) => `${x.ip}:${x.device_id ?? ""}`).sort(),
    };
  }

  /** Outputs as the stack shows them (secrets masked) and with --show-secrets. */
  async function outputs(p: DocProgram): Promise<{ masked: Record<string, unknown>; shown: Record<string, unknown> }> {
    return {
      masked: JSON.parse(await p.pulumi("stack", "output", "--json")) as Record<string, unknown>,
      shown: JSON.parse(await p.pulumi("stack", "output", "--json", "--show-secrets")) as Record<string, unknown>,
    };
  }

  /**
   * up (expecting `created` creations, the stack included), then `checkUp`, preview --expect-no-changes,
   * destroy, then `checkDestroy`; what pulumi printed and the state hold none of `secrets` (nor the
   * values `checkUp` returns).
   */
  async function life(
    p: DocProgram,
    config: Record<string, string | { secret: string }>,
    created: number,
    checkUp: () => Promise<string[]>,
    checkDestroy: () => Promise<void>,
    secrets: string[],
  ): Promise<void> {
    await p.init(config);
    const logs: string[] = [];
    const t0 = Date.now();
    const up = await p.pulumi("up", "--yes", "--skip-preview");
    logs.push(up);
    assert.deepEqual(_summaryCounts(up), { create: created }, up);
    if (p.plugin) p.assertPluginRan();
    const minted = await checkUp();
    const preview = await p.pulumi("preview", "--expect-no-changes");
    logs.push(preview);
    assert.deepEqual(_summaryCounts(preview), { same: created }, preview);
    const state = await p.pulumi("stack", "export");
    const destroy = await p.pulumi("destroy", "--yes", "--skip-preview");
    logs.push(destroy);
    assert.deepEqual(_summaryCounts(destroy), { delete: created }, destroy);
    await checkDestroy();
    const all = _withLowerCase([...secrets, ...minted, p.project.env.PULUMI_CONFIG_PASSPHRASE!]);
    _assertNoSecrets(logs.join("\n"), all);
    _assertNoSecrets(state + (await p.pulumi("stack", "export")), all);
    console.log(`      up, preview and destroy in ${_since(t0)} s`);
  }

  describe(`${RESOURCES}: "One program" in each language`, () => {
    const blocks = _docBlocks(RESOURCES, "One program");

    it("the section holds one program per language: TypeScript, Python, Go, Java, YAML", () => {
      assert.deepEqual(
        blocks.map((b) => b.lang),
        ["typescript", "python", "go", "java", "yaml"],
        `a block added to (or taken from) ${RESOURCES}'s "One program" needs a test here`,
      );
    });

    /**
     * The program in `lang` on its own account: the Token logs in with the stack's username and
     * password; `ciOnly` uses the Token's credentials; `home` adopts the default server; `address` is
     * the account's new dedicated address.
     */
    async function oneProgram(lang: Account): Promise<void> {
      const a = lang;
      const p = await programs.project(_oneBlock(blocks, lang), `resources-${lang}`);
      const d = dashboard(a);
      const before = await inventory(a);
      const defaultServer = (await d.dnsServers.list()).find((s) => s.default)!;
      assert.ok(defaultServer, "the account has a default DNS server");
      assert.equal(emu.liveRefreshTokens(username(a)), 0, "no refresh token of the account before up");
      let address = "";
      await life(
        p,
        { "dns-account:baseUrl": emu.url, "dns-account:username": username(a), "dns-account:password": { secret: PASSWORD } },
        5,
        async () => {
          const servers = await d.dnsServers.list();
          const ciOnly = servers.filter((s) => s.name === "CI only");
          assert.equal(ciOnly.length, 1, "up made the DNS server CI only");
          assert.equal(servers.length, before.servers.length + 1, "and no other");
          const home = await d.dnsServers.get(defaultServer.id);
          assert.equal(home.default, true);
          assert.equal(home.settings.block_ttl_seconds, 60, "the default server, adopted, has the block TTL of 60 s");
          const addresses = await d.dedicatedIpv4.list();
          assert.equal(addresses.length, before.addresses.length + 1, "up allocated one dedicated address");
          address = addresses.find((x) => !before.addresses.some((b) => b.startsWith(`${x.ip}:`)))!.ip;
          assert.ok(emu.liveRefreshTokens(username(a)) >= 1, "the Token holds a refresh token of the account");
          const out = await outputs(p);
          assert.deepEqual(out.masked, { address }, "the stack output address is the new dedicated address");
          const state = JSON.parse(await p.pulumi("stack", "export", "--show-secrets")) as { deployment: { resources: { type: string; outputs?: Record<string, unknown> }[] } };
          const token = state.deployment.resources.find((r) => /Token$/.test(r.type) || (r.outputs?.refreshToken !== undefined && r.outputs?.mode !== undefined));
          assert.ok(token?.outputs, "the state holds the Token");
          const tokenOutputs = token.outputs as Record<string, unknown>;
          const unwrap = (v: unknown): string => String(typeof v === "object" && v !== null && "value" in v ? (v as { value: unknown }).value : v);
          return [unwrap(tokenOutputs.accessToken), unwrap(tokenOutputs.refreshToken)];
        },
        async () => {
          const after = await inventory(a);
          assert.deepEqual(
            after.servers,
            before.servers,
            "destroy deleted CI only and left the default server (adopted) in place",
          );
          assert.deepEqual(after.addresses, [...before.addresses, `${address}:`].sort(), "the address stays allocated to the account, unlinked (never released)");
          assert.equal(emu.liveRefreshTokens(username(a)), 0, "destroy revoked the Token's refresh token; nothing else of the account's is left alive");
          assert.equal((await d.dnsServers.get(defaultServer.id)).settings.block_ttl_seconds, 60, "the adopted server keeps the settings the program gave it");
        },
        [PASSWORD, apiKey(a)],
      );
    }

    it("TypeScript: the dynamic resources of the npm pack install", () => oneProgram("typescript"));
    it("Python: the generated SDK in a venv, the tarball plugin, no Node.js", () => oneProgram("python"));
    it("Go: sdks/go, the tarball plugin, no Node.js", () => oneProgram("go"));
    it("YAML (a whole Pulumi.yaml): the tarball plugin, no Node.js", () => oneProgram("yaml"));
    it("Java: sdks/java by Maven (offline under pulumi), the tarball plugin, no Node.js", () => oneProgram("java"));
  });

  describe(`${TYPESCRIPT}: the dynamic resources' programs`, () => {
    const blocks = _docBlocks(TYPESCRIPT);

    it("the Token program: a Token from the stack's password login, its access token and the account's limits as outputs", async () => {
      const a: Account = "token";
      const p = await programs.project(_oneBlock(blocks, "ts", 'import { Token, getAccessToken, getClient } from "pulumi-dns-account";'), "typescript-token");
      const d = dashboard(a);
      assert.equal(emu.liveRefreshTokens(username(a)), 0, "no refresh token of the account before up");
      const before = await inventory(a);
      await life(
        p,
        { "dns-account:baseUrl": emu.url, "dns-account:username": username(a), "dns-account:password": { secret: PASSWORD } },
        2,
        async () => {
          const out = await outputs(p);
          assert.deepEqual(Object.keys(out.masked).sort(), ["accessToken", "limits"]);
          assert.equal(out.masked.accessToken, "[secret]", "accessToken is a secret output");
          const accessToken = String(out.shown.accessToken);
          // The access token is the account's: the service answers with it.
          const res = await fetch(`${emu.url}/oapi/v1/account/limits`, { headers: { authorization: `Bearer ${accessToken}` } });
          assert.equal(res.status, 200, "the service takes the Token's access token");
          await res.arrayBuffer();
          const limits = out.shown.limits as Record<string, { limit: number; used: number }>;
          const actual = await d.account.limits();
          for (const k of ["devices", "dns_servers", "dedicated_ipv4", "user_rules"] as const) {
            assert.deepEqual(limits[k], actual[k], `limits.${k} is the account's`);
          }
          assert.ok(emu.liveRefreshTokens(username(a)) >= 1, "the Token holds a refresh token");
          return [accessToken];
        },
        async () => {
          assert.equal(emu.liveRefreshTokens(username(a)), 0, "destroy revoked the Token's refresh token");
          assert.deepEqual(await inventory(a), before, "the account is as it was");
        },
        [PASSWORD, apiKey(a)],
      );
    });

    it("the account as code: a server with rules, a blocked service and a TTL, a router on it with a dedicated address", async () => {
      const a: Account = "account";
      const p = await programs.project(_oneBlock(blocks, "ts", 'import { DedicatedIpv4, Device, DnsServer } from "pulumi-dns-account";'), "typescript-account");
      const d = dashboard(a);
      const before = await inventory(a);
      let address = "";
      let serverId = "";
      let routerId = "";
      await life(
        p,
        { "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: apiKey(a) } },
        4,
        async () => {
          const home = (await d.dnsServers.list()).filter((s) => s.name === "Home");
          assert.equal(home.length, 1, "up made the DNS server Home");
          serverId = home[0]!.id;
          const server = await d.dnsServers.get(serverId);
          assert.deepEqual(server.settings.user_rules_settings?.rules, ["||ads.example^"]);
          assert.equal(server.settings.block_ttl_seconds, 60);
          assert.deepEqual(
            server.settings.parental_control_settings.blocked_services.filter((x) => x.enabled).map((x) => x.id),
            ["tiktok"],
            "tiktok is blocked",
          );
          const routers = (await d.devices.list()).filter((x) => x.name === "Router");
          assert.equal(routers.length, 1, "up made the device Router");
          routerId = routers[0]!.id;
          const router = await d.devices.get(routerId);
          assert.equal(router.device_type, "ROUTER");
          assert.equal(router.dns_server_id, serverId, "the router is on Home");
          const addresses = await d.dedicatedIpv4.list();
          assert.equal(addresses.length, before.addresses.length + 1, "up allocated one dedicated address");
          const linked = addresses.filter((x) => x.device_id === routerId);
          assert.equal(linked.length, 1, "the address is linked to the router");
          address = linked[0]!.ip;
          assert.deepEqual((await outputs(p)).masked, {}, "the program exports nothing");
          return [];
        },
        async () => {
          await assert.rejects(d.devices.get(routerId), (e: { status?: number }) => e.status === 404);
          await assert.rejects(d.dnsServers.get(serverId), (e: { status?: number }) => e.status === 404);
          const after = await inventory(a);
          assert.deepEqual({ ...after, addresses: [] }, { ...before, addresses: [] }, "destroy deleted Home and Router");
          assert.deepEqual(after.addresses, [...before.addresses, `${address}:`].sort(), "the address stays allocated to the account, unlinked (never released)");
        },
        [apiKey(a)],
      );
    });
  });

  describe("README.md's Pulumi YAML example", () => {
    it("README.md's example: a server and a device, on the stack's API key", async () => {
      const a: Account = "readme";
      const b = _oneBlock(_docBlocks("README.md", "An example"), "yaml");
      const p = await programs.project(b, "readme-yaml");
      const d = dashboard(a);
      const before = await inventory(a);
      let serverId = "";
      let deviceId = "";
      await life(
        p,
        { "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: apiKey(a) } },
        3,
        async () => {
          const home = (await d.dnsServers.list()).filter((s) => s.name === "Home");
          assert.equal(home.length, 1, "up made the DNS server Home");
          serverId = home[0]!.id;
          const server = await d.dnsServers.get(serverId);
          assert.equal(server.settings.block_ttl_seconds, 60);
          assert.deepEqual(server.settings.user_rules_settings?.rules, ["||ads.example^"]);
          const laptops = (await d.devices.list()).filter((x) => x.name === "Laptop");
          assert.equal(laptops.length, 1, "up made the device Laptop");
          deviceId = laptops[0]!.id;
          const laptop = await d.devices.get(deviceId);
          assert.equal(laptop.device_type, "MAC");
          assert.equal(laptop.dns_server_id, serverId, "the laptop is on Home");
          assert.deepEqual((await outputs(p)).masked, {}, "the program exports nothing");
          return [];
        },
        async () => {
          assert.deepEqual(await inventory(a), before, "destroy leaves the account as it was");
        },
        [apiKey(a)],
      );
    });
  });
});
