/**
 * The OpenTofu/Terraform provider's registry documentation (issue 35 §2), generated from the schema the
 * face serves ({@link terraformSchema}), so the docs and the provider can never disagree. The layout is the
 * registries' own (what `tfplugindocs` writes for Terraform providers): `index.md` for the provider, then a
 * page per resource (`resources/<name>.md`) and per data source (`data-sources/<name>.md`), `<name>` being the
 * type without its `dnsaccount_` prefix. Each page has YAML front matter, the example usage, the argument and
 * attribute reference (required, optional, read-only; sensitive and write-only marked; nested blocks and
 * attributes linked) and, for what can be imported, an import section.
 *
 * The examples are files of `examples/tofu/` in the registries' layout (`provider/provider.tf`,
 * `resources/<type>/resource.tf`, `import.tf`, `import.sh`, `data-sources/<type>/data-source.tf`), which a tofu
 * test validates and plans against the emulator. `npm run docs:tofu` writes the pages into `docs/tofu/`; a
 * unit test fails when they are stale.
 */
import { type TfAttribute, type TfBlock, type TfProviderSchema, PROVIDER_TYPE, terraformSchema } from "./schema";

/** Reads an example file of `examples/tofu/` by its path there (`resources/dnsaccount_device/resource.tf`); undefined when absent. */
export type ExampleReader = (relativePath: string) => string | undefined;

const PREFIX = `${PROVIDER_TYPE}_`;

/** The text of a description up to Pulumi's example shortcodes (`{{% examples %}}`), trimmed. */
function prose(description: string): string {
  const cut = description.indexOf("{{%");
  return (cut >= 0 ? description.slice(0, cut) : description).trim();
}

/** A description's prose on one line (its line breaks as spaces), for an attribute's line; "" when it has none. */
function proseLine(description: string): string {
  return prose(description).replace(/\s*\n\s*/g, " ");
}

/** The first paragraph of a description on one line, its spaces collapsed, for front matter and one-line summaries. */
function summary(description: string): string {
  return proseLine(prose(description).split(/\n\s*\n/)[0]!).replace(/\s+/g, " ").trim();
}

/** A cty type (the schema's JSON bytes) as the registries write it: `String`, `List of String`, `Map of Number`. */
function typeName(type: Buffer | Uint8Array | undefined): string {
  if (!type) return "Attributes";
  const t = JSON.parse(Buffer.from(type).toString("utf8")) as unknown;
  const name = (x: unknown): string => {
    if (x === "string") return "String";
    if (x === "number") return "Number";
    if (x === "bool") return "Boolean";
    if (x === "dynamic") return "Dynamic";
    if (Array.isArray(x)) {
      const [kind, of] = x as [string, unknown];
      if (kind === "list") return `List of ${name(of)}`;
      if (kind === "set") return `Set of ${name(of)}`;
      if (kind === "map") return `Map of ${name(of)}`;
      if (kind === "object") return "Object";
    }
    return "Dynamic";
  };
  return name(t);
}

/** An anchor for a nested schema (`nestedblock--settings--user_rules`). */
function anchor(kind: "nestedblock" | "nestedatt", path: readonly string[]): string {
  return `${kind}--${path.join("--")}`;
}

interface Section {
  anchor?: string;
  title?: string;
  lines: { required: string[]; optional: string[]; readOnly: string[] };
}

/** One attribute's line: name, type and marks, then its description; a nested one links to its schema. */
function attributeLine(a: TfAttribute, path: readonly string[], sections: Section[]): string {
  const marks: string[] = [];
  let kind: string;
  if (a.nested_type) {
    kind = a.nested_type.nesting === "LIST" ? "Attributes List" : a.nested_type.nesting === "MAP" ? "Attributes Map" : "Attributes";
    const at = [...path, a.name];
    nestedSection("nestedatt", at, { attributes: a.nested_type.attributes, block_types: [] }, sections);
    marks.push(`see [below for nested schema](#${anchor("nestedatt", at)})`);
  } else kind = typeName(a.type);
  const flags = [kind, ...(a.sensitive ? ["Sensitive"] : []), ...(a.write_only ? ["Write-only"] : []), ...(a.deprecated ? ["Deprecated"] : [])];
  const text = proseLine(a.description);
  return `- \`${a.name}\` (${flags.join(", ")})${text ? ` ${text}` : ""}${marks.length ? ` (${marks.join("; ")})` : ""}`;
}

/** Sorts a block's attributes and nested blocks into required, optional and read-only lines. */
function fill(block: Pick<TfBlock, "attributes" | "block_types">, path: readonly string[], section: Section, sections: Section[]): void {
  const attrs = [...block.attributes].sort((x, y) => x.name.localeCompare(y.name));
  for (const a of attrs) {
    const line = attributeLine(a, path, sections);
    if (a.required) section.lines.required.push(line);
    else if (a.optional) section.lines.optional.push(line);
    else section.lines.readOnly.push(line);
  }
  for (const b of [...block.block_types].sort((x, y) => x.type_name.localeCompare(y.type_name))) {
    const at = [...path, b.type_name];
    nestedSection("nestedblock", at, b.block, sections);
    const text = proseLine(b.block.description);
    section.lines.optional.push(`- \`${b.type_name}\` (Block, Optional)${text ? ` ${text}` : ""} (see [below for nested schema](#${anchor("nestedblock", at)}))`);
  }
}

function nestedSection(kind: "nestedblock" | "nestedatt", path: readonly string[], block: Pick<TfBlock, "attributes" | "block_types">, sections: Section[]): void {
  const section: Section = { anchor: anchor(kind, path), title: `Nested Schema for \`${path.join(".")}\``, lines: { required: [], optional: [], readOnly: [] } };
  sections.push(section);
  fill(block, path, section, sections);
}

/** The schema part of a page: the top block's lists, then every nested schema in the order they are linked. */
function schemaMarkdown(block: TfBlock): string {
  const top: Section = { lines: { required: [], optional: [], readOnly: [] } };
  const nested: Section[] = [];
  fill(block, [], top, nested);
  const out: string[] = ["## Schema", ""];
  const lists = (s: Section, level: string): void => {
    for (const [title, lines] of [["Required", s.lines.required], ["Optional", s.lines.optional], ["Read-Only", s.lines.readOnly]] as const) {
      if (lines.length === 0) continue;
      out.push(`${level} ${title}`, "", ...lines, "");
    }
  };
  lists(top, "###");
  for (const s of nested) {
    out.push(`<a id="${s.anchor}"></a>`, `### ${s.title}`, "");
    lists(s, "####");
  }
  return out.join("\n").trimEnd() + "\n";
}

/** A fenced block of an example file, or nothing when the file is absent. */
function fenced(lang: string, text: string | undefined): string[] {
  return text === undefined ? [] : ["```" + lang, text.trimEnd(), "```", ""];
}

function frontMatter(title: string, description: string): string {
  const lines = summary(description) || title;
  return ["---", `page_title: "${title}"`, 'subcategory: ""', "description: |-", `  ${lines}`, "---", ""].join("\n");
}

/** The pages for one resource or data source. */
function typePage(kind: "Resource" | "Data Source", type: string, block: TfBlock, examples: ExampleReader): string {
  const folder = kind === "Resource" ? "resources" : "data-sources";
  const out: string[] = [frontMatter(`${type} ${kind} - ${PROVIDER_TYPE}`, block.description), `# ${type} (${kind})`, "", prose(block.description), ""];
  const example = examples(`${folder}/${type}/${kind === "Resource" ? "resource.tf" : "data-source.tf"}`);
  if (example !== undefined) out.push("## Example Usage", "", ...fenced("terraform", example));
  out.push(schemaMarkdown(block));
  if (kind === "Resource") {
    const importBlock = examples(`${folder}/${type}/import.tf`);
    const importShell = examples(`${folder}/${type}/import.sh`);
    if (importBlock !== undefined || importShell !== undefined) {
      out.push("## Import", "");
      if (importBlock !== undefined) out.push("In OpenTofu or Terraform 1.5 and later, with an `import` block:", "", ...fenced("terraform", importBlock));
      if (importShell !== undefined) out.push("Or with the `import` command:", "", ...fenced("shell", importShell));
    } else out.push("## Import", "", "This resource cannot be imported.", "");
  }
  return out.join("\n").trimEnd() + "\n";
}

/** The provider's page: the provider block's example, how it finds credentials, and its arguments. */
function indexPage(schema: TfProviderSchema, examples: ExampleReader): string {
  const out: string[] = [
    frontMatter(`Provider: ${PROVIDER_TYPE}`, "The account of an AdGuard DNS-compatible service as code: DNS servers and their settings, devices, dedicated IPv4 addresses and tokens."),
    `# ${PROVIDER_TYPE} Provider`,
    "",
    "The account of an AdGuard DNS-compatible service as code, through its Account API: DNS servers and their",
    "settings, devices, dedicated IPv4 addresses, and tokens that other resources and providers use.",
    "",
    "## Example Usage",
    "",
    ...fenced("terraform", examples("provider/provider.tf")),
    "## Authentication",
    "",
    "Give one kind of credential. The provider looks for credentials in this order, and uses the first it finds:",
    "",
    "1. a resource's own `credentials` block (a `dnsaccount_token`'s `base_url` and `refresh_token`);",
    "2. the provider block: `api_key`; else `refresh_token` or `username` with `password` (and `mfa_token`),",
    "   not both; else `profile`; else `credential_command`;",
    "3. the environment, in the same order: `DNS_ACCOUNT_API_KEY`; `DNS_ACCOUNT_ACCESS_TOKEN`;",
    "   `DNS_ACCOUNT_REFRESH_TOKEN` or `DNS_ACCOUNT_USERNAME` with `DNS_ACCOUNT_PASSWORD`; `DNS_ACCOUNT_PROFILE`;",
    "4. the default profile of the `dns-account` CLI (`dns-account login`);",
    "5. `DNS_ACCOUNT_CREDENTIAL_COMMAND`.",
    "",
    "Passwords, MFA codes and API keys are never stored in the state: only the provider block and the",
    "environment take them. A password login's refresh token is revoked when the provider process ends.",
    "Tokens and DoH passwords that resources return are sensitive; tofu keeps sensitive values in plain text",
    "in its state unless state encryption is on (OpenTofu 1.7 and later).",
    "",
    "Several accounts are used through provider aliases (`alias = \"office\"`, then `provider = dnsaccount.office`).",
    "",
  ];
  out.push(schemaMarkdown(schema.provider.block));
  out.push("## Resources", "", ...Object.keys(schema.resources).sort().map((t) => `- [${t}](resources/${t.slice(PREFIX.length)}.md)`), "");
  out.push("## Data Sources", "", ...Object.keys(schema.dataSources).sort().map((t) => `- [${t}](data-sources/${t.slice(PREFIX.length)}.md)`), "");
  return out.join("\n").trimEnd() + "\n";
}

/**
 * Every registry page, by its path under the docs folder (`index.md`, `resources/device.md`, …).
 *
 * @example
 * ```ts
 * const pages = registryDocs((p) => readFileSync(`examples/tofu/${p}`, "utf8"));
 * pages.get("resources/device.md"); // "---\npage_title: \"dnsaccount_device Resource - dnsaccount\"…"
 * ```
 */
export function registryDocs(examples: ExampleReader, schema: TfProviderSchema = terraformSchema()): Map<string, string> {
  const pages = new Map<string, string>();
  pages.set("index.md", indexPage(schema, examples));
  for (const [type, s] of Object.entries(schema.resources).sort(([a], [b]) => a.localeCompare(b))) {
    pages.set(`resources/${type.slice(PREFIX.length)}.md`, typePage("Resource", type, s.block, examples));
  }
  for (const [type, s] of Object.entries(schema.dataSources).sort(([a], [b]) => a.localeCompare(b))) {
    pages.set(`data-sources/${type.slice(PREFIX.length)}.md`, typePage("Data Source", type, s.block, examples));
  }
  return pages;
}
