import assert from "node:assert/strict";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _assertNoSecrets } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _engineMissing, _grpcCalls, type GrpcCall, type PulumiProject, _failWithout, _stackProject } from "../support/pulumi-cli";

const API_KEY = "key-ENGINE-YAML-3c5e8a17";
/** How the engine encodes an unknown value (a preview's not-yet-known output) in a protobuf Struct. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * A Pulumi YAML program through the native plugin under the real engine (the `pulumi` and
 * `pulumi-language-yaml` that `npm run engine` built; the plugin from an `npm pack` install, found on
 * PATH): `pulumi up`, `pulumi preview --expect-no-changes`, `pulumi destroy`, each checked against the
 * emulator's state. `PULUMI_DEBUG_GRPC` records every call the engine makes to the plugin, so the test
 * also pins what the real engine (3.248.0) sends, where the stand-in in test/support/engine differs:
 * - Handshake comes first (engineAddress, root/program directory = the plugin's folder, configureWithUrn,
 *   supportsViews, supportsRefreshBeforeUpdate, invokeWithPreview); the plugin's UNIMPLEMENTED makes the
 *   engine fall back. GetPluginInfo follows. The engine sends no GetSchema (the YAML language host asks
 *   a plugin process of its own for it, which this log does not show: check-create-wire.test.ts).
 * - CheckConfig gets the stack config as plain strings, the secret apiKey unwrapped (the plugin marks it
 *   secret in its answer); Configure gets both `variables` (`dns-account:config:<key>`, the secret in
 *   clear) and `args` (as CheckConfig answered), with acceptSecrets, acceptResources, sendsOldInputs and
 *   sendsOldInputsToDelete set, and the provider's id/urn/name/type. DiffConfig runs once a provider is
 *   in the state.
 * - Check runs in the preview and again in the update; it carries randomSeed, name and type. A value not
 *   known yet (a preview's output) arrives as the unknown sentinel string, in Check and Create.
 * - Diff and Delete carry oldInputs; Read (refresh) carries the stored inputs; Invoke carries
 *   `preview: true` in previews; Cancel is called as every command ends.
 */
describe("engine: a YAML program through the plugin", function () {
  this.timeout(600_000);
  let emu: Emulator;
  let project: PulumiProject | undefined;
  let dashboard: Client;
  let grpcLog: string;

  before(async function () {
    _failWithout(_engineMissing("yaml"));
    emu = await startEmulator();
    emu.addApiKey("user@example.com", API_KEY);
    dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    const installed = await _installedProgram();
    project = await _stackProject("dns-account-engine-yaml-", {
      env: { PATH: path.join(installed, "node_modules", ".bin") },
      program: `name: dns-account-engine-yaml
runtime: yaml
variables:
  limits:
    fn::invoke:
      function: dns-account:index:getAccountLimits
      arguments: {}
resources:
  home:
    type: dns-account:index:DnsServer
    properties:
      name: Home
      settings:
        blockTtlSeconds: 60
        userRules:
          enabled: true
          rules:
            - "||ads.example^"
  laptop:
    type: dns-account:index:Device
    properties:
      name: Laptop
      deviceType: MAC
      dnsServerId: \${home.serverId}
      settings:
        protectionEnabled: true
outputs:
  serverId: \${home.serverId}
  deviceId: \${laptop.deviceId}
  devicesLimit: \${limits.devices.limit}
`,
      config: { "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: API_KEY } },
    });
    grpcLog = path.join(path.dirname(project.dir), "grpc.jsonl");
    project.env.PULUMI_DEBUG_GRPC = grpcLog;
  });

  after(async () => {
    await dashboard?.close();
    await emu?.close();
    project?.remove();
  });

  it("up creates the server and device at the service, preview shows no changes, destroy removes them", async () => {
    const pulumi = project!.pulumi;
    const logs: string[] = [];
    const before = await dashboard.dnsServers.list();

    logs.push(await pulumi("up", "--yes"));
    const serverId = (await pulumi("stack", "output", "serverId")).trim();
    const deviceId = (await pulumi("stack", "output", "deviceId")).trim();
    const server = await dashboard.dnsServers.get(serverId);
    assert.equal(server.name, "Home");
    assert.equal(server.settings.block_ttl_seconds, 60);
    assert.deepEqual(server.settings.user_rules_settings?.rules, ["||ads.example^"]);
    const device = await dashboard.devices.get(deviceId);
    assert.equal(device.name, "Laptop");
    assert.equal(device.device_type, "MAC");
    assert.equal(device.dns_server_id, serverId);
    assert.equal((await dashboard.dnsServers.list()).length, before.length + 1);
    assert.ok(Number((await pulumi("stack", "output", "devicesLimit")).trim()) > 0, "the invoke's result reached the program");

    const upCalls = _grpcCalls(grpcLog);
    logs.push(await pulumi("preview", "--expect-no-changes"));
    const state = await pulumi("stack", "export");
    assert.match(state, /"ciphertext"/, "the state holds secrets as ciphertext");
    // The device's addresses that embed its DoH password, as the plugin answered Create.
    const created = upCalls.find((c) => c.method.endsWith("/Create") && c.response.id === deviceId);
    const withAuth = Object.values((created?.response.properties.dnsAddressesWithAuth as { value: Record<string, string> }).value);
    assert.ok(withAuth.length > 0);

    logs.push(await pulumi("destroy", "--yes"));
    await assert.rejects(dashboard.devices.get(deviceId), (e: { status?: number }) => e.status === 404);
    await assert.rejects(dashboard.dnsServers.get(serverId), (e: { status?: number }) => e.status === 404);
    assert.deepEqual(
      (await dashboard.dnsServers.list()).map((s) => s.id).sort(),
      before.map((s) => s.id).sort(),
    );
    _assertNoSecrets(logs.join("\n") + state + (await pulumi("stack", "export")), [API_KEY, ...withAuth]);

    // What the real engine sent the plugin during `pulumi up` (see the plugin's module comment).
    const provider = upCalls.filter((c) => c.method.startsWith("/pulumirpc.ResourceProvider/"));
    const methods = new Set(provider.map((c) => c.method.split("/").pop()));
    for (const m of ["GetPluginInfo", "CheckConfig", "Configure", "Check", "Create", "Invoke"]) assert.ok(methods.has(m), `the engine called ${m}: ${[...methods].join(", ")}`);
    const configure = only(provider, "Configure");
    assert.equal(configure.request.acceptSecrets, true);
    assert.ok(configure.request.args, "Configure carries args, not only variables");
    // Before anything else the engine offers a Handshake; the plugin's UNIMPLEMENTED makes it fall back.
    const handshake = provider.find((c) => c.method.endsWith("/Handshake") && c.errors);
    assert.match(handshake?.errors?.[0] ?? "", /Unimplemented/);
    // CheckConfig gets the stack's config as plain strings, the secret apiKey unwrapped; Configure gets
    // both the old `variables` map and `args` (secrets wrapped as CheckConfig returned them).
    const checkConfig = only(provider, "CheckConfig");
    assert.equal(typeof checkConfig.request.news.apiKey, "string", "CheckConfig gets the secret unwrapped");
    assert.deepEqual(Object.keys(configure.request.variables ?? {}).sort(), ["dns-account:config:apiKey", "dns-account:config:baseUrl"]);
    assert.equal(configure.request.sendsOldInputs, true);
    assert.equal(configure.request.sendsOldInputsToDelete, true);
    // In the preview, a value not known yet reaches Check and Create as Pulumi's unknown sentinel string.
    const previewDevice = provider.find((c) => c.method.endsWith("/Create") && c.request.preview === true && c.request.type === "dns-account:index:Device");
    assert.equal(previewDevice?.request.properties.dnsServerId, UNKNOWN);
    assert.ok(methods.has("Cancel"), "the engine calls Cancel as it shuts the plugin down");
    console.log(`      the engine called: ${[...methods].join(", ")}`);
  });
});

/** The one call of `method` in the log (the first when there are several). */
function only(calls: GrpcCall[], method: string): GrpcCall {
  const found = calls.find((c) => c.method.endsWith(`/${method}`));
  assert.ok(found, `no ${method} call`);
  return found;
}
