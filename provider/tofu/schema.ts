/**
 * The OpenTofu/Terraform schema of the provider, generated from the one package schema
 * (provider/schema/schema.json) at start: nothing is described twice. Names are the schema's in
 * snake_case (`blockTtlSeconds` → `block_ttl_seconds`); resources are `dnsaccount_<name>`
 * (`DnsServer` → `dnsaccount_dns_server`), data sources the functions without their `get`
 * (`getFilterLists` → `dnsaccount_filter_lists`).
 *
 * What differs from Pulumi, and why (issue 34):
 * - A resource carries no password, MFA code or API key of its own: tofu keeps a resource's attributes in
 *   state, so they stay on the provider block. The Token logs in with the provider's credentials, and a
 *   resource's or data source's `credentials` holds only what is already in state elsewhere: a base URL and
 *   a Token's refresh token.
 * - Every input that the service can also fill is optional and computed (tofu refuses a known planned
 *   value that apply changes, unless it is computed); what the outputs only echo (`adopt`, keepers) is
 *   optional; what only the service sets is computed.
 * - Input objects (`settings`, `credentials`) are blocks, so that a misspelled argument in them is refused.
 *   The settings, which the service also holds, are group blocks (never null, like a nested attribute that
 *   is always there) whose arguments are optional and computed: tofu proposes the state's value of every
 *   setting the configuration leaves out, so only the declared settings are managed, and an import, whose
 *   state holds every setting the service has, plans no change.
 * - Secrets are `sensitive`; each resource has the conventional computed `id`.
 * - Nothing is `write_only`: a password, MFA code or API key is never a resource's attribute, and tofu
 *   keeps no provider block in state, so there is nothing a client older than 1.11 would store.
 */
import { type Document, type ObjectSpec, type PropertySpec, schema as document } from "../schema/shape";

/** A tfplugin6 `Schema.Attribute`, as the loader's plain object. */
export interface TfAttribute {
  name: string;
  type?: Buffer;
  nested_type?: { attributes: TfAttribute[]; nesting: "SINGLE" | "LIST" | "MAP" };
  description: string;
  description_kind: "PLAIN";
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
  deprecated: boolean;
  write_only: boolean;
}

/** A tfplugin6 `Schema.Block`. */
export interface TfBlock {
  version: number;
  attributes: TfAttribute[];
  block_types: TfNestedBlock[];
  description: string;
  description_kind: "PLAIN";
  deprecated: boolean;
}

/**
 * A tfplugin6 `Schema.NestedBlock`: an input object written as a block (`settings { … }`). A `SINGLE`
 * block is null when the configuration leaves it out; a `GROUP` block is never null (its arguments are,
 * when left out).
 */
export interface TfNestedBlock {
  type_name: string;
  block: TfBlock;
  nesting: "SINGLE" | "GROUP";
  min_items: number;
  max_items: number;
}

/** A tfplugin6 `Schema`. */
export interface TfSchema {
  version: number;
  block: TfBlock;
}

/** The whole provider's schema, as GetProviderSchema answers it. */
export interface TfProviderSchema {
  provider: TfSchema;
  resources: Record<string, TfSchema>;
  dataSources: Record<string, TfSchema>;
}

/** The provider's type name: resources and data sources are `dnsaccount_*`. */
export const PROVIDER_TYPE = "dnsaccount";

/**
 * `blockTtlSeconds` → `block_ttl_seconds`, `DedicatedIpv4` → `dedicated_ipv4`, `getFilterLists` →
 * `get_filter_lists`: an upper-case letter starts a word; digits stay with the word before them.
 *
 * @example
 * ```ts
 * snake("dnsOverHttpsUrl"); // "dns_over_https_url"
 * ```
 */
export function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

/** The package's camelCase property names, longest first, as one pattern (built on first use). */
let camelNames: RegExp | undefined;
/** The package's resource types (`DnsServer`), never part of a longer name. */
let typeNames: RegExp | undefined;
/** The package's functions (`the getAccountLimits function`, or the bare name). */
let functionNames: RegExp | undefined;

/**
 * Names of the package in tofu's: camelCase property names in snake_case (`dnsServerId` →
 * `dns_server_id`), resource types as tofu's (`DnsServer` → `dnsaccount_dns_server`), functions as data
 * sources (`the getAccountLimits function` → `the dnsaccount_account_limits data source`). Only names
 * change: the messages and descriptions it takes never hold values.
 *
 * @example
 * ```ts
 * tofuNames("a DnsServer's serverId"); // "a dnsaccount_dns_server's server_id"
 * ```
 */
export function tofuNames(text: string, schema: Document = document): string {
  if (!camelNames || schema !== document) {
    const names = [...new Set(programNames(schema).values())].filter((n) => /[A-Z]/.test(n)).sort((a, b) => b.length - a.length);
    const types = Object.keys(schema.resources).map((t) => t.split(":").pop()!);
    const functions = Object.keys(schema.functions).map((t) => t.split(":").pop()!);
    const built = {
      camel: new RegExp(`(?<![A-Za-z0-9_:-])(${names.join("|")})(?![A-Za-z0-9_])`, "g"),
      // A type that is also an English word (`Device`, `Token`: one capital) only after an article or before
      // `'s` ("a Token's", "the Device"), so that "Device settings to manage." stays a sentence.
      types: new RegExp(
        `(?<![A-Za-z0-9_.:])(${types.filter((t) => /[A-Z].*[A-Z]/.test(t)).join("|")})(?![A-Za-z0-9_])` +
          `|(?<=\\b(?:[Aa]n?|[Tt]he|[Ee]ach) )(${types.filter((t) => !/[A-Z].*[A-Z]/.test(t)).join("|")})(?![A-Za-z0-9_])` +
          `|(?<![A-Za-z0-9_.:])(${types.filter((t) => !/[A-Z].*[A-Z]/.test(t)).join("|")})(?='s)`,
        "g",
      ),
      functions: new RegExp(`(?:the )?(?<![A-Za-z0-9_.:])(${functions.join("|")})(?![A-Za-z0-9_])(?: function)?`, "g"),
    };
    if (schema !== document) return rename(text, built.camel, built.types, built.functions);
    (camelNames = built.camel), (typeNames = built.types), (functionNames = built.functions);
  }
  return rename(text, camelNames, typeNames!, functionNames!);
}

function rename(text: string, camel: RegExp, types: RegExp, functions: RegExp): string {
  return text
    .replace(functions, (_m, name: string) => `the ${dataSourceType(name)} data source`)
    .replace(types, (name: string) => resourceType(name))
    .replace(camel, (n) => snake(n));
}

/**
 * What the package schema says in the Pulumi surface's words (the program, stack config, `pulumi
 * refresh`, an input's `name: value`), said for a configuration of tofu's, in order.
 */
const DESCRIPTION_WORDS: [RegExp, string][] = [
  // The examples are Pulumi programs in six languages: the registry docs of tofu (issue 35) have their own.
  [/\n*\{\{% examples %\}\}[\s\S]*?\{\{% \/examples %\}\}\n*/g, "\n"],
  // How to import is `pulumi import` there; tofu's registry docs say tofu's (an import block, examples/tofu/).
  [/\n*## Import\n[\s\S]*$/, ""],
  [/`pulumi refresh` shows drift in them and `up` repairs it/g, "`tofu plan` shows drift in them and `tofu apply` repairs it"],
  [/ \(the program forgets it, like Pulumi's `retainOnDelete`\)/g, " (the state forgets it, as a `removed` block with `destroy = false` would)"],
  [/\(the program forgets it\)/g, "(the state forgets it)"],
  [/removing the resource from the program/g, "removing the resource from the configuration"],
  [/the program created/g, "the configuration created"],
  [/\(a Token's `baseUrl` and `refreshToken`, or an `apiKey`\); without them the provider's configuration,/g, "(a dnsaccount_token's `base_url` and `refresh_token`; an API key goes in the provider block); without them the provider block,"],
  [/a Token's `refreshToken` output/g, "a dnsaccount_token's `refresh_token`"],
  [/the provider's configuration/g, "the provider block"],
  [/the account resources and functions/g, "the account resources and data sources"],
  [/once per provider during `check` \(and so in every preview\)/g, "once per provider process when it first checks a resource (so in every plan)"],
  [/fails the preview/g, "fails the plan"],
];

/** The same, once the names are tofu's. */
const DESCRIPTION_WORDS_AFTER: [RegExp, string][] = [
  // One attribute holds the argument and what the state records of it: say how the state shows "unset".
  [/(Unset: an? (?:device|server) the configuration created is deleted, an adopted one is kept\.)/g, "$1 The state holds `false` when it is unset; `retain_on_destroy` says what destroy will do."],
  // An input set in the configuration: `name = value`.
  [/`(\w+): (true|false|"[^"`]*")`/g, "`$1 = $2`"],
  // A Token's `mode` holds a value, not a name: `refreshToken` is what the state says.
  [/`password` \(logged in\) or `refresh_token` \(adopted\)/g, "`password` (logged in) or `refreshToken` (a refresh token adopted): the value, as the state holds it"],
];

/**
 * A description of the package schema in tofu's words: no Pulumi examples, no program or stack config,
 * no `pulumi import`, the package's names as tofu's ({@link tofuNames}). The registry docs
 * (provider/tofu/registry-docs.ts, issue 35) are generated from these.
 *
 * @example
 * ```ts
 * tofuDescription("Whether destroy keeps it (the program forgets it): `deleteOnDestroy: false`.");
 * // "Whether destroy keeps it (the state forgets it): `delete_on_destroy = false`."
 * ```
 */
export function tofuDescription(text: string): string {
  let out = text;
  for (const [from, to] of DESCRIPTION_WORDS) out = out.replace(from, to);
  out = tofuNames(out);
  for (const [from, to] of DESCRIPTION_WORDS_AFTER) out = out.replace(from, to);
  return out.trim();
}

/** What a face keeps on the provider only: a resource's attribute of these names is dropped. */
const PROVIDER_ONLY = new Set(["password", "mfaToken", "apiKey", "username", "profile", "credentialCommand"]);

/**
 * Inputs the outputs only echo: the service never fills them in, so they are optional and not computed
 * (a plan shows them as written, not "known after apply").
 */
const DECLARED_ONLY = new Set(["adopt", "credentials", "dohPasswordKeepers", "keepers", "rotationPeriodSeconds", "renewBeforeSeconds"]);

/** How an attribute is to be set. */
type Mode = "required" | "optional" | "optional+computed" | "computed";

const local = (ref: string): string => ref.replace(/^#\/types\//, "");

function flags(mode: Mode): Pick<TfAttribute, "required" | "optional" | "computed"> {
  return { required: mode === "required", optional: mode === "optional" || mode === "optional+computed", computed: mode === "computed" || mode === "optional+computed" };
}

/** The cty type of a property that is no object type: JSON, as tfplugin6 carries it. */
function ctyType(schema: Document, p: PropertySpec): unknown {
  if (p.$ref) {
    const t = schema.types[local(p.$ref)];
    if (!t) throw new Error(`schema: no type ${p.$ref}`);
    if (t.enum) return t.type === "integer" || t.type === "number" ? "number" : t.type === "boolean" ? "bool" : "string";
    return ["object", Object.fromEntries(Object.entries(t.properties ?? {}).map(([k, v]) => [snake(k), ctyType(schema, v)]))];
  }
  switch (p.type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "bool";
    case "array":
      return ["list", ctyType(schema, p.items ?? { type: "string" })];
    case "object":
      return ["map", ctyType(schema, p.additionalProperties ?? { type: "string" })];
    default:
      throw new Error(`schema: no Terraform type for ${JSON.stringify(p)}`);
  }
}

/** The object type a property names (directly, or as a list's items), or undefined. */
function objectOf(schema: Document, p: PropertySpec): { type: ObjectSpec; nesting: "SINGLE" | "LIST" } | undefined {
  const ref = p.$ref ?? (p.type === "array" ? p.items?.$ref : undefined);
  if (!ref) return undefined;
  const type = schema.types[local(ref)];
  if (!type || type.enum) return undefined;
  return { type, nesting: p.$ref ? "SINGLE" : "LIST" };
}

/** One attribute; an object type becomes a nested attribute whose fields follow the outer mode. */
function attribute(schema: Document, name: string, p: PropertySpec, mode: Mode): TfAttribute {
  const base = {
    name: snake(name),
    description: tofuDescription(p.description ?? ""),
    description_kind: "PLAIN" as const,
    ...flags(mode),
    sensitive: p.secret === true,
    deprecated: p.deprecationMessage !== undefined,
    write_only: false,
  };
  const object = objectOf(schema, p);
  if (!object) return { ...base, type: Buffer.from(JSON.stringify(ctyType(schema, p))) };
  const required = new Set(object.type.required ?? []);
  const inner = (field: string): Mode => {
    if (mode === "computed") return "computed";
    if (mode === "optional+computed") return "optional+computed";
    return required.has(field) ? "required" : "optional";
  };
  const attributes = Object.entries(object.type.properties ?? {})
    .filter(([field]) => !PROVIDER_ONLY.has(field))
    .map(([field, fp]) => attribute(schema, field, fp, inner(field)));
  return { ...base, nested_type: { attributes, nesting: object.nesting } };
}

/**
 * An input object (`settings`, `credentials`) as a block, not a nested attribute: tofu refuses a
 * misspelled argument in a block ("Unsupported argument") but drops one in an object value without a
 * word (hashicorp/terraform#33570). Its object fields are blocks in turn.
 *
 * - An input only echoed (`credentials`) is a `SINGLE` block whose fields are optional (required where the
 *   type says so): the state holds what the configuration says.
 * - An input the service also holds (`serviceHeld`: `settings`) is a `GROUP` block, at every depth, whose
 *   fields are all optional and computed: what the configuration leaves out, tofu proposes as the state
 *   has it (the service's value, after a refresh or an import), so it plans no change; what it declares is
 *   managed. A field the type requires (a blocking mode's `mode`) is checked by the lifecycle when its
 *   object is declared, as the Pulumi faces do.
 *
 * @example
 * ```ts
 * inputBlock(document, "settings", serverSettings, true)!.nesting; // "GROUP"
 * ```
 */
function inputBlock(schema: Document, name: string, p: PropertySpec, serviceHeld = false): TfNestedBlock | undefined {
  const object = objectOf(schema, p);
  if (!object || object.nesting !== "SINGLE") return undefined;
  const required = new Set(object.type.required ?? []);
  const attributes: TfAttribute[] = [];
  const blocks: TfNestedBlock[] = [];
  for (const [field, fp] of Object.entries(object.type.properties ?? {})) {
    if (PROVIDER_ONLY.has(field)) continue;
    const nested = inputBlock(schema, field, fp, serviceHeld);
    if (nested) blocks.push(nested);
    else attributes.push(attribute(schema, field, fp, serviceHeld ? "optional+computed" : required.has(field) ? "required" : "optional"));
  }
  const description = tofuDescription(p.description ?? "");
  return { type_name: snake(name), block: block(attributes, description, blocks).block, nesting: serviceHeld ? "GROUP" : "SINGLE", min_items: 0, max_items: 0 };
}

function block(attributes: TfAttribute[], description = "", blockTypes: TfNestedBlock[] = []): TfSchema {
  return {
    version: 0,
    block: {
      version: 0,
      attributes: attributes.sort((a, b) => a.name.localeCompare(b.name)),
      block_types: blockTypes.sort((a, b) => a.type_name.localeCompare(b.type_name)),
      description,
      description_kind: "PLAIN",
      deprecated: false,
    },
  };
}

const ID: PropertySpec = { type: "string", description: "The object's id at the service." };

/**
 * The OpenTofu type of a package resource token: `dns-account:index:DnsServer` → `dnsaccount_dns_server`.
 *
 * @example
 * ```ts
 * resourceType("dns-account:index:DedicatedIpv4"); // "dnsaccount_dedicated_ipv4"
 * ```
 */
export function resourceType(token: string): string {
  return `${PROVIDER_TYPE}_${snake(token.split(":").pop()!)}`;
}

/**
 * The OpenTofu data source of a package function token: `dns-account:index:getFilterLists` → `dnsaccount_filter_lists`.
 *
 * @example
 * ```ts
 * dataSourceType("dns-account:index:getAccountLimits"); // "dnsaccount_account_limits"
 * ```
 */
export function dataSourceType(token: string): string {
  return `${PROVIDER_TYPE}_${snake(token.split(":").pop()!.replace(/^get/, ""))}`;
}

/**
 * Every property name of the package schema by its snake_case name (`block_ttl_seconds` →
 * `blockTtlSeconds`): how the face turns tofu's values back into the lifecycles' inputs. Two names that
 * meet in snake_case would make that ambiguous, so they fail here.
 *
 * @example
 * ```ts
 * programNames().get("dns_server_id"); // "dnsServerId"
 * ```
 */
export function programNames(schema: Document = document): Map<string, string> {
  const names = new Map<string, string>([["id", "id"]]);
  const add = (props: Record<string, PropertySpec> | undefined) => {
    for (const name of Object.keys(props ?? {})) {
      const tf = snake(name);
      const held = names.get(tf);
      if (held !== undefined && held !== name) throw new Error(`schema: ${held} and ${name} are both ${tf} in OpenTofu`);
      names.set(tf, name);
    }
  };
  add(schema.config.variables);
  for (const r of Object.values(schema.resources)) (add(r.inputProperties), add(r.properties));
  for (const t of Object.values(schema.types)) add(t.properties);
  for (const f of Object.values(schema.functions)) (add(f.inputs.properties), add(f.outputs.properties));
  return names;
}

/**
 * The provider block, every resource and every data source, from the package schema.
 *
 * @example
 * ```ts
 * const { resources } = terraformSchema();
 * resources["dnsaccount_device"]!.block.attributes.map((a) => a.name); // ["credentials", "device_id", …]
 * ```
 */
export function terraformSchema(schema: Document = document): TfProviderSchema {
  const provider = block(Object.entries(schema.config.variables).map(([name, p]) => attribute(schema, name, p, "optional")));
  const resources: Record<string, TfSchema> = {};
  for (const [token, r] of Object.entries(schema.resources)) {
    const required = new Set(r.requiredInputs ?? []);
    const attrs = new Map<string, TfAttribute>();
    const blocks = new Map<string, TfNestedBlock>();
    for (const [name, p] of Object.entries(r.inputProperties)) {
      if (PROVIDER_ONLY.has(name)) continue;
      // An input object the outputs also hold (`settings`), and that they do not only echo, is the service's too.
      const nested = inputBlock(schema, name, p, name in r.properties && !DECLARED_ONLY.has(name));
      if (nested) {
        blocks.set(name, nested);
        continue;
      }
      const mode: Mode = required.has(name) ? "required" : name in r.properties && !DECLARED_ONLY.has(name) ? "optional+computed" : "optional";
      attrs.set(name, attribute(schema, name, p, mode));
    }
    for (const [name, p] of Object.entries(r.properties)) {
      // What only the provider block takes is no input here, but a Token still says which user it is of.
      if (attrs.has(name) || blocks.has(name) || (PROVIDER_ONLY.has(name) && (name !== "username" || p.secret === true))) continue;
      attrs.set(name, attribute(schema, name, p, "computed"));
    }
    if (!attrs.has("id")) attrs.set("id", attribute(schema, "id", ID, "computed"));
    resources[resourceType(token)] = block([...attrs.values()], tofuDescription(r.description ?? ""), [...blocks.values()]);
  }
  const dataSources: Record<string, TfSchema> = {};
  for (const [token, f] of Object.entries(schema.functions)) {
    const attrs: TfAttribute[] = [];
    const blocks: TfNestedBlock[] = [];
    for (const [name, p] of Object.entries(f.inputs.properties ?? {})) {
      const nested = inputBlock(schema, name, p);
      if (nested) blocks.push(nested);
      else attrs.push(attribute(schema, name, p, "optional"));
    }
    for (const [name, p] of Object.entries(f.outputs.properties ?? {})) attrs.push(attribute(schema, name, p, "computed"));
    dataSources[dataSourceType(token)] = block(attrs, tofuDescription(f.description ?? ""), blocks);
  }
  return { provider, resources, dataSources };
}
