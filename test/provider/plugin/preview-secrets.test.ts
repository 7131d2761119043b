import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startEmulator } from "../../../emulator";
import { serve } from "../../../provider/plugin/server";
import { createClient } from "../../../sdk";
import { _isSecret, _reveal, connectProvider, type ProviderRpc } from "../../support/engine/rpc-client";
import { _repoRoot } from "../../support/helpers";

type Spec = { secret?: boolean; $ref?: string };
const schema = JSON.parse(readFileSync(path.join(_repoRoot(), "provider", "schema", "schema.json"), "utf8")) as {
  resources: Record<string, { inputProperties: Record<string, Spec> }>;
};
const urn = (token: string, name: string) => `urn:pulumi:dev::home::${token}::${name}`;

/** A plain value for a secret input: credentials are an object, every other secret input a string. */
const plainValue = (name: string, spec: Spec): unknown => (spec.$ref ? { apiKey: `key-PREVIEW-${name}` } : `plain-PREVIEW-${name}-3c9e`);

/**
 * A preview (Create and Update with `preview`) echoes the inputs as properties: every input the schema
 * calls secret goes back wrapped, even when the engine sent it unwrapped (issue 22 §4), over gRPC.
 */
describe("the native plugin: previews mark every secret input the schema declares", function () {
  this.timeout(60_000);
  let server: Awaited<ReturnType<typeof serve>>;
  let rpc: ProviderRpc;
  before(async () => {
    server = await serve(undefined);
    rpc = connectProvider(path.dirname(require.resolve("@pulumi/pulumi/package.json")), server.port);
  });
  after(async () => {
    rpc?.close();
    await server?.close();
  });

  for (const [token, resource] of Object.entries(schema.resources)) {
    const secrets = Object.entries(resource.inputProperties).filter(([, spec]) => spec.secret);
    const inputs = Object.fromEntries(secrets.map(([name, spec]) => [name, plainValue(name, spec)]));

    it(`${token.split(":").pop()}: ${secrets.map(([n]) => n).join(", ")} come back secret from a previewed Create and Update`, async () => {
      assert.ok(secrets.length > 0);
      const created = await rpc.create(urn(token, "p"), inputs, { preview: true });
      const updated = await rpc.update("id-1", urn(token, "p"), { name: "old" }, inputs, { preview: true });
      for (const [what, props] of [["create", created.properties], ["update", updated.properties]] as const) {
        for (const [name] of secrets) {
          assert.ok(_isSecret(props[name]), `${what}: ${name} is a secret`);
          assert.deepEqual(_reveal(props[name]), inputs[name], `${what}: ${name} keeps its value`);
        }
      }
      assert.equal(updated.properties.name, "old", "the rest of the state is kept as it was");
    });
  }

  it("a Token preview shows neither password nor MFA code in plain anywhere in its answer", async () => {
    const password = "pw-PREVIEW-77a1f0";
    const mfaToken = "418273";
    const created = await rpc.create(urn("dns-account:index:Token", "t"), { username: "u@example.com", password, mfaToken }, { preview: true });
    const plainParts = Object.entries(created.properties).filter(([, v]) => !_isSecret(v));
    assert.ok(!JSON.stringify(plainParts).includes(password) && !JSON.stringify(plainParts).includes(mfaToken));
  });

  it("a refresh hands back the state's inputs with their secret inputs wrapped, even when they came unwrapped", async () => {
    const emu = await startEmulator({ users: [{ username: "read@example.com", password: "pw-READ-1b2c3d" }] });
    const apiKey = emu.addApiKey("read@example.com", "key-READ-5e6f7a8b");
    const client = createClient({ baseUrl: emu.url, apiKey });
    try {
      const server = await client.dnsServers.create({ name: "Read" });
      const credentials = { baseUrl: emu.url, apiKey };
      const token = "dns-account:index:DnsServer";
      const read = await rpc.read(server.id, urn(token, "r"), { serverId: server.id, name: "Read", credentials }, { name: "Read", credentials });
      assert.equal(read.id, server.id);
      assert.ok(_isSecret(read.properties.credentials));
      assert.ok(read.inputs && _isSecret(read.inputs.credentials), "the inputs' credentials are a secret");
      assert.deepEqual(_reveal(read.inputs.credentials), credentials);
      assert.equal(read.inputs.name, "Read");
    } finally {
      await client.close();
      await emu.close();
    }
  });
});
