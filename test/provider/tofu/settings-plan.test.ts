import assert from "node:assert/strict";
import net from "node:net";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { type Emulator, startEmulator } from "../../../emulator";
import { type Client, createClient } from "../../../sdk";
import { resetSharedSessions } from "../../../sdk/client/shared-session";
import { LOADER_OPTIONS, PROTOCOL } from "../../../provider/tofu/protocol";
import { terraformSchema, type TfBlock } from "../../../provider/tofu/schema";
import { newFace, serve } from "../../../provider/tofu/server";
import { blockShape, dynamic, readDynamic, TF_UNKNOWN, type TfValue } from "../../../provider/tofu/values";
import { _unary } from "../../support/tofu-face";

/* eslint-disable @typescript-eslint/no-explicit-any -- the loaded gRPC clients and decoded values are untyped */

const loaded = grpc.loadPackageDefinition(protoLoader.fromJSON(PROTOCOL, LOADER_OPTIONS)) as any;
const schema = terraformSchema();
const providerShape = blockShape(schema.provider.block);
const API_KEY = "key-TOFU-SETTINGS-PLAN-0e4a7c91";

type Obj = Record<string, any>;

/**
 * What tofu proposes (OpenTofu 1.12's objchange.ProposedNew, for this schema's attributes and blocks): a
 * computed attribute the configuration leaves null keeps the prior value, any other the configuration's;
 * a group block is merged field by field, a single block null when the configuration has none.
 */
function proposedNew(block: TfBlock, prior: TfValue, config: TfValue): Obj {
  const p = (prior ?? {}) as Obj;
  const c = (config ?? {}) as Obj;
  const out: Obj = {};
  for (const a of block.attributes) out[a.name] = a.computed && (c[a.name] ?? null) === null ? (p[a.name] ?? null) : (c[a.name] ?? null);
  for (const b of block.block_types) {
    out[b.type_name] = b.nesting === "SINGLE" && (c[b.type_name] ?? null) === null ? null : proposedNew(b.block, p[b.type_name] ?? null, c[b.type_name] ?? null);
  }
  return out;
}

/** Every leaf of a value with its path (lists and null as leaves). */
function leaves(value: unknown, path = ""): [string, unknown][] {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  }
  return [[path, value]];
}

const text = (v: unknown): string => (v === TF_UNKNOWN ? "(known after apply)" : JSON.stringify(v));

/** The paths where two values differ. */
function differences(a: unknown, b: unknown): string[] {
  const right = new Map(leaves(b));
  return leaves(a)
    .filter(([k, v]) => text(v) !== text(right.get(k)))
    .map(([k]) => k);
}

function said(response: any): string {
  return (response.diagnostics ?? []).map((d: any) => `${d.severity}: ${d.summary}: ${d.detail}`).join("\n");
}

/**
 * Issue 34, its last item, at the gRPC level: a server's and a device's `settings` are group blocks whose
 * arguments are optional and computed. The state holds every setting the service has (import, read,
 * create); tofu's proposed value keeps the state's value of what the configuration leaves out, so an
 * import plans no change; a declared setting is managed (its drift plans an update of it alone, and the
 * update sends nothing for the others); a create leaves the undeclared ones unknown and fills them.
 */
describe("the OpenTofu face: settings the configuration leaves out plan no change (group blocks)", function () {
  this.timeout(60_000);
  let emu: Emulator;
  let dashboard: Client;
  let listener: net.Server;
  let provider: any;
  const kinds = { server: schema.resources["dnsaccount_dns_server"]!, device: schema.resources["dnsaccount_device"]! };
  const shapes = { server: blockShape(kinds.server.block), device: blockShape(kinds.device.block) };
  const lines: string[] = [];

  const call = async (method: string, request: Obj): Promise<any> => {
    const response = await _unary(provider, method, request);
    assert.equal(said(response), "", method);
    return response;
  };
  /** ImportResourceState, then ReadResource, as `tofu import` and an import block do. */
  const imported = async (kind: "server" | "device", id: string): Promise<Obj> => {
    const type = kind === "server" ? "dnsaccount_dns_server" : "dnsaccount_device";
    const got = await call("ImportResourceState", { type_name: type, id });
    const read = await call("ReadResource", { type_name: type, current_state: got.imported_resources[0].state });
    return readDynamic(read.new_state) as Obj;
  };
  /** PlanResourceChange with tofu's proposed value; the planned value, decoded as tofu gets it. */
  const planned = async (kind: "server" | "device", prior: Obj | null, config: Obj): Promise<{ planned: Obj; requiresReplace: unknown[]; raw: any }> => {
    const type = kind === "server" ? "dnsaccount_dns_server" : "dnsaccount_device";
    const shape = shapes[kind];
    const configValue = readDynamic(dynamic(config, shape)) as Obj;
    const proposed = proposedNew(kinds[kind].block, prior, configValue);
    const plan = await call("PlanResourceChange", { type_name: type, prior_state: dynamic(prior, shape), proposed_new_state: dynamic(proposed, shape), config: dynamic(configValue, shape) });
    return { planned: readDynamic(plan.planned_state) as Obj, requiresReplace: plan.requires_replace ?? [], raw: plan };
  };
  const applied = async (kind: "server" | "device", prior: Obj | null, plan: any, config: Obj): Promise<Obj> => {
    const type = kind === "server" ? "dnsaccount_dns_server" : "dnsaccount_device";
    const shape = shapes[kind];
    const r = await call("ApplyResourceChange", { type_name: type, prior_state: dynamic(prior, shape), planned_state: plan.planned_state, config: dynamic(config, shape) });
    return readDynamic(r.new_state) as Obj;
  };

  let serverId: string;
  let deviceId: string;

  before(async () => {
    emu = await startEmulator({ log: (line) => void lines.push(line) });
    emu.addApiKey("user@example.com", API_KEY);
    dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    listener = net.createServer();
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const { port } = serve(grpc.ServerCredentials.createInsecure(), newFace(), () => undefined, listener);
    provider = new loaded.tfplugin6.Provider(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    await call("ConfigureProvider", { terraform_version: "1.12.6", config: dynamic({ base_url: emu.url, api_key: API_KEY }, providerShape) });
    const server = await dashboard.dnsServers.create({ name: "Kids" });
    await dashboard.dnsServers.updateSettings(server.id, {
      protection_enabled: false,
      block_ttl_seconds: 42,
      blocking_mode_settings: { blocking_mode: "CUSTOM_IP", ipv4_blocking_address: "192.0.2.7" },
      user_rules_settings: { enabled: false, rules: ["||games.example^"] },
      parental_control_settings: { screen_time_schedule: { daily_schedule: [{ day_of_week: "MONDAY", enabled: true, from_time: { hours: 7, minutes: 30 }, to_time: { hours: 21, minutes: 0 } }] } },
    } as never);
    const device = await dashboard.devices.create({ name: "Tablet", device_type: "ANDROID", dns_server_id: server.id });
    await dashboard.devices.updateSettings(device.id, { protection_enabled: false, detect_doh_auth_only: true });
    (serverId = server.id), (deviceId = device.id);
  });
  after(async () => {
    provider?.close();
    listener?.close();
    await dashboard?.close();
    await resetSharedSessions();
    await emu?.close();
  });

  it("an imported server and device, configured without settings, plan no change: the state holds every setting, tofu proposes it", async () => {
    const server = await imported("server", serverId);
    assert.equal(server.settings.block_ttl_seconds, 42);
    assert.equal(server.settings.protection_enabled, false);
    assert.deepEqual(server.settings.blocking_mode, { mode: "CUSTOM_IP", ipv4: "192.0.2.7", ipv6: null });
    assert.deepEqual(server.settings.parental_control.schedule.monday, { from: "07:30", to: "21:00" });
    assert.equal(server.settings.parental_control.schedule.tuesday.from, null);
    assert.equal(server.credentials, null, "credentials stay a single block, null when absent");
    const plan = await planned("server", server, { name: "Kids" });
    assert.deepEqual(differences(plan.planned, server), [], "the plan changes nothing");
    assert.deepEqual(plan.requiresReplace, []);

    const device = await imported("device", deviceId);
    assert.deepEqual(device.settings, { protection_enabled: false, detect_doh_auth_only: true });
    const devicePlan = await planned("device", device, { name: "Tablet", device_type: "ANDROID", dns_server_id: serverId });
    assert.deepEqual(differences(devicePlan.planned, device), []);
  });

  it("a declared setting that drifted plans its update alone; the update sends nothing for the others (one changed at the service since keeps its value)", async () => {
    await dashboard.dnsServers.updateSettings(serverId, { block_ttl_seconds: 9 } as never);
    const prior = await imported("server", serverId);
    const config = { name: "Kids", settings: { block_ttl_seconds: 42 } };
    const plan = await planned("server", prior, config);
    const changed = differences(plan.planned, prior);
    assert.deepEqual(
      changed.filter((p) => p.startsWith("settings.")),
      ["settings.block_ttl_seconds"],
    );
    assert.equal(plan.planned.settings.block_ttl_seconds, 42);
    assert.equal(plan.planned.effective_settings, TF_UNKNOWN, "what the service reports of every setting moves");
    // An undeclared setting changed at the service between the plan and the apply is not sent back.
    await dashboard.dnsServers.updateSettings(serverId, { protection_enabled: true } as never);
    lines.length = 0;
    const state = await applied("server", prior, plan.raw, config);
    const live = await dashboard.dnsServers.get(serverId);
    assert.equal(live.settings.block_ttl_seconds, 42);
    assert.equal(live.settings.protection_enabled, true, "the undeclared setting follows the service");
    assert.deepEqual(live.settings.user_rules_settings?.rules, ["||games.example^"]);
    assert.equal(lines.filter((l) => /^(PUT|PATCH|POST) /.test(l)).length, 1, lines.join("\n"));
    assert.equal(state.settings.block_ttl_seconds, 42);

    // Taken out of the configuration: no longer managed, no change planned.
    const refreshed = await imported("server", serverId);
    const out = await planned("server", refreshed, { name: "Kids" });
    assert.deepEqual(differences(out.planned, refreshed), []);
  });

  it("a declared schedule is planned as declared: the days it leaves out are disabled, not kept", async () => {
    const prior = await imported("server", serverId);
    const plan = await planned("server", prior, { name: "Kids", settings: { parental_control: { schedule: { tuesday: { from: "08:00", to: "20:00" } } } } });
    assert.deepEqual(plan.planned.settings.parental_control.schedule.tuesday, { from: "08:00", to: "20:00" });
    assert.deepEqual(plan.planned.settings.parental_control.schedule.monday, { from: null, to: null });
  });

  it("an argument the type requires is still required once its block is declared (a blocking mode without its mode), in tofu's words; a block left out requires nothing", async () => {
    const config = readDynamic(dynamic({ name: "Kids", settings: { blocking_mode: { ipv4: "192.0.2.9" } } }, shapes.server));
    const refused = await _unary(provider, "ValidateResourceConfig", { type_name: "dnsaccount_dns_server", config: dynamic(config, shapes.server) });
    assert.match(said(refused), /^ERROR: .*settings\.blocking_mode\.mode must be one of NONE, NULL_IP, REFUSED, NXDOMAIN, CUSTOM_IP/);
    assert.deepEqual(refused.diagnostics[0].attribute.steps.map((s: any) => s.attribute_name), ["settings", "blocking_mode", "mode"]);
    const fine = await _unary(provider, "ValidateResourceConfig", { type_name: "dnsaccount_dns_server", config: dynamic({ name: "Kids" }, shapes.server) });
    assert.equal(said(fine), "");
  });

  it("a create without settings plans each of them unknown and fills them with the service's values; the plan after it has no change", async () => {
    for (const kind of ["server", "device"] as const) {
      const config = kind === "server" ? { name: "Fresh" } : { name: "Fresh", device_type: "IOS", dns_server_id: serverId };
      const plan = await planned(kind, null, config);
      const settings = leaves(plan.planned.settings);
      assert.ok(settings.length > 0 && settings.every(([, v]) => v === TF_UNKNOWN), `${kind}: every setting unknown in ${JSON.stringify(settings)}`);
      lines.length = 0;
      const state = await applied(kind, null, plan.raw, config);
      assert.ok(leaves(state).every(([, v]) => v !== TF_UNKNOWN), `${kind}: nothing unknown after apply`);
      // The settings left out come from the create's own answer: no request but the create.
      assert.deepEqual(
        lines.filter((l) => !/oauth_token|account\/limits/.test(l)).map((l) => l.split(" ")[0]),
        ["POST"],
        `${kind}: the create's requests:\n${lines.join("\n")}`,
      );
      const id = String(state.id);
      if (kind === "server") {
        const live = await dashboard.dnsServers.get(id);
        assert.equal(state.settings.protection_enabled, live.settings.protection_enabled);
        assert.equal(state.settings.block_ttl_seconds, live.settings.block_ttl_seconds);
        assert.notEqual(state.settings.block_ttl_seconds, null);
      } else {
        const live = await dashboard.devices.get(id);
        assert.deepEqual(state.settings, { protection_enabled: live.settings?.protection_enabled === true, detect_doh_auth_only: live.settings?.detect_doh_auth_only === true });
      }
      const type = kind === "server" ? "dnsaccount_dns_server" : "dnsaccount_device";
      const read = readDynamic((await call("ReadResource", { type_name: type, current_state: dynamic(state, shapes[kind]) })).new_state) as Obj;
      assert.deepEqual(differences(read, state), [], `${kind}: the refresh finds what the apply said`);
      const again = await planned(kind, read, config);
      assert.deepEqual(differences(again.planned, read), [], `${kind}: the plan after the create`);
    }
  });

  it("a state written when only the declared settings were kept (settings null) is filled whole by the next refresh", async () => {
    const full = await imported("device", deviceId);
    const old = { ...full, settings: null };
    const read = readDynamic((await call("ReadResource", { type_name: "dnsaccount_device", current_state: dynamic(old, shapes.device) })).new_state) as Obj;
    assert.deepEqual(read.settings, full.settings);
    const server = await imported("server", serverId);
    const oldServer = { ...server, settings: { ...server.settings, block_ttl_seconds: null, user_rules: { enabled: null, rules: null } } };
    const readServer = readDynamic((await call("ReadResource", { type_name: "dnsaccount_dns_server", current_state: dynamic(oldServer, shapes.server) })).new_state) as Obj;
    assert.deepEqual(differences(readServer.settings, server.settings), []);
  });
});
