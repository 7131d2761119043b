import assert from "node:assert/strict";
import net from "node:net";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { type Emulator, startEmulator } from "../../../emulator";
import { createClient } from "../../../sdk";
import { resetSharedSessions } from "../../../sdk/client/shared-session";
import { LOADER_OPTIONS, PROTOCOL } from "../../../provider/tofu/protocol";
import { servedKinds } from "../../../provider/tofu/resources";
import { terraformSchema } from "../../../provider/tofu/schema";
import { newFace, serve } from "../../../provider/tofu/server";
import { blockShape, dynamic, readDynamic, TF_UNKNOWN, type TfValue } from "../../../provider/tofu/values";
import { _unary } from "../../support/tofu-face";

/* eslint-disable @typescript-eslint/no-explicit-any -- the loaded gRPC clients are untyped */

const loaded = grpc.loadPackageDefinition(protoLoader.fromJSON(PROTOCOL, LOADER_OPTIONS)) as any;
const schema = terraformSchema();
const providerShape = blockShape(schema.provider.block);
const server = servedKinds(schema).resources.get("dnsaccount_dns_server")!;

/** The diagnostics of a response, as text. */
function said(response: any): string {
  return (response.diagnostics ?? []).map((d: any) => `${d.severity}: ${d.summary}: ${d.detail}`).join("\n");
}

/**
 * Issue 34: ConfigureProvider with a provider-block value not known yet (tofu sends it unknown at plan
 * when it comes from a resource not created yet). The provider is configured "deferred": the plan asks
 * the service nothing (no check with other credentials), a refresh keeps the state, and an apply that
 * still finds the value unknown fails naming it.
 */
describe("the OpenTofu face: a provider block with values not known yet configures the provider deferred", function () {
  this.timeout(30_000);
  let emu: Emulator;
  let listener: net.Server;
  let provider: any;
  const saved = process.env["DNS_ACCOUNT_API_KEY"];

  before(async () => {
    emu = await startEmulator({});
    // Other credentials at hand, which the deferred provider must not use.
    process.env["DNS_ACCOUNT_API_KEY"] = "emulator-api-key-mfa";
    listener = net.createServer();
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const { port } = serve(grpc.ServerCredentials.createInsecure(), newFace(), () => undefined, listener);
    provider = new loaded.tfplugin6.Provider(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  });
  after(async () => {
    if (saved === undefined) delete process.env["DNS_ACCOUNT_API_KEY"];
    else process.env["DNS_ACCOUNT_API_KEY"] = saved;
    provider.close();
    listener.close();
    await resetSharedSessions();
    await emu.close();
  });

  /** The plan of a new DNS server named `name`, as tofu asks for it: its proposed state, and the provider's answer. */
  const planCreate = async (name: string) => {
    const planned = { id: TF_UNKNOWN, name } as Record<string, TfValue>;
    const plan = await _unary(provider, "PlanResourceChange", {
      type_name: "dnsaccount_dns_server",
      prior_state: dynamic(null, server.shape),
      proposed_new_state: dynamic(planned, server.shape),
      config: dynamic({ ...planned, id: null }, server.shape),
    });
    return { planned, plan };
  };

  it("warns naming api_key, plans without asking the service, keeps the state on refresh, and refuses to apply naming api_key", async () => {
    const configured = await _unary(provider, "ConfigureProvider", { terraform_version: "1.10.0", config: dynamic({ base_url: emu.url, api_key: TF_UNKNOWN }, providerShape) });
    assert.match(said(configured), /^WARNING: Provider configured with values not known yet: The provider block's api_key is not known until/);
    assert.match(said(configured), /does not check the credentials against the service/);
    emu.resetStats();

    const { planned, plan } = await planCreate("Home");
    assert.equal(said(plan), "");
    assert.equal(readDynamic(plan.planned_state) !== null, true);

    const held = { id: "srv-1", server_id: "srv-1", name: "Home" } as Record<string, TfValue>;
    const read = await _unary(provider, "ReadResource", { type_name: "dnsaccount_dns_server", current_state: dynamic(held, server.shape) });
    assert.equal(said(read), "");
    assert.equal((readDynamic(read.new_state) as Record<string, TfValue>).id, "srv-1", "the state is kept as it is");
    assert.equal(emu.stats.requests, 0, "nothing asked the service with other credentials");

    const apply = await _unary(provider, "ApplyResourceChange", {
      type_name: "dnsaccount_dns_server",
      prior_state: dynamic(null, server.shape),
      planned_state: plan.planned_state,
      config: dynamic({ ...planned, id: null }, server.shape),
    });
    assert.match(said(apply), /^ERROR: Applying dnsaccount_dns_server failed: The provider block's api_key is not known yet/);
    assert.equal(emu.stats.requests, 0);
    const dash = createClient({ baseUrl: emu.url, apiKey: "emulator-api-key-mfa" });
    assert.equal((await dash.dnsServers.list()).filter((s) => s.name === "Home").length, 0, "nothing was made with the other credentials");
    await dash.close();
  });

  it("configured again with every value known, it plans and checks as usual", async () => {
    const configured = await _unary(provider, "ConfigureProvider", { terraform_version: "1.10.0", config: dynamic({ base_url: emu.url, api_key: "emulator-api-key-user" }, providerShape) });
    assert.equal(said(configured), "");
    emu.resetStats();
    const { plan } = await planCreate("Office");
    assert.equal(said(plan), "");
    assert.ok(emu.stats.requests > 0, "the plan checked the credentials with the service");
  });
});
