import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { _repoRoot } from "../../support/helpers";

type Prop = { description?: string; secret?: boolean; $ref?: string; items?: Prop; additionalProperties?: Prop };
type Schema = {
  name: string;
  config: { variables: Record<string, Prop> };
  provider: { inputProperties: Record<string, Prop> };
  types: Record<string, { description?: string; properties?: Record<string, Prop>; enum?: unknown[] }>;
  resources: Record<string, { description?: string; inputProperties: Record<string, Prop>; properties: Record<string, Prop> }>;
  functions: Record<string, { description?: string; inputs: { properties: Record<string, Prop> }; outputs: { properties: Record<string, Prop> } }>;
};

/** The package schema (provider/schema/schema.json): the one source of truth of both faces' properties. */
describe("the package schema", () => {
  const root = _repoRoot();
  const schema = JSON.parse(readFileSync(path.join(root, "provider", "schema", "schema.json"), "utf8")) as Schema;

  it("is valid against Pulumi's package metaschema (facts copy), and an invalid one is not", () => {
    const meta = JSON.parse(readFileSync(path.join(root, "scripts", "reference", "pulumi-package-metaschema.facts.json"), "utf8")) as object;
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const validate = ajv.compile(meta);
    assert.ok(validate({ ...schema, version: "0.2.0" }), ajv.errorsText(validate.errors));
    const broken = structuredClone(schema);
    (broken.resources["dns-account:index:Token"]!.properties as Record<string, unknown>).bad = { type: "strin" };
    assert.equal(validate(broken), false, "the validator catches a wrong type");
  });

  it("names the package, its four resources and four functions, and describes every resource, property and function", () => {
    assert.equal(schema.name, "dns-account");
    assert.deepEqual(Object.keys(schema.resources).sort(), ["DedicatedIpv4", "Device", "DnsServer", "Token"].map((r) => `dns-account:index:${r}`));
    assert.deepEqual(
      Object.keys(schema.functions).sort(),
      ["getAccountLimits", "getFilterLists", "getParentalControlCategories", "getWebServices"].map((f) => `dns-account:index:${f}`),
    );
    const undocumented: string[] = [];
    const props = (where: string, ps: Record<string, Prop> = {}) => {
      for (const [k, p] of Object.entries(ps)) if (!p.description) undocumented.push(`${where}.${k}`);
    };
    props("config", schema.config.variables);
    for (const [t, spec] of Object.entries(schema.types)) {
      if (!spec.description) undocumented.push(t);
      props(t, spec.properties);
    }
    for (const [r, spec] of Object.entries(schema.resources)) {
      if (!spec.description) undocumented.push(r);
      props(`${r} input`, spec.inputProperties);
      props(`${r} output`, spec.properties);
    }
    for (const [f, spec] of Object.entries(schema.functions)) {
      if (!spec.description) undocumented.push(f);
      props(`${f} input`, spec.inputs.properties);
      props(`${f} output`, spec.outputs.properties);
    }
    assert.deepEqual(undocumented, []);
  });

  it("marks every secret: tokens, passwords, API keys, MFA codes, credentials, the addresses with the DoH password", () => {
    const secretNames = /password|token|apikey|credentials|withauth/i;
    const missing: string[] = [];
    const check = (where: string, ps: Record<string, Prop> = {}) => {
      for (const [k, p] of Object.entries(ps)) {
        if (secretNames.test(k) && !/^(tokenType|mfaTokenRequired|skipCredentialsValidation)$/.test(k) && !p.secret) missing.push(`${where}.${k}`);
      }
    };
    check("config", schema.config.variables);
    check("provider", schema.provider.inputProperties);
    for (const [t, spec] of Object.entries(schema.types)) check(t, spec.properties);
    for (const [r, spec] of Object.entries(schema.resources)) {
      check(`${r} input`, spec.inputProperties);
      check(`${r} output`, spec.properties);
    }
    for (const [f, spec] of Object.entries(schema.functions)) check(`${f} input`, spec.inputs.properties);
    // `dohPasswordKeepers` holds triggers, not the password itself.
    assert.deepEqual(missing.filter((m) => !m.endsWith("dohPasswordKeepers")), []);
    assert.equal(schema.resources["dns-account:index:Device"]!.properties.dnsAddressesWithAuth!.secret, true);
  });

  it("the TypeScript types are the schema's (scripts/generate-types.mjs --check)", () => {
    const out = execFileSync(process.execPath, [path.join(root, "scripts", "generate-types.mjs"), "--check"], { encoding: "utf8" });
    assert.match(out, /is up to date/);
  });
});
