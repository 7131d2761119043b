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
 *   value that apply changes, unless it is computed); what only the service sets is computed.
 * - Secrets are `sensitive`; each resource has the conventional computed `id`.
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

/** A tfplugin6 `Schema`. */
export interface TfSchema {
  version: number;
  block: { version: number; attributes: TfAttribute[]; block_types: []; description: string; description_kind: "PLAIN"; deprecated: boolean };
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

/** What a face keeps on the provider only: a resource's attribute of these names is dropped. */
const PROVIDER_ONLY = new Set(["password", "mfaToken", "apiKey", "username", "profile", "credentialCommand"]);

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
    description: p.description ?? "",
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

function block(attributes: TfAttribute[], description = ""): TfSchema {
  return { version: 0, block: { version: 0, attributes: attributes.sort((a, b) => a.name.localeCompare(b.name)), block_types: [], description, description_kind: "PLAIN", deprecated: false } };
}

const ID: PropertySpec = { type: "string", description: "The object's id at the service." };

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
    for (const [name, p] of Object.entries(r.inputProperties)) {
      if (PROVIDER_ONLY.has(name)) continue;
      const mode: Mode = required.has(name) ? "required" : name in r.properties ? "optional+computed" : "optional";
      attrs.set(name, attribute(schema, name, p, mode));
    }
    for (const [name, p] of Object.entries(r.properties)) {
      if (attrs.has(name) || PROVIDER_ONLY.has(name)) continue;
      attrs.set(name, attribute(schema, name, p, "computed"));
    }
    if (!attrs.has("id")) attrs.set("id", attribute(schema, "id", ID, "computed"));
    resources[`${PROVIDER_TYPE}_${snake(token.split(":").pop()!)}`] = block([...attrs.values()], r.description);
  }
  const dataSources: Record<string, TfSchema> = {};
  for (const [token, f] of Object.entries(schema.functions)) {
    const attrs: TfAttribute[] = [];
    for (const [name, p] of Object.entries(f.inputs.properties ?? {})) attrs.push(attribute(schema, name, p, "optional"));
    for (const [name, p] of Object.entries(f.outputs.properties ?? {})) attrs.push(attribute(schema, name, p, "computed"));
    dataSources[`${PROVIDER_TYPE}_${snake(token.split(":").pop()!.replace(/^get/, ""))}`] = block(attrs, f.description);
  }
  return { provider, resources, dataSources };
}
