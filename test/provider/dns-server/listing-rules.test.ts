import assert from "node:assert/strict";
import { type AccountHost, _accountHost, OPS } from "../../support/account-host";
import { startPlugin } from "../../support/engine/plugin-host";
import { _installedProgram } from "../../support/program";

const RULES = ["||ads.listing.test^", "@@||good.listing.test^", "! kept in order"];

/**
 * The service lists DNS servers with their user rules empty (issue 22 §5), and the emulator does so by
 * default: adoption, refresh, drift and import must read a server by itself, or rules are lost.
 */
describe("DnsServer against listings without user rules (the service's behaviour)", function () {
  this.timeout(120_000);
  let t: AccountHost;
  let p: string;
  let def: string;
  const log: string[] = [];
  const settingsWrites = () => log.filter((l) => /^PUT \/oapi\/v1\/dns_servers\/[^/ ]+\/settings /.test(l));

  before(async () => {
    t = await _accountHost({ log: (line) => log.push(line) });
    p = t.providers.DnsServer;
    def = (await t.dashboard.dnsServers.list()).find((s) => s.default)!.id;
    await t.dashboard.dnsServers.updateSettings(def, { user_rules_settings: { enabled: true, rules: RULES } });
    assert.deepEqual((await t.dashboard.dnsServers.list()).find((s) => s.id === def)!.settings.user_rules_settings.rules, [], "the emulator lists rules empty");
  });

  after(async () => {
    await t?.close();
  });

  it('adopt "default" without settings: the state holds the server\'s rules', async () => {
    const res = await t.host.create(t.urn("DnsServer", "bare"), { __provider: p, adopt: "default" });
    assert.equal(res.id, def);
    assert.deepEqual((res.properties.effectiveSettings as { userRules: { rules: string[] } }).userRules.rules, RULES);
  });

  it('adopt "default" declaring the rules it has: nothing is written, and the state and diff agree', async () => {
    log.length = 0;
    const inputs = { __provider: p, adopt: "default", settings: { userRules: { enabled: true, rules: RULES } } };
    const res = await t.host.create(t.urn("DnsServer", "declared"), inputs);
    assert.deepEqual(settingsWrites(), [], "no settings update for rules the server already has");
    assert.deepEqual((res.properties.settings as { userRules: unknown }).userRules, { enabled: true, rules: RULES });
    assert.equal((await t.host.diff(res.id, t.urn("DnsServer", "declared"), res.properties, inputs)).changes, "none");

    // Refresh, then drift: a rule added in the dashboard shows, and nothing else does.
    await t.dashboard.dnsServers.updateSettings(def, { user_rules_settings: { rules: [...RULES, "||new.listing.test^"] } });
    const read = await t.host.read(res.id, t.urn("DnsServer", "declared"), res.properties);
    assert.deepEqual((read.properties.settings as { userRules: { rules: string[] } }).userRules.rules, [...RULES, "||new.listing.test^"]);
    assert.equal((await t.host.diff(res.id, t.urn("DnsServer", "declared"), read.properties, inputs)).changes, "some");
    await t.dashboard.dnsServers.updateSettings(def, { user_rules_settings: { rules: RULES } });
  });

  it("an import through the plugin (Read without state) declares the server's rules", async () => {
    const plugin = await startPlugin({ programDir: await _installedProgram() });
    try {
      await plugin.configureArgs({ baseUrl: t.emu.url, apiKey: t.emu.addApiKey(OPS) }, ["apiKey"]);
      const read = await plugin.read(def, "urn:pulumi:dev::home::dns-account:index:DnsServer::imported", {});
      assert.deepEqual((read.inputs as { settings: { userRules: { rules: string[] } } }).settings.userRules.rules, RULES);
    } finally {
      await plugin.stop();
    }
    assert.deepEqual((await t.dashboard.dnsServers.get(def)).settings.user_rules_settings.rules, RULES, "and the account still has them");
  });
});
