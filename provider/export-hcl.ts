/**
 * `dns-account export --format hcl` (issue 35): the account's DNS servers, devices and dedicated IPv4
 * addresses as an OpenTofu/Terraform configuration: for each object an `import {}` block (OpenTofu and
 * Terraform 1.5 or newer) and the `resource` block that describes it. The resource blocks are written
 * from the OpenTofu face's own schema ({@link terraformSchema}), so their argument and block names are
 * the provider's and cannot drift; the values are the ones an import reads ({@link exportAccount}), so
 * `tofu plan` shows only the imports and no change.
 *
 * Nothing the service returns is written outside a quoted string: names become identifiers of
 * `[a-z0-9_]` only, and every string is escaped for HCL (`\\`, `\"`, `\n`, `\uNNNN` for controls and
 * bidi/format characters, `$${` and `%%{` for what would open a template sequence).
 */
import type { ExportedResource } from "./export";
import { resourceName, uniqueNamer } from "./export";
import { resourceType, terraformSchema, type TfAttribute, type TfBlock } from "./tofu/schema";
import { blockShape, fromProgram, type TfValue } from "./tofu/values";

/** The provider's source address, as `required_providers` names it. */
export const HCL_PROVIDER_SOURCE = "registry.opentofu.org/pulumi-dns-account/dnsaccount";

/**
 * What a string literal cannot hold as it is: `\`, `"`, line breaks and tabs; `$` or `%` opening a
 * template sequence; a lone UTF-16 surrogate; C0 and C1 controls, DEL, format characters (bidi), line and
 * paragraph separators. With the `u` flag a surrogate pair is one code point, so only a lone surrogate
 * matches `[\uD800-\uDFFF]`.
 */
const SPECIAL = /[\\"\n\r\t]|[$%](?=\{)|[\uD800-\uDFFF]|[\u0000-\u001f\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu;
/** The short escapes, and the doubled `$` or `%` of a template sequence. */
const SHORT: Record<string, string> = { "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", $: "$$", "%": "%%" };

/**
 * A quoted HCL string literal that means exactly `value`: `\\`, `\"`, `\n`, `\r`, `\t`; controls,
 * bidi and other format characters as `\uNNNN` (`\UNNNNNNNN` beyond the BMP); `${` and `%{` as
 * `$${` and `%%{`, so no interpolation or template directive can start in it. A lone UTF-16
 * surrogate, which UTF-8 cannot carry, is written as U+FFFD. One pass of one regular expression, so the
 * literal costs about its own size in memory whatever the value holds.
 *
 * @example
 * ```ts
 * hclString('a "${b}"\n'); // '"a \\"$${b}\\"\\n"'
 * ```
 */
export function hclString(value: string): string {
  return `"${value.replace(SPECIAL, (ch) => {
    const short = SHORT[ch];
    if (short !== undefined) return short;
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) return "\\uFFFD";
    return cp > 0xffff ? `\\U${cp.toString(16).toUpperCase().padStart(8, "0")}` : `\\u${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  })}"`;
}

/**
 * An HCL identifier made of an object's name for a resource's label: lower-case ASCII letters, digits
 * and `_` (accents and quotes dropped, other runs one `_`), `_` first when it would start with a digit,
 * `fallback` when nothing is left.
 *
 * @example
 * ```ts
 * hclName("Kids' room", "device"); // "kids_room"
 * hclName("2nd floor", "device"); // "_2nd_floor"
 * ```
 */
export function hclName(name: string, fallback: string): string {
  const base = resourceName(name, "")
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/_{2,}/g, "_")
    .replace(/^_+|_+$/g, "");
  if (base === "") return fallback;
  return /^[0-9]/.test(base) ? `_${base}` : base;
}

/** What a resource of the export is called in the configuration: its type and label. */
interface Named {
  resource: ExportedResource;
  type: string;
  label: string;
}

/** Labels unique within each resource type: a second `phone` is `phone_2`. */
function labelled(resources: readonly ExportedResource[]): Named[] {
  const unique = new Map<string, (label: string) => string>();
  return resources.map((resource) => {
    const type = resourceType(`dns-account:index:${resource.kind}`);
    const raw = resource.kind === "DedicatedIpv4" ? `ip-${resource.id}` : resource.inputs.name ?? "";
    const base = hclName(raw, resource.kind === "DnsServer" ? "dns_server" : resource.kind === "Device" ? "device" : "dedicated_ipv4");
    let label = unique.get(type);
    if (!label) unique.set(type, (label = uniqueNamer((name, i) => `${name}_${i}`)));
    return { resource, type, label: label(base) };
  });
}

/** An HCL expression already written (a reference to another resource), not a value to quote. */
class Expression {
  constructor(readonly text: string) {}
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A value on one line: strings quoted, numbers as written, objects `{ key = value, … }`. */
function inline(value: TfValue | Expression, map: boolean): string {
  if (value instanceof Expression) return value.text;
  if (value === null) return "null";
  if (typeof value === "string") return hclString(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`export: the number ${value} has no HCL form`);
    return String(value);
  }
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map((v) => inline(v, false)).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => map || v !== null);
    if (entries.length === 0) return "{}";
    // A map's keys are data (quoted); an object's are the schema's names.
    const key = (k: string) => (!map && IDENTIFIER.test(k) ? k : hclString(k));
    return `{ ${entries.map(([k, v]) => `${key(k)} = ${inline(v, false)}`).join(", ")} }`;
  }
  throw new Error("export: a value not known yet cannot be written");
}

/** Whether an attribute's type is a map (its keys are data) rather than an object. */
function isMap(a: TfAttribute): boolean {
  if (a.nested_type) return a.nested_type.nesting === "MAP";
  const type = JSON.parse(Buffer.from(a.type ?? "").toString("utf8")) as unknown;
  return Array.isArray(type) && type[0] === "map";
}

/**
 * The body of a block: its arguments (`name` first, then the schema's order), each group of one-line
 * arguments with its `=` aligned as `tofu fmt` aligns them, then its nested blocks. Only what the
 * configuration sets is written (no computed-only attribute), and only what is not null; a block the
 * value holds empty is written empty (`schedule {}`), as it says something an absent one does not.
 */
function body(block: TfBlock, value: Record<string, TfValue | Expression>, indent: string): string[] {
  const lines: string[] = [];
  const settable = block.attributes.filter((a) => a.required || a.optional);
  const ordered = [...settable.filter((a) => a.name === "name"), ...settable.filter((a) => a.name !== "name")];
  let group: [string, string][] = [];
  const flush = () => {
    const width = Math.max(0, ...group.map(([k]) => k.length));
    for (const [k, v] of group) lines.push(`${indent}${k.padEnd(width)} = ${v}`);
    group = [];
  };
  for (const a of ordered) {
    const v = value[a.name];
    if (v === undefined || v === null) continue;
    if (Array.isArray(v) && v.length > 0) {
      // A list of one item per line: a multi-line argument stands alone (tofu fmt aligns no group across it).
      flush();
      lines.push(`${indent}${a.name} = [`, ...v.map((item) => `${indent}  ${inline(item, false)},`), `${indent}]`);
    } else group.push([a.name, inline(v, isMap(a))]);
  }
  flush();
  for (const b of block.block_types) {
    const v = value[b.type_name];
    if (v === undefined || v === null || v instanceof Expression || typeof v !== "object" || Array.isArray(v)) continue;
    const inner = body(b.block, v, `${indent}  `);
    lines.push(...(inner.length === 0 ? [`${indent}${b.type_name} {}`] : [`${indent}${b.type_name} {`, ...inner, `${indent}}`]));
  }
  return lines;
}

/** Options of {@link hclConfiguration}. */
export interface HclOptions {
  /**
   * Whether to start with `terraform { required_providers { dnsaccount = … } }` (default true): without
   * it, a configuration of its own resolves `dnsaccount` to `hashicorp/dnsaccount` and `tofu init` fails.
   */
  requiredProviders?: boolean;
}

/**
 * The export as an OpenTofu/Terraform configuration: the `required_providers` entry of the provider,
 * then for each DNS server, device and dedicated IPv4 address an `import` block and its `resource`
 * block with every managed setting. A device's `dns_server_id` and an address's `device_id` refer to
 * the exported resource (`dnsaccount_dns_server.home.id`); an id of an object not exported stays a
 * string. There is no `provider` block: the credentials are the user's (the environment, or a provider
 * block of their own).
 *
 * @example
 * ```ts
 * writeFileSync("account.tf", hclConfiguration(await exportAccount(client)));
 * // tofu init && tofu plan: "N to import, 0 to add, 0 to change, 0 to destroy"
 * ```
 */
export function hclConfiguration(resources: readonly ExportedResource[], options: HclOptions = {}): string {
  const schema = terraformSchema();
  const named = labelled(resources);
  const address = new Map(named.map((n) => [`${n.resource.kind}:${n.resource.id}`, `${n.type}.${n.label}`]));
  /** A reference to another exported resource's id, or the id as a string when it is not exported. */
  const ref = (kind: ExportedResource["kind"], id: string): Expression | string => {
    const to = address.get(`${kind}:${id}`);
    return to ? new Expression(`${to}.id`) : id;
  };
  const lines: string[] = [
    "# Made by dns-account export --format hcl: the account as it was, with an import block for each object.",
    "# tofu plan shows only imports and no change; after tofu apply, change a value here and apply applies it.",
    "",
  ];
  if (options.requiredProviders !== false) {
    lines.push(
      "# Drop this block if your configuration already declares the dnsaccount provider.",
      "terraform {",
      "  required_providers {",
      `    dnsaccount = { source = ${hclString(HCL_PROVIDER_SOURCE)} }`,
      "  }",
      "}",
      "",
    );
  }
  for (const { resource: r, type, label } of named) {
    const block = schema.resources[type]!.block;
    const value = fromProgram(r.inputs, blockShape(block)) as Record<string, TfValue | Expression>;
    if (r.kind === "Device" && r.inputs.dnsServerId !== undefined) value.dns_server_id = ref("DnsServer", r.inputs.dnsServerId);
    if (r.kind === "DedicatedIpv4" && r.inputs.deviceId !== undefined) value.device_id = ref("Device", r.inputs.deviceId);
    lines.push("import {", `  to = ${type}.${label}`, `  id = ${hclString(r.id)}`, "}", "");
    const inner = body(block, value, "  ");
    lines.push(...(inner.length === 0 ? [`resource ${hclString(type)} ${hclString(label)} {}`] : [`resource ${hclString(type)} ${hclString(label)} {`, ...inner, "}"]), "");
  }
  return `${lines.join("\n").replace(/\n+$/, "")}\n`;
}
