import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { type AccountHost, _accountHost, OPS } from "../../../support/account-host";
import { startPlugin } from "../../../support/engine/plugin-host";
import { _installedProgram, _runInProgram } from "../../../support/program";
import { _cli as cli } from "../_cli";

type Entry = { type: string; name: string; id: string };

/** The account as the dashboard shows it: servers with settings, devices with settings and addresses. */
async function snapshot(t: AccountHost): Promise<unknown> {
  const servers = await t.dashboard.dnsServers.list();
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

/** `dns-account export`: from dashboard to code (issue 17). */
describe("dns-account export", function () {
  this.timeout(180_000);
  let t: AccountHost;
  let env: NodeJS.ProcessEnv;
  let apiKey: string;

  before(async () => {
    t = await _accountHost({ limits: { dedicated_ipv4: 3 } });
    apiKey = t.emu.addApiKey(OPS, "key-EXPORT-3b9d1e55");
    env = { DNS_ACCOUNT_BASE_URL: t.emu.url, DNS_ACCOUNT_API_KEY: apiKey };
    const [def] = await t.dashboard.dnsServers.list();
    const kids = await t.dashboard.dnsServers.create({ name: "Kids' room" });
    await t.dashboard.dnsServers.updateSettings(kids.id, { block_ttl_seconds: 30, user_rules_settings: { enabled: true, rules: ["||games.example^"] } });
    await t.dashboard.devices.create({ name: "Phone", device_type: "IOS", dns_server_id: def!.id });
    await t.dashboard.devices.create({ name: "Phone", device_type: "ANDROID", dns_server_id: kids.id });
    const router = await t.dashboard.devices.create({ name: ".Router--main!", device_type: "ROUTER", dns_server_id: def!.id });
    const linked = await t.dashboard.dedicatedIpv4.allocate();
    await t.dashboard.devices.linkDedicatedIpv4(router.id, linked.ip);
    await t.dashboard.dedicatedIpv4.allocate();
  });

  after(async () => {
    await t?.close();
  });

  it("prints a bulk-import file: every server, device and address, with valid, distinct, readable names and the service's ids", async () => {
    const r = await cli(["export"], env);
    assert.equal(r.code, 0, r.stderr);
    const { resources } = JSON.parse(r.stdout) as { resources: Entry[] };
    const servers = await t.dashboard.dnsServers.list();
    const devices = await t.dashboard.devices.list();
    const addresses = await t.dashboard.dedicatedIpv4.list();
    assert.equal(resources.length, servers.length + devices.length + addresses.length);
    const ids = (type: string) => resources.filter((e) => e.type === `dns-account:index:${type}`).map((e) => e.id).sort();
    assert.deepEqual(ids("DnsServer"), servers.map((s) => s.id).sort());
    assert.deepEqual(ids("Device"), devices.map((d) => d.id).sort());
    assert.deepEqual(ids("DedicatedIpv4"), addresses.map((a) => a.ip).sort());
    for (const e of resources) assert.match(e.name, /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, e.name);
    assert.equal(new Set(resources.map((e) => e.name)).size, resources.length, "names are distinct");
    const names = resources.map((e) => e.name);
    assert.ok(names.includes("kids-room"));
    assert.ok(names.includes("phone") && names.includes("phone-2"));
    assert.ok(names.includes("router-main"));
    assert.equal(r.stderr, "");
    assert.ok(!r.stdout.includes(apiKey));
  });

  it("every entry is read back by the plugin's Read as an import whose inputs check and diff clean", async () => {
    const { resources } = JSON.parse((await cli(["export"], env)).stdout) as { resources: Entry[] };
    const plugin = await startPlugin({ programDir: await _installedProgram() });
    try {
      await plugin.configureArgs({ baseUrl: t.emu.url, apiKey }, ["apiKey"]);
      for (const e of resources) {
        const urn = `urn:pulumi:dev::home::${e.type}::${e.name}`;
        const read = await plugin.read(e.id, urn, {});
        assert.equal(read.id, e.id, e.name);
        assert.ok(read.inputs, `${e.name}: inputs`);
        const checked = await plugin.check(urn, {}, read.inputs);
        assert.deepEqual(checked.failures, [], e.name);
        assert.equal((await plugin.diff(e.id, urn, read.properties, checked.inputs)).changes, "none", e.name);
      }
    } finally {
      await plugin.stop();
    }
  });

  it("--format typescript prints a program that compiles and adopts everything, and an up through the dynamic host changes nothing", async () => {
    const r = await cli(["export", "--format", "typescript"], env);
    assert.equal(r.code, 0, r.stderr);
    const program = await _installedProgram();
    const dir = path.join(program, "exported");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "index.ts");
    writeFileSync(file, r.stdout);
    // It type-checks against the installed package.
    const compiled = ts.createProgram([file], { strict: true, noEmit: true, module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, skipLibCheck: true, types: [], target: ts.ScriptTarget.ES2022 });
    const diagnostics = ts.getPreEmitDiagnostics(compiled).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    assert.deepEqual(diagnostics, []);

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
    const declared = JSON.parse(stdout.trim().split("\n").pop()!) as { type: string; name: string; inputs: Record<string, unknown> }[];
    assert.equal(declared.length, JSON.parse((await cli(["export"], env)).stdout).resources.length);
    for (const d of declared) assert.ok(d.inputs.adopt, `${d.name} adopts`);

    const before = await snapshot(t);
    for (const d of declared) {
      const kind = d.type.split(":").pop()!;
      const urn = t.urn(kind, d.name);
      const checked = await t.host.check(urn, {}, d.inputs);
      assert.deepEqual(checked.failures, [], d.name);
      const created = await t.host.create(urn, checked.inputs);
      assert.equal((await t.host.diff(created.id, urn, created.properties, checked.inputs)).changes, "none", d.name);
    }
    assert.deepEqual(await snapshot(t), before, "adopting the exported program changed nothing in the account");
  });

  it("--format other is a usage error (exit 2)", async () => {
    const r = await cli(["export", "--format", "yaml"], env);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--format must be import, typescript or seed/);
  });
});
