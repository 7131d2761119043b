import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { type DocProgram, DocPrograms, _docBlocks, _oneBlock, _since } from "../support/doc-program";
import { _assertNoSecrets, _withLowerCase } from "../support/helpers";
import { _engineMissing, _failWithout, _summaryCounts } from "../support/pulumi-cli";
import type { FencedBlock } from "../support/readme-blocks";
import { _dohSecrets } from "../support/secrets";

const OVERVIEW = "docs/_index.md";
const API_KEY = "key-ENGINE-OVERVIEW-6e1d94a2";
/** Why the C# block is not run: the reason readme-blocks.test.ts gives for it too. */
const CSHARP_NOT_RUN = "no .NET toolchain here: the names the block uses are checked against the schema in C#'s spelling by test/examples/readme-blocks.test.ts (sdks/dotnet is generated and checked for staleness)";

/** Names and ids of an account's servers and devices. */
async function inventory(client: Client): Promise<{ servers: string[]; devices: string[] }> {
  return {
    servers: (await client.dnsServers.list()).map((s) => `${s.name}:${s.id}`).sort(),
    devices: (await client.devices.list()).map((d) => `${d.name}:${d.id}`).sort(),
  };
}

/**
 * Issue 33 §2, last bullet: "The overview's example in each language (docs/_index.md) runs as written."
 * Each block of the page's "## Example" section is taken from the file at test time and written, as it
 * is, into a project of its language, which the real `pulumi` (`npm run engine`) runs through that
 * language's host: `pulumi up`, `pulumi preview --expect-no-changes`, `pulumi destroy`, each checked at
 * the emulator (a DNS server "Home" with a block TTL of 60 s and the user rule `||ads.example^`, a device
 * "Laptop" of type MAC on it; the stack output `dohAddress` is that device's DNS-over-HTTPS address, the
 * one without its DoH password; destroy removes both and leaves the account as it was). The blocks name
 * no credentials, so they come from stack config: `dns-account:baseUrl` and the secret `dns-account:apiKey`.
 * Each language's project is made by DocPrograms (test/support/doc-program.ts): TypeScript on the dynamic
 * resources of the `npm pack` install; Python, Go, Java and YAML on the plugin of one
 * `npm run package:plugin` tarball, on a PATH without Node.js.
 * - C#: not run (no .NET toolchain); the test says so and why.
 * The API key, the passphrase and the laptop's DoH password appear nowhere in what `pulumi` printed nor
 * in the state but as ciphertext.
 */
describe("engine: the overview's example (docs/_index.md) in each language, as written, by pulumi up", function () {
  this.timeout(2_400_000);
  const blocks = _docBlocks(OVERVIEW, "Example");
  let emu: Emulator;
  let dashboard: Client;
  let programs: DocPrograms;
  let suiteStarted = Date.now();

  before(async function () {
    suiteStarted = Date.now();
    _failWithout(_engineMissing("nodejs"));
    programs = new DocPrograms();
    await programs.tarball();
    emu = await startEmulator();
    emu.addApiKey("user@example.com", API_KEY);
    dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
  });

  after(async () => {
    await dashboard?.close();
    await emu?.close();
    programs?.remove();
    console.log(`      the overview's examples in ${_since(suiteStarted)} s in all`);
  });

  /** The section's one block of `lang`. */
  const block = (lang: string): FencedBlock => _oneBlock(blocks, lang);

  /**
   * The example's life as `program` (its project written by DocPrograms): the plugin installed when the
   * program uses it, the stack with its credentials in config, up / preview --expect-no-changes /
   * destroy, each checked at the emulator.
   */
  async function life(program: DocProgram): Promise<void> {
    const { pulumi } = program;
    await program.init({ "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: API_KEY } });
    const before = await inventory(dashboard);
    const serversBefore = new Set((await dashboard.dnsServers.list()).map((s) => s.id));
    const devicesBefore = new Set((await dashboard.devices.list()).map((d) => d.id));
    const logs: string[] = [];
    const t0 = Date.now();

    // up: the server with its TTL and rule, the laptop on it.
    const up = await pulumi("up", "--yes", "--skip-preview");
    logs.push(up);
    assert.deepEqual(_summaryCounts(up), { create: 3 }, `the stack, the server and the laptop:\n${up}`);
    const servers = (await dashboard.dnsServers.list()).filter((s) => !serversBefore.has(s.id));
    assert.deepEqual(servers.map((s) => s.name), ["Home"], "up made one DNS server, Home");
    const server = await dashboard.dnsServers.get(servers[0]!.id);
    assert.equal(server.settings.block_ttl_seconds, 60);
    assert.deepEqual(server.settings.user_rules_settings?.rules, ["||ads.example^"]);
    const devices = (await dashboard.devices.list()).filter((d) => !devicesBefore.has(d.id));
    assert.deepEqual(devices.map((d) => d.name), ["Laptop"], "up made one device, Laptop");
    const device = await dashboard.devices.get(devices[0]!.id);
    assert.equal(device.device_type, "MAC");
    assert.equal(device.dns_server_id, server.id, "the laptop is on Home");

    // dohAddress: the laptop's DNS-over-HTTPS address as the service gives it (not the one with the DoH password).
    const outputs = JSON.parse(await pulumi("stack", "output", "--json")) as Record<string, unknown>;
    const addresses = device.dns_addresses as Record<string, unknown>;
    assert.deepEqual(outputs, { dohAddress: addresses.dns_over_https_url }, "dohAddress is the laptop's DoH address");
    assert.match(String(outputs.dohAddress), /^https:\/\/[0-9a-f]+\.dns\./);
    assert.match(up, /Outputs:[\s\S]*dohAddress/, "up prints the output");

    if (program.plugin) program.assertPluginRan();

    const preview = await pulumi("preview", "--expect-no-changes");
    logs.push(preview);
    assert.deepEqual(_summaryCounts(preview), { same: 3 }, preview);

    const state = await pulumi("stack", "export");
    assert.match(state, /"ciphertext"/, "the API key is in the state as ciphertext");
    const secrets = _withLowerCase([API_KEY, program.project.env.PULUMI_CONFIG_PASSPHRASE!, ..._dohSecrets(device.dns_addresses as Record<string, unknown>)]);

    const destroy = await pulumi("destroy", "--yes", "--skip-preview");
    logs.push(destroy);
    assert.deepEqual(_summaryCounts(destroy), { delete: 3 }, destroy);
    await assert.rejects(dashboard.devices.get(device.id), (e: { status?: number }) => e.status === 404);
    await assert.rejects(dashboard.dnsServers.get(server.id), (e: { status?: number }) => e.status === 404);
    assert.deepEqual(await inventory(dashboard), before, "destroy leaves the account as it was");
    _assertNoSecrets(logs.join("\n"), secrets);
    _assertNoSecrets(state + (await pulumi("stack", "export")), secrets);
    console.log(`      up, preview and destroy in ${_since(t0)} s`);
  }

  it(`the "## Example" section holds one block per language: TypeScript, Python, Go, C#, Java, YAML`, () => {
    assert.deepEqual(
      blocks.map((b) => b.lang),
      ["typescript", "python", "go", "csharp", "java", "yaml"],
      `a block added to (or taken from) ${OVERVIEW}'s example needs a test here`,
    );
  });

  it("TypeScript: the dynamic resources of the npm pack install, runtime nodejs", async () => {
    await life(await programs.project(block("typescript"), "overview-typescript"));
  });

  it("Python: the generated SDK in a venv, the tarball plugin, runtime python, no Node.js", async () => {
    await life(await programs.project(block("python"), "overview-python"));
  });

  it("Go: sdks/go, the Go host builds it, the tarball plugin, no Node.js", async () => {
    await life(await programs.project(block("go"), "overview-go"));
  });

  it("YAML: the tarball plugin, runtime yaml, no Node.js", async () => {
    await life(await programs.project(block("yaml"), "overview-yaml"));
  });

  it(`C#: not run (${CSHARP_NOT_RUN})`, function () {
    assert.equal(block("csharp").lang, "csharp");
    console.log(`      skipped: ${CSHARP_NOT_RUN}`);
    this.skip();
  });

  it("Java: sdks/java by Maven (offline under pulumi), the tarball plugin, runtime java, no Node.js", async function () {
    const userM2Sdk = path.join(os.homedir(), ".m2", "repository", "io", "github", "pulumi-dns-account");
    const userM2SdkBefore = existsSync(userM2Sdk);
    await life(await programs.project(block("java"), "overview-java"));
    assert.equal(existsSync(userM2Sdk), userM2SdkBefore, "nothing of the SDK went into the user's ~/.m2");
  });
});
