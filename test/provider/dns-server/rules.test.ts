import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { rulesFromFile } from "../../../provider";
import { type AccountHost, _accountHost } from "../../support/account-host";
import { _useTempDirs } from "../../support/temp";

/**
 * Check catches what it can before any call, and errors speak the program's names (issue 18 §2):
 * user rules through AdGuard's own parser, IP addresses, the service's field names translated.
 */
describe("DnsServer: rules, addresses and errors in the program's terms (through the provider host)", function () {
  const tmp = _useTempDirs();
  this.timeout(120_000);
  let t: AccountHost;
  before(async () => {
    t = await _accountHost({ limits: { user_rules: 3 } });
  });
  after(async () => {
    await t?.close();
  });
  const check = (settings: Record<string, unknown>) => t.host.check(t.urn("DnsServer", "r"), {}, { __provider: t.providers.DnsServer, name: "Rules", settings });

  it("valid rules pass; a rule AdGuard's parser rejects fails, named by its index, with the parser's reason", async () => {
    const valid = ["||ads.example^", "@@||good.example^$important", "/banner\\d+/", "! a comment", "||tracker.example^$dnstype=AAAA", "127.0.0.1 local.example"];
    assert.deepEqual((await check({ userRules: { rules: valid } })).failures, []);
    const r = await check({ userRules: { rules: [...valid, "||a.example^$domain="] } });
    assert.deepEqual(r.failures.map((f) => f.property), ["settings.userRules.rules[6]"]);
    assert.match(r.failures[0]!.reason, /^settings\.userRules\.rules\[6\] is not a valid AdGuard rule: .*empty/i);
  });

  it("the custom blocking answers must be addresses of their family", async () => {
    const r = await check({ blockingMode: { mode: "CUSTOM_IP", ipv4: "not-an-ip", ipv6: "192.0.2.1" } });
    assert.deepEqual(r.failures.map((f) => f.property).sort(), ["settings.blockingMode.ipv4", "settings.blockingMode.ipv6"]);
    assert.deepEqual((await check({ blockingMode: { mode: "CUSTOM_IP", ipv4: "192.0.2.1", ipv6: "2001:db8::1" } })).failures, []);
  });

  it("an adopted DedicatedIpv4 is named by an IPv4 address", async () => {
    const r = await t.host.check(t.urn("DedicatedIpv4", "a"), {}, { __provider: t.providers.DedicatedIpv4, adopt: "my-address" });
    assert.deepEqual(r.failures.map((f) => f.property), ["adopt"]);
  });

  it("the service's complaint names the program's field (settings.userRules.rules), once", async () => {
    const err = await t.host.create(t.urn("DnsServer", "many"), { __provider: t.providers.DnsServer, name: "Many", settings: { userRules: { rules: ["||a^", "||b^", "||c^", "||d^"] } } }).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(err, "the quota of user rules is exceeded");
    assert.match(err.message, /settings\.userRules\.rules \(FIELD_REACHED_LIMIT\)/);
    assert.doesNotMatch(err.message, /user_rules_settings/);
    assert.equal(err.message.split("settings.userRules.rules").length - 1, 1, "said once");
  });

  it("rulesFromFile reads one rule a line, skipping comments and blank lines", () => {
    const dir = tmp("dns-account-rules-");
    const file = path.join(dir, "rules.txt");
    writeFileSync(file, "! my rules\r\n||ads.example^  \r\n\n# hosts-style comment\n@@||ok.example^\nexample.org##.banner\n   \n");
    assert.deepEqual(rulesFromFile(file), ["||ads.example^", "@@||ok.example^", "example.org##.banner"]);
  });
});
