import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { terraformSchema, type TfBlock } from "../../provider/tofu/schema";
import { _cli } from "../cli/_cli";
import { _EVERY_SETTINGS } from "../support/every-settings";
import { _tofuSuite } from "../support/tofu-project";

const API_KEY = "key-TOFU-EXPORT-HCL-8c2f41d3";

type Json = Record<string, any>;

/**
 * Every managed DNS server setting, other than a new server's (test/support/every-settings), with user rules
 * that HCL would read as template syntax or escapes if written naively; without filtering categories.
 */
const EVERY: Json = (() => {
  const every = structuredClone(_EVERY_SETTINGS) as Json;
  every.user_rules_settings.rules.push("||${x}.example^", "||%{ y }.example^", '"quoted"\\');
  delete every.parental_control_settings.blocked_filtering_categories;
  return every;
})();

/**
 * Names a service may hold that would break, inject into or reorder a configuration written naively,
 * collide once made identifiers, start with a digit, or be words HCL gives a meaning.
 */
const SERVER_NAMES = ["Kids' room", "${file(\"/etc/passwd\")}", "%{ if true }x%{ endif }", 'say "hi"\\', "line\nbreak", "bidi \u202Eevil\u202C", "C1 \u0085\u009b", "Home", "home", "HOME!", "2nd floor"];
const DEVICE_NAMES = ["Phone", "Phone", "phone 2", "phone_2", "$${already}", "}\nresource \"x\" \"y\" {", "null", "count", "9", "tab\there", "zero\u200Bwidth \u2028"];

/**
 * Issue 35 §1 under the real tofu against the emulator: `dns-account export --format hcl` of an account
 * with servers with every setting, devices, a linked and an unlinked dedicated address and hostile
 * names. tofu fmt leaves it as it is; tofu plan shows only the imports; tofu apply imports them, writes
 * nothing to the account, and the state holds every name exactly; the next plan has no changes.
 */
describe("tofu: dns-account export --format hcl, imported under the real tofu", function () {
  this.timeout(900_000);
  const suite = _tofuSuite({
    prefix: "dns-account-tofu-export-",
    emulator: { limits: { dedicated_ipv4: 3, dns_servers: 20, devices: 30 } },
    dashboard: { username: "user@example.com", apiKey: API_KEY },
    env: (emu) => ({ DNS_ACCOUNT_API_KEY: API_KEY, DNS_ACCOUNT_BASE_URL: emu.url }),
    secrets: () => [API_KEY],
  });
  let total = 0;

  /** The account as the service reports it, servers read one by one (a listing has no user rules). */
  const snapshot = async (): Promise<Json> => {
    const dashboard = suite.dashboard;
    const servers = await Promise.all((await dashboard.dnsServers.list()).map((s) => dashboard.dnsServers.get(s.id)));
    return {
      servers: servers.map((s) => ({ id: s.id, name: s.name, settings: s.settings })).sort((a, b) => a.id.localeCompare(b.id)),
      devices: (await dashboard.devices.list()).map((d) => ({ id: d.id, name: d.name, type: d.device_type, server: d.dns_server_id, settings: d.settings })).sort((a, b) => a.id.localeCompare(b.id)),
      addresses: (await dashboard.dedicatedIpv4.list()).sort((a, b) => a.ip.localeCompare(b.ip)),
    };
  };

  before(async () => {
    const dashboard = suite.dashboard;
    const [def] = await dashboard.dnsServers.list();
    await dashboard.dnsServers.updateSettings(def!.id, { user_rules_settings: { rules: ["||default.example^"] } });
    const servers = [def!.id];
    for (const [i, name] of SERVER_NAMES.entries()) {
      const s = await dashboard.dnsServers.create({ name });
      await dashboard.dnsServers.updateSettings(s.id, (i === 0 ? EVERY : { user_rules_settings: { rules: [`||server${i}.example^`, name] } }) as never);
      servers.push(s.id);
    }
    const devices: string[] = [];
    for (const [i, name] of DEVICE_NAMES.entries()) {
      const d = await dashboard.devices.create({ name, device_type: i % 2 ? "IOS" : "ROUTER", dns_server_id: servers[i % servers.length]! });
      if (i % 3 === 0) await dashboard.devices.updateSettings(d.id, { protection_enabled: false, detect_doh_auth_only: true });
      devices.push(d.id);
    }
    const linked = await dashboard.dedicatedIpv4.allocate();
    await dashboard.devices.linkDedicatedIpv4(devices[1]!, linked.ip);
    await dashboard.dedicatedIpv4.allocate();
    total = servers.length + devices.length + 2;
  });

  let exported = "";
  let seeded: Json;

  it("exports the account as HCL that tofu fmt leaves as it is and tofu validate accepts", async () => {
    const r = await _cli(["export", "--format", "hcl"], { DNS_ACCOUNT_API_KEY: API_KEY, DNS_ACCOUNT_BASE_URL: suite.emu.url });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "");
    exported = suite.record(r.stdout);
    assert.doesNotMatch(exported, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/u, "no raw control, bidi or format character (Trojan Source)");
    assert.ok(exported.includes('"bidi \\u202Eevil\\u202C"') && exported.includes('"$${file(\\"/etc/passwd\\")}"'), "names are escaped, not dropped");
    assert.equal(exported.match(/^import \{$/gm)?.length, total, "an import block for each object");
    assert.equal(exported.match(/^resource "dnsaccount_\w+" "\w+" \{/gm)?.length, total, "a resource block for each object");
    // The file as it is, its own terraform block included (project.write would add a second one).
    // Every setting the schema's settings block takes is written for the server that has them all
    // (blocked_categories is write-only at the service: never exported).
    const kids = /^resource "dnsaccount_dns_server" "kids_room" \{\n([\s\S]*?)^\}$/m.exec(exported)?.[1] ?? "";
    const written = new Set([...kids.matchAll(/^ *([a-z_0-9]+)(?: += | \{)/gm)].map((m) => m[1]!));
    const settable = (block: TfBlock): string[] => [...block.attributes.filter((a) => a.optional || a.required).map((a) => a.name), ...block.block_types.flatMap((b) => [b.type_name, ...settable(b.block)])];
    const settings = terraformSchema().resources.dnsaccount_dns_server!.block.block_types.find((b) => b.type_name === "settings")!.block;
    const missing = settable(settings).filter((n) => !written.has(n) && n !== "blocked_categories" && !["tuesday", "wednesday", "thursday", "friday", "sunday"].includes(n));
    assert.deepEqual(missing, [], "settings the export left out");
    writeFileSync(path.join(suite.project.dir, "main.tf"), exported);
    const fmt = await suite.run(["fmt", "-check", "-diff"]);
    assert.equal(fmt.code, 0, `tofu fmt would change it:\n${fmt.out}`);
    await suite.ok("validate");
  });

  it(`tofu plan: only imports ("N to import, 0 to add, 0 to change, 0 to destroy")`, async () => {
    seeded = await snapshot();
    const { code, out } = await suite.plan();
    assert.equal(code, 2, out);
    assert.match(out, new RegExp(`Plan: ${total} to import, 0 to add, 0 to change, 0 to destroy\\.`), out);
    assert.doesNotMatch(out, /will be updated in-place|must be replaced|will be created/, out);
  });

  it("tofu apply imports them all and writes nothing to the account; the state holds every name as the service has it; the next plan has no changes", async () => {
    const applied = await suite.ok("apply", "-auto-approve");
    assert.match(applied, new RegExp(`Resources: ${total} imported, 0 added, 0 changed, 0 destroyed`), applied);
    assert.deepEqual(await snapshot(), seeded, "importing changed nothing in the account");

    const state = suite.project.resources();
    assert.equal(state.size, total);
    const names = (type: string) => [...state.entries()].filter(([k]) => k.startsWith(`${type}.`)).map(([, v]) => String(v.name)).sort();
    assert.deepEqual(names("dnsaccount_dns_server"), seeded.servers.map((s: Json) => s.name).sort(), "server names read back through tofu's HCL exactly");
    assert.deepEqual(names("dnsaccount_device"), seeded.devices.map((d: Json) => d.name).sort(), "device names read back exactly");
    // A single block is an object in the state (a list of one in older formats).
    const one = (x: unknown): Json | undefined => (Array.isArray(x) ? (x[0] as Json | undefined) : ((x ?? undefined) as Json | undefined));
    const rules = [...state.values()].flatMap((v) => (one(one(v.settings)?.user_rules)?.rules as string[] | undefined) ?? []);
    for (const rule of EVERY.user_rules_settings.rules as string[]) assert.ok(rules.includes(rule), `rule ${JSON.stringify(rule)} as it is`);
    // References: the device's server and the address's device are the exported resources' ids.
    for (const d of seeded.devices as Json[]) {
      const [, attrs] = [...state.entries()].find(([k, v]) => k.startsWith("dnsaccount_device.") && v.device_id === d.id)!;
      assert.equal(attrs.dns_server_id, d.server);
    }
    assert.match(exported, /device_id = dnsaccount_device\.\w+\.id/);
    assert.match(exported, /dns_server_id = dnsaccount_dns_server\.\w+\.id/);

    const after = await suite.plan();
    assert.equal(after.code, 0, after.out);
    assert.match(after.out, /No changes\./);
  });
});
