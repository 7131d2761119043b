import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Emulator, startEmulator } from "../../../emulator";
import type { ProviderContext } from "../../../provider/shared/lifecycle";
import { applyResource, planResource, readDataSource, servedKinds, validateResource } from "../../../provider/tofu/resources";
import { type TfBlock, terraformSchema, tofuDescription } from "../../../provider/tofu/schema";
import { fromProgram, type TfValue } from "../../../provider/tofu/values";
import { type Diagnostic, errorDiagnostic, TOFU_MFA, TOFU_WORDS, tofuWords } from "../../../provider/tofu/words";
import { schema as packageSchema } from "../../../provider/schema/shape";
import type { CredentialFields } from "../../../provider/credentials";
import { accountClient } from "../../../provider/shared/account-client";
import { keptWords } from "../../../provider/shared/retain";
import { _closeAll } from "../../support/helpers";

const schema = terraformSchema();
const kinds = servedKinds(schema);
const API_KEY = "key-TOFU-WORDS-41c7e2";
const PASSWORD = "pw-TOFU-WORDS-9b03aa";
const USER = "words@example.com";

/** Every camelCase name of the package schema: none may reach a tofu user. */
const CAMEL = (() => {
  const names = new Set<string>(Object.keys(packageSchema.config.variables));
  for (const r of Object.values(packageSchema.resources)) for (const n of [...Object.keys(r.inputProperties), ...Object.keys(r.properties)]) names.add(n);
  for (const t of Object.values(packageSchema.types)) for (const n of Object.keys(t.properties ?? {})) names.add(n);
  for (const f of Object.values(packageSchema.functions)) for (const n of [...Object.keys(f.inputs.properties ?? {}), ...Object.keys(f.outputs.properties ?? {})]) names.add(n);
  return new RegExp(`(?<![A-Za-z0-9_])(${[...names].filter((n) => /[A-Z]/.test(n)).join("|")})(?![A-Za-z0-9_])`);
})();
/** Pulumi's words: its types and functions, its configuration keys, stack config, the program. */
const PULUMI_ONLY: [string, RegExp][] = [
  ["a camelCase property name", CAMEL],
  ["a Pulumi configuration key", /dns-account:/],
  ["stack config", /stack config/i],
  ["the program", /\bprograms?\b/i],
  ["a Pulumi type name", /(?<![A-Za-z0-9_])(DnsServer|DedicatedIpv4)(?![A-Za-z0-9_])/],
  // `Device` and `Token` are English words too: as types, after an article or before 's.
  ["a Pulumi type name", /(?<=\b(?:[Aa]n?|[Tt]he|[Ee]ach) )(Device|Token)\b|\b(Device|Token)'s/],
  ["a Pulumi function name", /\bget(AccountLimits|FilterLists|WebServices|ParentalControlCategories)\b/],
  ["pulumi", /pulumi/i],
  ["a camelCase word", /(?<![A-Za-z0-9_./-])[a-z]+[A-Z][A-Za-z]*(?![A-Za-z0-9_])/],
];

/** What tofu shows of a diagnostic. */
const shown = (d: Diagnostic): string => `${d.summary}: ${d.detail}`;

/** Asserts that no message holds a Pulumi-only word, naming the message and the word. */
function assertTofuWords(messages: readonly string[]): void {
  assert.ok(messages.length > 0, "no message was collected");
  // A brand's own spelling is no property name.
  for (const m of messages) for (const [what, re] of PULUMI_ONLY) assert.doesNotMatch(m.replace(/\biCloud\b/g, "icloud"), re, `${what} in: ${m}`);
}

/**
 * Issue 34: what the lifecycles say reaches an OpenTofu user in tofu's words. Every message site the face
 * can reach in process (the offline check of each resource, the plan's check with credentials missing or
 * wrong, the Token's credential problems, a base URL over plain http, the data sources, the warnings of a
 * destroy that keeps an object, a used-up quota, a reused MFA code) runs through the face's functions
 * with the context the face builds (`words: TOFU_WORDS`), and no message holds a camelCase property, a
 * `dns-account:` key, stack config, the program or a Pulumi type or function name.
 */
describe("OpenTofu face: every message in tofu's words", function () {
  this.timeout(60_000);
  let emu: Emulator;
  const savedEnv = { ...process.env };

  /** The context of the tofu face (provider/tofu/server.ts) for a provider block's credential fields. */
  const contextOf =
    (config: CredentialFields, allowInsecureHttp = false) =>
    (warnings: Diagnostic[]): ProviderContext => ({
      config,
      allowInsecureHttp,
      words: TOFU_WORDS,
      warn: (message) => void warnings.push({ severity: "WARNING", summary: tofuWords(message), detail: "" }),
    });

  before(async () => {
    // No credentials in the environment and no CLI profile: the chain ends at "No credentials".
    for (const k of Object.keys(process.env)) if (k.startsWith("DNS_ACCOUNT_")) delete process.env[k];
    process.env.DNS_ACCOUNT_CONFIG_DIR = mkdtempSync(path.join(tmpdir(), "tofu-words-"));
    emu = await startEmulator({ users: [{ username: USER, password: PASSWORD, mfa: ["111111", "222222"] }], limits: { dns_servers: 2 } });
    emu.addApiKey(USER, API_KEY);
  });
  after(async () => {
    await _closeAll(() => emu?.close());
    for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
    Object.assign(process.env, savedEnv);
  });

  const kind = (type: string) => kinds.resources.get(type)!;
  const config = (type: string, program: Record<string, unknown>): TfValue => fromProgram(program, kind(type).shape);

  it("diagnostics are valid UTF-8 for gRPC: a lone surrogate (a name the service returned) is U+FFFD", () => {
    assert.equal(tofuWords("The device \ud800 stays"), "The device \ufffd stays");
    assert.equal(errorDiagnostic("Reading failed", new Error("x \udc00 y")).detail, "x \ufffd y");
    assert.equal(tofuWords("a pair \ud83d\ude00 stays"), "a pair \ud83d\ude00 stays");
  });

  it("the offline check of every resource: each failure names its attribute in snake_case", async () => {
    const none = contextOf({});
    const bad: Record<string, Record<string, unknown>> = {
      dnsaccount_device: { name: "", deviceType: "TOASTER" },
      dnsaccount_dns_server: { name: "", settings: { blockingMode: { ipv4: "x" }, userRules: { rules: ["a\nb"] } } },
      dnsaccount_dedicated_ipv4: { deviceId: "", adopt: "not-an-ip" },
      dnsaccount_token: { renewBeforeSeconds: -1, rotationPeriodSeconds: 0, refreshToken: "", baseUrl: "ftp://x" },
    };
    const messages: string[] = [];
    for (const [type, program] of Object.entries(bad)) {
      const diagnostics = await validateResource(kind(type), config(type, program), none);
      assert.ok(diagnostics.length > 0, `${type}: no failure`);
      messages.push(...diagnostics.map(shown));
    }
    assertTofuWords(messages);
  });

  it("no credentials anywhere: each resource and data source lists where tofu takes them (a credentials block, the provider block), in its own words", async () => {
    const messages: string[] = [];
    for (const type of ["dnsaccount_device", "dnsaccount_dns_server", "dnsaccount_dedicated_ipv4"]) {
      const c = config(type, type === "dnsaccount_device" ? { name: "d", deviceType: "LINUX", dnsServerId: "s" } : type === "dnsaccount_dns_server" ? { name: "s" } : {});
      const plan = await planResource(kind(type), null, c, c, contextOf({}));
      const said = plan.diagnostics.map(shown).join("\n");
      assert.match(said, /No credentials: give the resource a credentials block \(a dnsaccount_token's base_url and refresh_token\), or set them in the provider block \(api_key; username with password; refresh_token; profile; credential_command\)/);
      messages.push(said);
    }
    const tokenConfig = config("dnsaccount_token", {});
    const token = await planResource(kind("dnsaccount_token"), null, tokenConfig, tokenConfig, contextOf({}));
    assert.match(token.diagnostics.map(shown).join("\n"), /No credentials: give the dnsaccount_token a refresh_token, or set them in the provider block \(username with password; refresh_token; profile; credential_command\), or set DNS_ACCOUNT_USERNAME with DNS_ACCOUNT_PASSWORD/);
    messages.push(...token.diagnostics.map(shown));
    for (const [type, data] of kinds.dataSources) {
      const { diagnostics } = await readDataSource(data, null, contextOf({}));
      const said = diagnostics.map(shown).join("\n");
      assert.match(said, new RegExp(`Reading data source ${type} failed: .*No credentials: give the data source a credentials block`));
      messages.push(said);
    }
    assertTofuWords(messages);
  });

  it("a Token's credential problems and a plain-http base URL, in tofu's words", async () => {
    const t = kind("dnsaccount_token");
    const c = config("dnsaccount_token", {});
    const plan = async (fields: CredentialFields, cfg: TfValue = c) => (await planResource(t, null, cfg, cfg, contextOf(fields))).diagnostics.map(shown);
    const noUser = await plan({ baseUrl: emu.url, password: PASSWORD });
    assert.match(noUser.join("\n"), /A password needs a username \(username in the provider block or DNS_ACCOUNT_USERNAME\)/);
    const both = await plan({ baseUrl: emu.url, password: PASSWORD, refreshToken: "rt", username: USER });
    assert.match(both.join("\n"), /Set either password or refresh_token \(in the provider block\), not both/);
    const keyOnly = await plan({ baseUrl: emu.url, apiKey: API_KEY });
    assert.match(keyOnly.join("\n"), /No credentials: give the dnsaccount_token a refresh_token/);
    const plain = await plan({ baseUrl: "http://dns.example.test", username: USER, password: PASSWORD });
    assert.match(plain.join("\n"), /uses http:\/\/ for a non-loopback host; use https:\/\/ or set allow_insecure_http = true in the provider block/);
    assertTofuWords([...noUser, ...both, ...keyOnly, ...plain]);
  });

  it("a destroy that keeps an object says so, and that an import block brings it back; the dedicated address's warnings name tofu's type", async () => {
    const provider = contextOf({ baseUrl: emu.url, apiKey: API_KEY });
    const messages: string[] = [];
    const server = kind("dnsaccount_dns_server");
    const sc = config("dnsaccount_dns_server", { name: "kept", deleteOnDestroy: false });
    const splan = await planResource(server, null, sc, sc, provider);
    const created = await applyResource(server, null, splan.planned, sc, provider);
    assert.deepEqual(created.diagnostics, []);
    const serverId = String((created.state as Record<string, TfValue>).id);
    const gone = await applyResource(server, created.state, null, null, provider);
    const warned = gone.diagnostics.map(shown).join("\n");
    assert.match(warned, new RegExp(`dnsaccount_dns_server ${serverId} is kept at the service \\(delete_on_destroy = false\\): the state forgets it\\. Bring it back with an import block \\(to = dnsaccount_dns_server\\.<name>, id = "${serverId}"\\)`));
    messages.push(warned);

    const device = kind("dnsaccount_device");
    const dc = config("dnsaccount_device", { name: "kept", deviceType: "LINUX", dnsServerId: serverId, deleteOnDestroy: false });
    const dplan = await planResource(device, null, dc, dc, provider);
    const dev = await applyResource(device, null, dplan.planned, dc, provider);
    assert.deepEqual(dev.diagnostics, []);
    const deviceId = String((dev.state as Record<string, TfValue>).id);
    messages.push(...(await applyResource(device, dev.state, null, null, provider)).diagnostics.map(shown));
    assert.match(messages.at(-1)!, new RegExp(`dnsaccount_device ${deviceId} is kept at the service .*import block \\(to = dnsaccount_device\\.<name>, id = "${deviceId}"\\)`));

    const address = kind("dnsaccount_dedicated_ipv4");
    const ac = config("dnsaccount_dedicated_ipv4", {});
    const aplan = await planResource(address, null, ac, ac, provider);
    const ip = await applyResource(address, null, aplan.planned, ac, provider);
    assert.deepEqual(ip.diagnostics, []);
    const released = (await applyResource(address, ip.state, null, null, provider)).diagnostics.map(shown);
    assert.match(released.join("\n"), /^dnsaccount_dedicated_ipv4: the service has no release operation/);
    messages.push(...released);
    assertTofuWords(messages);
  });

  it("a used-up quota names the dnsaccount_account_limits data source", async () => {
    const provider = contextOf({ baseUrl: emu.url, apiKey: API_KEY });
    const server = kind("dnsaccount_dns_server");
    const messages: string[] = [];
    // The emulator's quota of DNS servers is 2: the third create at the latest is refused.
    for (const name of ["q1", "q2", "q3"]) {
      const c = config("dnsaccount_dns_server", { name });
      const plan = await planResource(server, null, c, c, provider);
      messages.push(...(await applyResource(server, null, plan.planned, c, provider)).diagnostics.map(shown));
      if (messages.length > 0) break;
    }
    const said = messages.join("\n");
    assert.match(said, /quota is used up: remove some or raise the limit \(the dnsaccount_account_limits data source or `dns-account status` shows the quotas\)/);
    assertTofuWords(messages);
  });

  it("mfa_token in the provider block: a code refused on a second login says that tofu's phases each log in, and what to use instead", async () => {
    const t = kind("dnsaccount_token");
    const c = config("dnsaccount_token", {});
    const fields = { baseUrl: emu.url, username: USER, password: PASSWORD, mfaToken: "111111" };
    const first = await planResource(t, null, c, c, contextOf(fields));
    assert.deepEqual(first.diagnostics, []);
    const made = await applyResource(t, null, first.planned, c, contextOf(fields));
    assert.deepEqual(made.diagnostics.map(shown), [], "the first login takes the code");
    // Another phase, another login with the same code: the service refuses it.
    const again = await applyResource(t, null, first.planned, c, contextOf(fields));
    const said = again.diagnostics.map(shown);
    assert.equal(said.length, 1);
    assert.match(said[0]!, /rejected the MFA code/);
    assert.ok(said[0]!.includes(TOFU_MFA), said[0]);
    assert.equal(said[0]!.split("each phase logs in").length, 2, "said once");
    assert.match(TOFU_MFA, /dns-account login.*profile in the provider block.*refresh_token/);
    // An account resource's refused login (the check's validation, a create) says it too, at the message level.
    assert.ok(errorDiagnostic("Creating dnsaccount_device failed", new Error("the provider's credentials were refused by the service at h: invalid_credentials: The token endpoint rejected the MFA code (wrong, expired or already used)")).detail.includes(TOFU_MFA));
    assertTofuWords(said);
  });

  it("the schema's descriptions (the registry docs' source, issue 35) are tofu's: no Pulumi example, import section, program, stack config or name", () => {
    const descriptions: string[] = [];
    const walk = (where: string, block: TfBlock): void => {
      if (block.description) descriptions.push(`${where}: ${block.description}`);
      for (const a of block.attributes) {
        // A Token's mode holds a value, `refreshToken`, which the description must name as it is.
        const own = where === "dnsaccount_token" && a.name === "mode" ? a.description.replace("`refreshToken`", "`<the value>`") : a.description;
        if (own) descriptions.push(`${where}.${a.name}: ${own}`);
        for (const n of a.nested_type?.attributes ?? []) if (n.description) descriptions.push(`${where}.${a.name}.${n.name}: ${n.description}`);
      }
      for (const b of block.block_types) walk(`${where}.${b.type_name}`, b.block);
    };
    walk("provider", schema.provider.block);
    for (const [type, s] of [...Object.entries(schema.resources), ...Object.entries(schema.dataSources)]) walk(type, s.block);
    assert.ok(descriptions.length > 100, `only ${descriptions.length} descriptions`);
    assertTofuWords(descriptions);
    for (const d of descriptions) assert.doesNotMatch(d, /\{\{%|```(typescript|python|go|csharp|java|yaml)|`up`|secret stack/, d);
    for (const [type, r] of Object.entries(schema.resources)) assert.doesNotMatch(r.block.description, /## Import|pulumi import/, `${type}: Pulumi's import section`);
    const retain = schema.resources["dnsaccount_device"]!.block.attributes.find((a) => a.name === "retain_on_destroy")!.description;
    assert.match(retain, /`delete_on_destroy = false`/);
    assert.equal(tofuDescription("a DnsServer's `serverId` (the program forgets it): `deleteOnDestroy: true`"), "a dnsaccount_dns_server's `server_id` (the state forgets it): `delete_on_destroy = true`");
  });

  it("the Pulumi faces keep their words: a context without words says stack config and the program's names", async () => {
    await assert.rejects(accountClient({ config: {}, allowInsecureHttp: false, warn: () => undefined }, undefined), /No credentials: give the resource credentials \(\{ apiKey \}.*dns-account:apiKey/);
    assert.match(keptWords("Device", "d1"), /^Device d1 is kept at the service \(deleteOnDestroy: false/);
  });
});
