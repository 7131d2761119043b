import assert from "node:assert/strict";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { startPlugin } from "../support/engine/plugin-host";
import { _isSecret, _reveal, type RecordedRequest } from "../support/engine/rpc-client";
import { _cleanEnv, _closeAll } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _engineMissing, _grpcCalls, type PulumiProject, _failWithout, _stackProject } from "../support/pulumi-cli";
import { _useTempDirs } from "../support/temp";

const API_KEY = "key-HONEST-6d2f91a4";
/** How the engine encodes an unknown value (a preview's not-yet-known output) in a protobuf Struct. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SERVER = { name: "Home", settings: { blockTtlSeconds: 60, userRules: { enabled: true, rules: ["||ads.example^"] } } };
const DEVICE = { name: "Laptop", deviceType: "MAC", settings: { protectionEnabled: true } };
const RESOURCE_METHODS = ["Check", "Diff", "Create", "Read", "Update", "Delete"];

/**
 * Request fields the real engine (3.248.0) sends and the stand-in does not, or the other way round,
 * accepted because the plugin never reads them (a new difference fails the test: decide, then list it).
 */
const ACCEPTED: Record<string, string[]> = {
  // The plugin makes nothing random, so it has no use for the seed of a deterministic random name.
  Check: ["+randomSeed"],
  // The engine's resource-status service (for views, `supportsViews`): the plugin reports no views.
  Create: ["+resourceStatusAddress", "+resourceStatusToken"],
  // Delete works from the id and the state's properties; the inputs the resource was made from add nothing.
  Delete: ["+oldInputs", "+resourceStatusAddress", "+resourceStatusToken"],
  // The plugin reads `args` whenever they come (Configure prefers them); `variables` only for an engine
  // that sends nothing else. The provider's own id/urn/name/type name no resource the plugin handles.
  Configure: ["+variables", "+id", "+urn", "+name", "+type"],
};

/**
 * The stand-in engine of test/support/engine against the real one: one scenario (a DnsServer with
 * settings and a Device on it, `up` then `destroy`) runs under the real `pulumi` with PULUMI_DEBUG_GRPC,
 * and the same scenario through the stand-in, recording what reached the plugin both ways; the test
 * compares the resource calls per resource, the fields each request carries, Configure's flags, the
 * properties Create and Delete carry and which of them arrive as secrets.
 */
describe("engine: the stand-in engine sends the plugin what the real engine sends", function () {
  this.timeout(600_000);
  const tmp = _useTempDirs();
  let emu: Emulator;
  let project: PulumiProject | undefined;
  let grpcLog: string;

  before(async function () {
    _failWithout(_engineMissing("yaml"));
    emu = await startEmulator();
    emu.addApiKey("user@example.com", API_KEY);
    const installed = await _installedProgram();
    project = await _stackProject("dns-account-engine-honest-", {
      env: { PATH: path.join(installed, "node_modules", ".bin") },
      program: `name: dns-account-engine-honest
runtime: yaml
resources:
  home:
    type: dns-account:index:DnsServer
    properties: ${JSON.stringify(SERVER)}
  laptop:
    type: dns-account:index:Device
    properties:
      name: ${DEVICE.name}
      deviceType: ${DEVICE.deviceType}
      dnsServerId: \${home.serverId}
      settings: ${JSON.stringify(DEVICE.settings)}
`,
      config: { "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: API_KEY } },
    });
    grpcLog = path.join(path.dirname(project.dir), "grpc.jsonl");
    project.env.PULUMI_DEBUG_GRPC = grpcLog;
  });

  after(async () => {
    await _closeAll(() => emu?.close(), () => project?.remove());
  });

  it("the same up and destroy reach the plugin with the same calls and fields both ways", async () => {
    await project!.pulumi("up", "--yes");
    await project!.pulumi("destroy", "--yes");
    const real = _grpcCalls(grpcLog)
      .filter((c) => c.method.startsWith("/pulumirpc.ResourceProvider/"))
      .map((c) => ({ method: c.method, request: c.request }))
      // PULUMI_DEBUG_GRPC logs each call twice in a row (3.248.0): keep one.
      .filter((c, i, all) => i === 0 || JSON.stringify(c) !== JSON.stringify(all[i - 1]));

    // The stand-in: what `pulumi up` (its preview, then the update) and `pulumi destroy` send, as the
    // plugin tests in test/provider/plugin drive it.
    const standIn: RecordedRequest[] = [];
    const plugin = await startPlugin({ programDir: await _installedProgram(), env: _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: tmp("dns-account-honest-") }), record: standIn });
    try {
      const providerUrn = "urn:pulumi:dev::dns-account-engine-honest::pulumi:providers:dns-account::default";
      const urn = (type: string, name: string) => `urn:pulumi:dev::dns-account-engine-honest::dns-account:index:${type}::${name}`;
      const config = { baseUrl: emu.url, apiKey: API_KEY };
      const checked = await plugin.checkConfig(providerUrn, {}, config);
      await plugin.configureArgs(_reveal(checked.inputs), ["apiKey"]);
      // Preview: the server's id is not known yet.
      const s0 = await plugin.check(urn("DnsServer", "home"), {}, SERVER);
      await plugin.create(urn("DnsServer", "home"), s0.inputs, { preview: true });
      const d0 = await plugin.check(urn("Device", "laptop"), {}, { ...DEVICE, dnsServerId: UNKNOWN });
      await plugin.create(urn("Device", "laptop"), d0.inputs, { preview: true });
      // Update.
      const s1 = await plugin.check(urn("DnsServer", "home"), {}, SERVER);
      const server = await plugin.create(urn("DnsServer", "home"), s1.inputs);
      const d1 = await plugin.check(urn("Device", "laptop"), {}, { ...DEVICE, dnsServerId: server.id });
      const device = await plugin.create(urn("Device", "laptop"), d1.inputs);
      // Destroy.
      await plugin.delete(device.id, urn("Device", "laptop"), device.properties);
      await plugin.delete(server.id, urn("DnsServer", "home"), server.properties);
    } finally {
      await plugin.stop();
    }

    // Field names as protobuf's JSON spells them: the stand-in's older generated classes spell some in
    // lower case (`acceptsecrets`), so each takes the real log's spelling of the same name.
    const spelling = new Map(real.flatMap((c) => Object.keys(c.request).map((k) => [k.toLowerCase(), k] as const)));
    const summary = (calls: RecordedRequest[]) =>
      calls.map((c) => ({ method: c.method.split("/").pop()!, request: Object.fromEntries(Object.entries(c.request).map(([k, v]) => [spelling.get(k.toLowerCase()) ?? k, v])) as Record<string, any> })); // eslint-disable-line @typescript-eslint/no-explicit-any -- protobuf JSON
    const r = summary(real);
    const s = summary(standIn);

    // 1. The resource calls, per resource, in order (previews marked).
    const sequence = (calls: typeof r) => {
      const out: Record<string, string[]> = {};
      for (const c of calls.filter((c) => RESOURCE_METHODS.includes(c.method))) {
        const name = String(c.request.urn).split("::").pop()!;
        (out[name] ??= []).push(c.request.preview ? `${c.method}(preview)` : c.method);
      }
      return out;
    };
    assert.deepEqual(sequence(s), sequence(r), "the resource calls per resource");

    // 2. The fields each kind of request carries.
    for (const method of new Set([...r.map((c) => c.method), ...s.map((c) => c.method)])) {
      const fields = (calls: typeof r) => new Set(calls.filter((c) => c.method === method).flatMap((c) => Object.keys(c.request)));
      const [rf, sf] = [fields(r), fields(s)];
      if (sf.size === 0) continue; // a call the stand-in never makes: see the module comment
      const differences = [...[...rf].filter((f) => !sf.has(f)).map((f) => `+${f}`), ...[...sf].filter((f) => !rf.has(f)).map((f) => `-${f}`)].sort();
      assert.deepEqual(differences, [...(ACCEPTED[method] ?? [])].sort(), `${method}: fields only the real engine sends (+) or only the stand-in sends (-)`);
    }

    // 3. Configure's flags.
    const configure = (calls: typeof r) => calls.find((c) => c.method === "Configure")!.request;
    for (const flag of ["acceptSecrets", "acceptResources", "sendsOldInputs", "sendsOldInputsToDelete"]) {
      assert.equal(configure(s)[flag], configure(r)[flag], `Configure.${flag}`);
    }

    // 4. What Check, CheckConfig, Configure, Create and Delete carry, and which of it is secret (ids set aside).
    const ids = new Set<string>();
    for (const c of [...r, ...s]) if (c.method === "Delete") ids.add(String(c.request.id));
    // Values are compared where the program set them; the plugin's outputs (which embed ids and DoH
    // passwords) by their keys, types and secrecy.
    const shape = (value: unknown, values: boolean): unknown => {
      if (_isSecret(value)) return { secret: shape((value as { value: unknown }).value, values) };
      if (Array.isArray(value)) return value.map((v) => shape(v, values));
      if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v, values)]));
      if (!values) return typeof value;
      if (typeof value === "string" && ids.has(value)) return "<id>";
      if (value === emu.url) return "<baseUrl>";
      if (value === API_KEY) return "<apiKey>";
      return value;
    };
    const carried = (calls: typeof r, method: string, field: string) =>
      calls
        .filter((c) => c.method === method)
        .map((c) => `${RESOURCE_METHODS.includes(method) ? String(c.request.urn).split("::").pop() : method}${c.request.preview ? "(preview)" : ""} ${JSON.stringify(shape(c.request[field] ?? {}, method !== "Delete"))}`);
    // The real engine starts the plugin once per command (preview, update, destroy's preview and
    // destroy) and configures it each time; the stand-in once: its provider calls are the first command's.
    for (const [method, field] of [["CheckConfig", "news"], ["Configure", "args"], ["Check", "news"], ["Create", "properties"], ["Delete", "properties"]] as const) {
      const ours = carried(s, method, field);
      assert.ok(ours.length > 0, `the stand-in sent ${method}`);
      assert.deepEqual(ours, carried(r, method, field).slice(0, ours.length), `${method}.${field}`);
    }
  });
});
