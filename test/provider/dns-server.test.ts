import assert from "node:assert/strict";
import { type AccountHost, _accountHost, OPS_PASSWORD } from "../support/account-host";
import { _assertNoSecrets, _closeAll } from "../support/helpers";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

describe("DnsServer through the dynamic-provider host (installed copy)", function () {
  this.timeout(120_000);
  let t: AccountHost;
  let p: string;
  let urn: string;

  before(async () => {
    t = await _accountHost({ limits: { dns_servers: 4 } });
    p = t.providers.DnsServer;
    urn = t.urn("DnsServer", "home");
  });

  after(async () => {
    await _closeAll(() => _assertNoSecrets(t.host.output(), [OPS_PASSWORD, OPS_PASSWORD.toLowerCase()]), () => t?.close());
  });

  it("serializes its provider as a require() of the exported file, at most 1 KB", () => {
    assert.match(p, /require\("pulumi-dns-account\/dist\/provider\/dns-server\/provider\.js"\)/);
    assert.ok(Buffer.byteLength(p) <= 1024);
  });

  describe("Check", () => {
    it("names the property at fault", async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ["name"]],
        [{ name: "" }, ["name"]],
        [{ name: "x", settings: { blockTtlSeconds: 99_999 } }, ["settings.blockTtlSeconds"]],
        [{ name: "x", settings: { protectionEnabled: "yes" } }, ["settings.protectionEnabled"]],
        [{ name: "x", settings: { nope: true } }, ["settings.nope"]],
        [{ name: "x", deleteOnDestroy: "no" }, ["deleteOnDestroy"]],
      ];
      for (const [news, properties] of cases) {
        const { failures } = await t.host.check(urn, {}, { __provider: p, ...news });
        assert.deepEqual(failures.map((f) => f.property), properties, JSON.stringify(news));
      }
    });

    it("rejects ids the service does not know, naming the id, and an adopted id that does not exist", async () => {
      const { failures } = await t.host.check(urn, {}, {
        __provider: p,
        name: "x",
        settings: { filterLists: { ids: ["adguard_dns_filter", "no_such_list"] }, blockedServices: ["youtube", "myspace"] },
      });
      assert.deepEqual(failures.map((f) => f.property).sort(), ["settings.blockedServices", "settings.filterLists.ids"]);
      assert.match(failures.find((f) => f.property === "settings.filterLists.ids")!.reason, /"no_such_list"/);
      const adopt = await t.host.check(urn, {}, { __provider: p, adopt: "srv-does-not-exist" });
      assert.deepEqual(adopt.failures.map((f) => f.property), ["adopt"]);
      const digits = await t.host.check(urn, {}, { __provider: p, adopt: 12345678 });
      assert.deepEqual(digits.failures.map((f) => f.property), ["adopt"]);
      assert.match(digits.failures[0]!.reason, /quote an id made only of digits/);
    });

    it("accepts values unknown during preview", async () => {
      const { failures } = await t.host.check(urn, {}, { __provider: p, name: UNKNOWN, settings: { userRules: { rules: [UNKNOWN] }, filterLists: UNKNOWN } });
      assert.deepEqual(failures, []);
    });
  });

  let state: Record<string, unknown>;
  let id: string;
  const declared = {
    protectionEnabled: true,
    blockTtlSeconds: 60,
    userRules: { enabled: true, rules: ["||ads.example^", "@@||ok.example^"] },
    filterLists: { enabled: true, ids: ["adguard_dns_filter", "emulator_security"] },
    blockedServices: ["tiktok"],
    parentalControl: { enabled: true, schedule: { monday: { from: "08:00", to: "20:00" } } },
  };

  describe("lifecycle", () => {
    it("Create: makes the server with the declared settings", async () => {
      const res = await t.host.create(urn, { __provider: p, name: "Home", settings: declared });
      id = res.id;
      state = res.properties;
      assert.equal(state.serverId, id);
      assert.equal(state.name, "Home");
      assert.equal(state.isDefault, false);
      assert.deepEqual(state.settings, declared);
      const live = (await t.dashboard.dnsServers.getSettings(id)) as unknown as Record<string, any>;
      assert.equal(live.block_ttl_seconds, 60);
      assert.deepEqual(live.user_rules_settings.rules, declared.userRules.rules);
      const enabled = live.filter_lists_settings.filter_list.filter((f: any) => f.enabled).map((f: any) => f.filter_id).sort();
      assert.deepEqual(enabled, ["adguard_dns_filter", "emulator_security"]);
      assert.equal((state.effectiveSettings as Record<string, unknown>).ipLogEnabled, live.ip_log_enabled, "effectiveSettings reports undeclared settings too");
    });

    it("Diff: nothing for the same inputs; a rule or the name changes in place, never a replacement", async () => {
      assert.equal((await t.host.diff(id, urn, state, { __provider: p, name: "Home", settings: declared })).changes, "none");
      const moreRules = { ...declared, userRules: { enabled: true, rules: [...declared.userRules.rules, "||new.example^"] } };
      assert.deepEqual(await t.host.diff(id, urn, state, { __provider: p, name: "Home", settings: moreRules }), { changes: "some", replaces: [], deleteBeforeReplace: false });
      assert.deepEqual((await t.host.diff(id, urn, state, { __provider: p, name: "Home 2", settings: declared })).replaces, []);
      assert.equal((await t.host.diff(id, urn, state, { __provider: p, name: UNKNOWN, settings: declared })).changes, "some");
    });

    it("Update: a new rule and a new name in place", async () => {
      const moreRules = { ...declared, userRules: { enabled: true, rules: [...declared.userRules.rules, "||new.example^"] } };
      const { properties } = await t.host.update(id, urn, state, { __provider: p, name: "Home 2", settings: moreRules });
      assert.equal(properties.name, "Home 2");
      assert.equal(properties.serverId, id);
      assert.deepEqual((await t.dashboard.dnsServers.get(id)).name, "Home 2");
      const live = (await t.dashboard.dnsServers.getSettings(id)) as unknown as Record<string, any>;
      assert.deepEqual(live.user_rules_settings.rules, moreRules.userRules.rules);
      state = (await t.host.update(id, urn, properties, { __provider: p, name: "Home", settings: declared })).properties;
    });

    it("Read: a dashboard edit of a managed setting shows as drift; an unmanaged one does not; up puts it back", async () => {
      await t.dashboard.dnsServers.updateSettings(id, { block_ttl_seconds: 3600, ip_log_enabled: false, safebrowsing_settings: { enabled: false } } as never);
      const read = await t.host.read(id, urn, state);
      assert.equal(read.id, id);
      assert.equal((read.properties.settings as Record<string, unknown>).blockTtlSeconds, 3600, "the drift is visible");
      assert.equal((read.properties.effectiveSettings as Record<string, unknown>).ipLogEnabled, false);
      const d = await t.host.diff(id, urn, read.properties, { __provider: p, name: "Home", settings: declared });
      assert.deepEqual({ changes: d.changes, replaces: d.replaces }, { changes: "some", replaces: [] });
      const { properties } = await t.host.update(id, urn, read.properties, { __provider: p, name: "Home", settings: declared });
      const live = (await t.dashboard.dnsServers.getSettings(id)) as unknown as Record<string, any>;
      assert.equal(live.block_ttl_seconds, 60, "the managed setting is put back");
      assert.equal(live.ip_log_enabled, false, "the unmanaged setting is left as the dashboard set it");
      assert.equal(live.safebrowsing_settings.enabled, false);
      assert.equal((await t.host.diff(id, urn, properties, { __provider: p, name: "Home", settings: declared })).changes, "none", "settled");
      state = properties;
    });

    it("Adopt: takes over the default server, applies the declared settings, and leaves it in place on delete", async () => {
      const def = (await t.dashboard.dnsServers.list()).find((s) => s.default)!;
      const res = await t.host.create(t.urn("DnsServer", "default"), { __provider: p, adopt: "default", settings: { blockChromePrefetch: true } });
      assert.equal(res.id, def.id);
      assert.equal(res.properties.isDefault, true);
      assert.equal(((await t.dashboard.dnsServers.getSettings(def.id)) as unknown as Record<string, unknown>).block_chrome_prefetch, true);
      await t.host.delete(res.id, t.urn("DnsServer", "default"), { ...res.properties, deleteOnDestroy: true });
      assert.ok((await t.dashboard.dnsServers.list()).some((s) => s.id === def.id), "the default server is never deleted");
    });

    it("Adopt by id: left in place on delete unless deleteOnDestroy", async () => {
      const made = await t.dashboard.dnsServers.create({ name: "Made in the dashboard" });
      const res = await t.host.create(t.urn("DnsServer", "adopted"), { __provider: p, adopt: made.id, name: "Adopted" });
      assert.equal(res.id, made.id);
      assert.equal((await t.dashboard.dnsServers.get(made.id)).name, "Adopted");
      await t.host.delete(res.id, t.urn("DnsServer", "adopted"), res.properties);
      assert.equal((await t.dashboard.dnsServers.get(made.id)).id, made.id);
      await t.host.delete(res.id, t.urn("DnsServer", "adopted"), { ...res.properties, deleteOnDestroy: true });
      assert.ok(!(await t.dashboard.dnsServers.list()).some((s) => s.id === made.id));
    });

    it("Create over the quota fails naming the quota, and leaves nothing behind", async () => {
      const before = (await t.dashboard.dnsServers.list()).length;
      const made: string[] = [];
      let error: Error | undefined;
      for (let i = 0; i < 6 && !error; i++) {
        try {
          made.push((await t.host.create(t.urn("DnsServer", `q${i}`), { __provider: p, name: `Quota ${i}` })).id);
        } catch (err) {
          error = err as Error;
        }
      }
      assert.ok(error, "the quota was reached");
      assert.match(error.message, /dns_servers: \d+ used of 4/);
      assert.equal((await t.dashboard.dnsServers.list()).length, before + made.length);
      for (const m of made) await t.host.delete(m, t.urn("DnsServer", "q"), { serverId: m, isDefault: false, deleteOnDestroy: false, __provider: p });
    });

    it("Create with a setting the service refuses removes the half-made server and names the field in the program's terms", async () => {
      const before = (await t.dashboard.dnsServers.list()).length;
      const err = await t.host.create(t.urn("DnsServer", "bad"), { __provider: p, name: "Bad", settings: { blockingMode: { mode: "CUSTOM_IP", ipv4: "not-an-ip" } } }).then(
        () => undefined,
        (e: Error) => e,
      );
      assert.ok(err);
      assert.match(err.message, /settings\.blockingMode\.ipv4 \(FIELD_WRONG_VALUE\)/);
      assert.doesNotMatch(err.message, /blocking_mode_settings/);
      assert.equal((await t.dashboard.dnsServers.list()).length, before);
    });

    it("Delete: removes the server; its devices move to the default server; deleted out of band reads as gone", async () => {
      const device = await t.dashboard.devices.create({ name: "Phone", device_type: "ANDROID", dns_server_id: id });
      await t.host.delete(id, urn, state);
      assert.ok(!(await t.dashboard.dnsServers.list()).some((s) => s.id === id));
      const def = (await t.dashboard.dnsServers.list()).find((s) => s.default)!;
      assert.equal((await t.dashboard.devices.get(device.id)).dns_server_id, def.id);
      assert.equal((await t.host.read(id, urn, state)).id, "");
      await t.host.delete(id, urn, state); // already gone is success
    });
  });

  it("thirty resources in one host make one password login", async () => {
    t.emu.resetStats();
    const big = await _accountHost({ limits: { dns_servers: 40 } });
    try {
      big.emu.resetStats();
      const ids = await Promise.all(
        Array.from({ length: 30 }, (_, i) => big.host.create(big.urn("DnsServer", `s${i}`), { __provider: big.providers.DnsServer, name: `S${i}`, settings: { blockTtlSeconds: i } })),
      );
      for (const r of ids) await big.host.read(r.id, big.urn("DnsServer", "s"), r.properties);
      assert.equal(big.emu.stats.passwordGrants, 1);
      assert.equal(big.emu.stats.refreshGrants, 0);
    } finally {
      await big.close();
    }
  });
});
