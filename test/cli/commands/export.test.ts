import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { UNMANAGED } from "../../../provider/export";
import { type AccountHost, _accountHost, OPS } from "../../support/account-host";
import { startPlugin } from "../../support/engine/plugin-host";
import { _EVERY_SETTINGS } from "../../support/every-settings";
import { _referenceFacts } from "../../support/helpers";
import { _installedProgram, _runInProgram } from "../../support/program";
import { _cli as cli } from "../_cli";

type Json = Record<string, any>;
type Entry = { type: string; name: string; logicalName: string; id: string };

/** Every managed DNS server setting, each other than a new server's (test/support/every-settings). */
const EVERY: Json = _EVERY_SETTINGS;

/** What the export must declare for {@link EVERY}, written out by hand. */
const EVERY_DECLARED = {
  protectionEnabled: false,
  ipLogEnabled: false,
  blockTtlSeconds: 42,
  blockPrivateRelay: true,
  blockFirefoxCanary: false,
  blockChromePrefetch: true,
  autoConnectDevicesEnabled: true,
  blockingMode: { mode: "CUSTOM_IP", ipv4: "192.0.2.7", ipv6: "2001:db8::7" },
  userRules: { enabled: false, rules: ["||games.example^", "@@||school.example^", "! homework first"] },
  filterLists: { enabled: false, ids: ["emulator_security"] },
  blockedServices: ["tiktok", "roblox"],
  parentalControl: { enabled: true, blockAdultWebsites: true, safeSearch: true, youtubeSafeSearch: true, schedule: { monday: { from: "07:30", to: "21:00" }, saturday: { from: "09:05", to: "22:45" } } },
  safeBrowsing: { enabled: false, blockDangerousDomains: false, blockNewlyRegisteredDomains: true, typosquatting: true, homoglyph: true, blockingMode: { mode: "CUSTOM_IP", ipv4: "192.0.2.8", ipv6: "2001:db8::8" } },
  access: { enabled: true, allowedClients: ["192.0.2.0/24"], blockedClients: ["198.51.100.1"], blockedDomainRules: ["blocked.example"], blockKnownScanners: false },
};

/** Servers and devices whose names collide once made into identifiers, or would shadow an import or a keyword. */
const SERVER_NAMES = ["Home", "Home server", "homeserver", "DnsServer", "Device"];
const DEVICE_NAMES = ["Phone", "Phone", "Phone 2", "phone2", "_", "Device", "DnsServer", "import", "__proto__", "2nd floor", ".Router--main!", "Ünïcode ☃"];

/**
 * The account's settings as a program declares them, by the test's own reading of the service's model
 * (not the provider's): every managed field, so a field an export drops shows as a difference.
 */
function declaredFromService(s: Json): Json {
  const enabledIds = (list: Json[] | undefined, key: string) => (list ?? []).filter((e) => e.enabled).map((e) => e[key]);
  const mode = (b: Json) => ({ mode: b.blocking_mode, ...(b.ipv4_blocking_address !== undefined ? { ipv4: b.ipv4_blocking_address } : {}), ...(b.ipv6_blocking_address !== undefined ? { ipv6: b.ipv6_blocking_address } : {}) });
  const hhmm = (t: Json) => `${String(t.hours).padStart(2, "0")}:${String(t.minutes).padStart(2, "0")}`;
  const pc = s.parental_control_settings;
  const sb = s.safebrowsing_settings;
  const ac = s.access_settings;
  return {
    protectionEnabled: s.protection_enabled,
    ipLogEnabled: s.ip_log_enabled,
    blockTtlSeconds: s.block_ttl_seconds,
    blockPrivateRelay: s.block_private_relay,
    blockFirefoxCanary: s.block_firefox_canary,
    blockChromePrefetch: s.block_chrome_prefetch,
    autoConnectDevicesEnabled: s.auto_connect_devices_enabled,
    blockingMode: mode(s.blocking_mode_settings),
    userRules: { enabled: s.user_rules_settings.enabled, rules: s.user_rules_settings.rules },
    filterLists: { enabled: s.filter_lists_settings.enabled, ids: enabledIds(s.filter_lists_settings.filter_list, "filter_id") },
    blockedServices: enabledIds(pc.blocked_services, "id"),
    parentalControl: {
      enabled: pc.enabled,
      blockAdultWebsites: pc.block_adult_websites_enabled,
      safeSearch: pc.engines_safe_search_enabled,
      youtubeSafeSearch: pc.youtube_safe_search_enabled,
      schedule: Object.fromEntries(pc.screen_time_schedule.daily_schedule.filter((d: Json) => d.enabled).map((d: Json) => [d.day_of_week.toLowerCase(), { from: hhmm(d.from_time), to: hhmm(d.to_time) }])),
    },
    safeBrowsing: {
      enabled: sb.enabled,
      blockDangerousDomains: sb.block_dangerous_domains,
      blockNewlyRegisteredDomains: sb.block_nrd,
      typosquatting: sb.typosquatting_protection_enabled,
      homoglyph: sb.homoglyph_protection_enabled,
      blockingMode: mode(sb.blocking_mode_settings),
    },
    access: { enabled: ac.enabled, allowedClients: ac.allowed_clients, blockedClients: ac.blocked_clients, blockedDomainRules: ac.blocked_domain_rules, blockKnownScanners: ac.block_known_scanners },
  };
}

/** The account, every server read by itself (a listing carries no user rules): servers, devices, addresses. */
async function snapshot(t: AccountHost): Promise<Json> {
  const servers = await Promise.all((await t.dashboard.dnsServers.list()).map((s) => t.dashboard.dnsServers.get(s.id)));
  const devices = await t.dashboard.devices.list();
  return {
    servers: servers.map((s) => ({ id: s.id, name: s.name, settings: s.settings })).sort((a, b) => a.id.localeCompare(b.id)),
    devices: await Promise.all(
      devices
        .sort((a, b) => a.id.localeCompare(b.id))
        .map(async (d) => ({ id: d.id, name: d.name, type: d.device_type, server: d.dns_server_id, settings: d.settings, ipv4: (await t.dashboard.devices.dedicatedAddresses(d.id)).ipv4 })),
    ),
    addresses: await t.dashboard.dedicatedIpv4.list(),
  };
}

/** Field by field: each resource's declared inputs against the account as the service reports it. */
function assertDescribesAccount(account: Json, declared: { type: string; id: string; inputs: Json }[]): void {
  for (const s of account.servers) {
    const d = declared.find((x) => x.type === "DnsServer" && x.id === s.id);
    assert.ok(d, `server ${s.id} is exported`);
    assert.equal(d.inputs.name, s.name);
    const want = declaredFromService(s.settings);
    for (const key of new Set([...Object.keys(want), ...Object.keys(d.inputs.settings)])) {
      assert.deepEqual(d.inputs.settings[key], want[key], `server ${s.name}: settings.${key}`);
    }
  }
  for (const v of account.devices) {
    const d = declared.find((x) => x.type === "Device" && x.id === v.id);
    assert.ok(d, `device ${v.id} is exported`);
    assert.deepEqual(
      { name: d.inputs.name, deviceType: d.inputs.deviceType, dnsServerId: d.inputs.dnsServerId, settings: d.inputs.settings },
      { name: v.name, deviceType: v.type, dnsServerId: v.server, settings: { protectionEnabled: v.settings.protection_enabled, detectDohAuthOnly: v.settings.detect_doh_auth_only } },
      `device ${v.name}`,
    );
  }
  for (const a of account.addresses) {
    const d = declared.find((x) => x.type === "DedicatedIpv4" && x.id === a.ip);
    assert.ok(d, `address ${a.ip} is exported`);
    assert.equal(d.inputs.deviceId, a.device_id ?? undefined, `address ${a.ip}`);
  }
  assert.equal(declared.length, account.servers.length + account.devices.length + account.addresses.length);
}

/** Paths of every settable leaf of a schema of the reference (`a.b`, `list[].c`). */
function settableLeaves(schemas: Json, name: string, prefix = ""): string[] {
  const schema = schemas[name];
  const out: string[] = [];
  for (const [key, raw] of Object.entries(schema.properties ?? {}) as [string, Json][]) {
    const spec = raw.$ref ? schemas[raw.$ref.split("/").pop()] : raw;
    const here = `${prefix}${key}`;
    if (raw.readOnly) continue;
    if (raw.$ref && spec.properties) out.push(...settableLeaves(schemas, raw.$ref.split("/").pop(), `${here}.`));
    else if (spec.type === "array" && spec.items?.$ref && schemas[spec.items.$ref.split("/").pop()].properties) {
      out.push(...settableLeaves(schemas, spec.items.$ref.split("/").pop(), `${here}[].`));
    } else out.push(here);
  }
  return out;
}

/** Whether `value` holds something at `leaf` (through lists). */
function holds(value: unknown, leaf: string): boolean {
  const [head, ...rest] = leaf.split(".");
  const list = head!.endsWith("[]");
  const key = list ? head!.slice(0, -2) : head!;
  const v = (value as Json | undefined)?.[key];
  if (v === undefined) return false;
  if (rest.length === 0) return true;
  return list ? (v as unknown[]).some((item) => holds(item, rest.join("."))) : holds(v, rest.join("."));
}

const KEYWORDS = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await as async from of get set type declare namespace module any unknown never undefined".split(" "),
);

/** `dns-account export`: from dashboard to code (issues 17 and 22). */
describe("dns-account export", function () {
  this.timeout(240_000);
  let t: AccountHost;
  let env: NodeJS.ProcessEnv;
  let apiKey: string;
  let kids: string;
  const log: string[] = [];

  before(async () => {
    // The emulator as the service behaves: DNS server listings carry no user rules.
    t = await _accountHost({ limits: { dedicated_ipv4: 3, dns_servers: 10, devices: 20 }, log: (line) => log.push(line) });
    apiKey = t.emu.addApiKey(OPS, "key-EXPORT-3b9d1e55");
    env = { DNS_ACCOUNT_BASE_URL: t.emu.url, DNS_ACCOUNT_API_KEY: apiKey };
    const [def] = await t.dashboard.dnsServers.list();
    await t.dashboard.dnsServers.updateSettings(def!.id, { user_rules_settings: { rules: ["||default.example^"] } });
    kids = (await t.dashboard.dnsServers.create({ name: "Kids' room" })).id;
    await t.dashboard.dnsServers.updateSettings(kids, EVERY as never);
    const servers = [def!.id, kids];
    for (const [i, name] of SERVER_NAMES.entries()) {
      const s = await t.dashboard.dnsServers.create({ name });
      await t.dashboard.dnsServers.updateSettings(s.id, { user_rules_settings: { rules: [`||server${i}.example^`] } });
      servers.push(s.id);
    }
    const devices: string[] = [];
    for (const [i, name] of DEVICE_NAMES.entries()) {
      const d = await t.dashboard.devices.create({ name, device_type: i % 2 ? "IOS" : "ROUTER", dns_server_id: servers[i % servers.length]! });
      if (i % 3 === 0) await t.dashboard.devices.updateSettings(d.id, { protection_enabled: false, detect_doh_auth_only: true });
      devices.push(d.id);
    }
    const linked = await t.dashboard.dedicatedIpv4.allocate();
    await t.dashboard.devices.linkDedicatedIpv4(devices[0]!, linked.ip);
    await t.dashboard.dedicatedIpv4.allocate();
  });

  after(async () => {
    await t?.close();
  });

  it("every settable property of 1.15's DNS servers, devices and addresses is set by this test, or listed as unmanaged", () => {
    const schemas = (JSON.parse(readFileSync(_referenceFacts("1.15"), "utf8")) as Json).components.schemas as Json;
    // An entry names a field, maybe with words after it ("… of a disabled day"): the field is what counts.
    const unmanaged = (field: string) => UNMANAGED.some((u) => field.startsWith(u.field.split(/[ /]/)[0]!));
    const set: [string, Json, string[]][] = [
      ["dns_servers.settings.", EVERY, settableLeaves(schemas, "DNSServerSettingsUpdate")],
      ["dns_servers.", { name: "Kids' room" }, settableLeaves(schemas, "DNSServerUpdate")],
      ["devices.", { name: "x", device_type: "IOS", dns_server_id: "x" }, settableLeaves(schemas, "DeviceUpdate")],
      ["devices.settings.", { protection_enabled: false, detect_doh_auth_only: true }, settableLeaves(schemas, "DeviceSettingsUpdate")],
      ["dedicated_addresses.ipv4.", { ip: "linked" }, settableLeaves(schemas, "LinkDedicatedIPv4")],
    ];
    const missing: string[] = [];
    for (const [prefix, value, leaves] of set) {
      assert.ok(leaves.length > 0, prefix);
      for (const leaf of leaves) if (!holds(value, leaf) && !unmanaged(`${prefix}${leaf}`)) missing.push(`${prefix}${leaf}`);
    }
    assert.deepEqual(missing, [], "settable properties neither set by the round trip nor listed in UNMANAGED");
    for (const u of UNMANAGED) assert.ok(u.reason.length > 20, u.field);
  });

  it("prints a bulk-import file: every server, device and address; resource names readable and distinct, variable names identifiers in every language", async () => {
    const r = await cli(["export"], env);
    assert.equal(r.code, 0, r.stderr);
    const { resources } = JSON.parse(r.stdout) as { resources: Entry[] };
    const account = await snapshot(t);
    assert.equal(resources.length, account.servers.length + account.devices.length + account.addresses.length);
    const ids = (type: string) => resources.filter((e) => e.type === `dns-account:index:${type}`).map((e) => e.id).sort();
    assert.deepEqual(ids("DnsServer"), account.servers.map((s: Json) => s.id).sort());
    assert.deepEqual(ids("Device"), account.devices.map((d: Json) => d.id).sort());
    assert.deepEqual(ids("DedicatedIpv4"), account.addresses.map((a: Json) => a.ip).sort());
    for (const e of resources) {
      assert.match(e.logicalName, /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, e.logicalName);
      assert.match(e.name, /^[A-Za-z_][A-Za-z0-9_]*$/, e.name);
      assert.ok(/[A-Z]/.test(e.name) && !KEYWORDS.has(e.name), e.name);
    }
    assert.equal(new Set(resources.map((e) => e.logicalName)).size, resources.length, "resource names are distinct");
    assert.equal(new Set(resources.map((e) => e.name.toLowerCase())).size, resources.length, "variable names are distinct, whatever a language does to case");
    const names = resources.map((e) => e.logicalName);
    for (const n of ["kids-room", "phone", "phone-2", "router-main", "home", "home-server"]) assert.ok(names.includes(n), n);
    assert.equal(r.stderr, "");
    assert.ok(!r.stdout.includes(apiKey));
  });

  it("the import file read back by the plugin: inputs equal the account's settings field by field, check passes, and diff is clean", async () => {
    const { resources } = JSON.parse((await cli(["export"], env)).stdout) as { resources: Entry[] };
    const plugin = await startPlugin({ programDir: await _installedProgram() });
    const declared: { type: string; id: string; inputs: Json }[] = [];
    try {
      await plugin.configureArgs({ baseUrl: t.emu.url, apiKey }, ["apiKey"]);
      for (const e of resources) {
        const urn = `urn:pulumi:dev::home::${e.type}::${e.logicalName}`;
        const read = await plugin.read(e.id, urn, {});
        assert.equal(read.id, e.id, e.logicalName);
        assert.ok(read.inputs, `${e.logicalName}: inputs`);
        const checked = await plugin.check(urn, {}, read.inputs);
        assert.deepEqual(checked.failures, [], e.logicalName);
        assert.equal((await plugin.diff(e.id, urn, read.properties, checked.inputs)).changes, "none", e.logicalName);
        declared.push({ type: e.type.split(":").pop()!, id: e.id, inputs: read.inputs as Json });
      }
    } finally {
      await plugin.stop();
    }
    assertDescribesAccount(await snapshot(t), declared);
    assert.deepEqual(declared.find((d) => d.id === kids)!.inputs.settings, EVERY_DECLARED, "every managed setting, as set through the API");
  });

  it("--format typescript: a program that compiles (strict, no unused names), with unique identifiers that shadow nothing and no stack outputs; adopting it changes nothing", async () => {
    const r = await cli(["export", "--format", "typescript"], env);
    assert.equal(r.code, 0, r.stderr);
    // Printed line for line: each comment on its own line, one newline at the end (no blank last line).
    assert.deepEqual(r.stdout.split("\n").slice(0, 2).map((l) => l.slice(0, 8)), ["// Made ", "// The n"]);
    assert.ok(r.stdout.endsWith(";\n"), "ends with its last statement and one newline");
    const program = await _installedProgram();
    const dir = path.join(program, "exported");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "index.ts");
    writeFileSync(file, r.stdout);
    // It type-checks against the installed package, under the strictest options a program may use.
    const compiled = ts.createProgram([file], {
      strict: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      noEmit: true,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      skipLibCheck: true,
      types: [],
      target: ts.ScriptTarget.ES2022,
    });
    const diagnostics = ts.getPreEmitDiagnostics(compiled).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    assert.deepEqual(diagnostics, []);

    // Identifiers: unique, never a keyword, a global or an imported name; nothing exported.
    const source = ts.createSourceFile("index.ts", r.stdout, ts.ScriptTarget.ES2022, true);
    const imported: string[] = [];
    const variables: string[] = [];
    for (const st of source.statements) {
      if (ts.isImportDeclaration(st)) st.importClause?.namedBindings?.forEachChild((n) => imported.push((n as ts.ImportSpecifier).name.text));
      if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) variables.push((d.name as ts.Identifier).text);
      assert.ok(!ts.canHaveModifiers(st) || !ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword), "no stack outputs");
    }
    assert.ok(variables.length > 0, "referenced resources are named");
    assert.equal(new Set(variables).size, variables.length, "unique identifiers");
    const globals = new Set(Object.getOwnPropertyNames(globalThis));
    for (const v of variables) {
      assert.ok(!KEYWORDS.has(v) && !globals.has(v) && !imported.includes(v), v);
      assert.match(v, /^[A-Za-z_][A-Za-z0-9_]*$/);
    }

    // Run it under mocks to get each resource's inputs (with its __provider), as the engine would.
    const [def] = (await t.dashboard.dnsServers.list()).filter((s) => s.default);
    const js = ts.transpileModule(r.stdout, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
    writeFileSync(path.join(dir, "index.js"), js);
    const { stdout } = await _runInProgram(
      "run-exported",
      `const pulumi = require("@pulumi/pulumi");
const resources = [];
pulumi.runtime.setMocks({
  newResource: (args) => {
    resources.push({ type: args.type, name: args.name, inputs: args.inputs });
    const id = args.inputs.adopt === "default" ? ${JSON.stringify(def!.id)} : args.inputs.adopt;
    return { id, state: { ...args.inputs, serverId: id, deviceId: id, ip: id } };
  },
  call: () => ({}),
}, "home", "dev", false);
require("../exported/index.js");
// Printed once every registration has settled: when the event loop has nothing left to do.
let printed = false;
process.on("beforeExit", () => { if (!printed) { printed = true; console.log(JSON.stringify(resources)); } });`,
    );
    const declared = JSON.parse(stdout.trim().split("\n").pop()!) as { type: string; name: string; inputs: Json }[];
    const before = await snapshot(t);
    assertDescribesAccount(
      before,
      declared.map((d) => {
        const type = d.type.split(":").pop()!;
        return { type, id: d.inputs.adopt === "default" ? def!.id : (d.inputs.adopt as string), inputs: d.inputs };
      }),
    );
    assert.deepEqual(declared.find((d) => d.inputs.adopt === kids)!.inputs.settings, EVERY_DECLARED);
    assert.equal(new Set(declared.map((d) => d.name)).size, declared.length, "resource names are distinct");

    log.length = 0;
    for (const d of declared) {
      const kind = d.type.split(":").pop()!;
      const urn = t.urn(kind, d.name);
      const checked = await t.host.check(urn, {}, d.inputs);
      assert.deepEqual(checked.failures, [], d.name);
      const created = await t.host.create(urn, checked.inputs);
      assert.equal((await t.host.diff(created.id, urn, created.properties, checked.inputs)).changes, "none", d.name);
    }
    assert.deepEqual(log.filter((l) => /^(PUT|POST|DELETE) /.test(l) && !l.includes("/oauth_token ")), [], "adopting wrote nothing");
    assert.deepEqual(await snapshot(t), before, "adopting the exported program changed nothing in the account");
  });

  it("--format other is a usage error (exit 2); --help promises no more than the managed properties", async () => {
    const r = await cli(["export", "--format", "yaml"], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--format must be import, typescript, hcl or seed/);
    const help = (await cli(["export", "--help"], {})).stdout;
    assert.doesNotMatch(help, /every setting/);
    assert.match(help, /every property the resources manage/);
    assert.match(help, /blockedCategories/);
  });
});
