import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { _repoRoot } from "../support/helpers";
import { MEMBERS } from "./sdks/enum-members";

const root = _repoRoot();
const read = (...parts: string[]) => readFileSync(path.join(root, ...parts), "utf8");

interface EnumValue {
  name?: string;
  value: string;
}
interface Property {
  $ref?: string;
  type?: string;
  additionalProperties?: unknown;
  properties?: Record<string, Property>;
  secret?: boolean;
}
const SCHEMA = JSON.parse(read("provider", "schema", "schema.json")) as {
  types: Record<string, { enum?: EnumValue[]; type?: string; properties?: Record<string, Property>; additionalProperties?: unknown }>;
  resources: Record<string, { properties: Record<string, Property> }>;
};

type Language = "python" | "go" | "nodejs" | "dotnet" | "java";

/** The members an SDK declares for `type`, as [member, value] pairs in order, read from its source. */
function declared(lang: Language, type: string): [string, string][] {
  const pairs = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => [m[1]!, m[2]!] as [string, string]);
  const block = (text: string, start: RegExp, end: RegExp) => {
    const from = text.search(start);
    assert.ok(from >= 0, `${lang}: ${type} is declared`);
    const rest = text.slice(from);
    return rest.slice(0, rest.search(end));
  };
  switch (lang) {
    case "python":
      return pairs(block(read("sdks", "python", "pulumi_dns_account", "_enums.py"), new RegExp(`^class ${type}\\(`, "m"), /\n\n\n|$(?![\s\S])/), /^ {4}(\w+) = "([^"]*)"$/gm);
    case "go":
      return pairs(read("sdks", "go", "dnsaccount", "pulumiEnums.go"), new RegExp(`^\\t(\\w+) = ${type}\\("([^"]*)"\\)$`, "gm"));
    case "nodejs":
      return pairs(block(read("sdks", "nodejs", "types", "enums", "index.ts"), new RegExp(`^export const ${type} = \\{`, "m"), /^\} as const;/m), /^ {4}(\w+): "([^"]*)",$/gm);
    case "dotnet":
      return pairs(read("sdks", "dotnet", "Enums.cs"), new RegExp(`public static ${type} (\\w+) \\{ get; \\} = new ${type}\\("([^"]*)"\\);`, "g"));
    case "java":
      return pairs(read("sdks", "java", "src", "main", "java", "io", "github", "pulumidnsaccount", "dnsaccount", "enums", `${type}.java`), /^ {8}(\w+)\("([^"]*)"\)[,;]$/gm);
  }
}

/** Every Markdown file under docs/api-docs, by path. */
function apiDocs(): Map<string, string> {
  const dir = path.join(root, "docs", "api-docs");
  const pages = new Map<string, string>();
  for (const f of readdirSync(dir, { recursive: true, encoding: "utf8" })) if (f.endsWith(".md")) pages.set(f, readFileSync(path.join(dir, f), "utf8"));
  return pages;
}

/** A page without its fenced code blocks (the schema's examples, signatures, import commands). */
const prose = (page: string) => page.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");

/**
 * Issue 32 §5: enum members that read as users expect in every SDK (no `SMAR_T_TV`, one Go form),
 * a typed `dnsAddresses`, and API docs that read on GitHub. Reads the schema and the committed SDKs
 * and docs only (sdks.test.ts holds them to the schema byte for byte, and builds and runs them):
 * milliseconds.
 */
describe("schema: enum names, typed DNS addresses, API docs for GitHub", () => {
  const enums = Object.entries(SCHEMA.types).filter(([, t]) => t.enum !== undefined);

  it("every enum value of the schema has a PascalCase `name`, unique in its enum", () => {
    assert.deepEqual(enums.map(([token]) => token.split(":").pop()).sort(), Object.keys(MEMBERS).sort());
    for (const [token, t] of enums) {
      const names = t.enum!.map((e) => e.name);
      for (const e of t.enum!) assert.match(e.name ?? "", /^[A-Z][A-Za-z0-9]*$/, `${token} ${e.value}: a PascalCase name`);
      assert.equal(new Set(names).size, names.length, `${token}: names are unique`);
    }
  });

  for (const lang of ["python", "go", "nodejs", "dotnet", "java"] as const) {
    it(`the ${lang} SDK's enum members are the expected identifiers, one per value`, () => {
      for (const [type, values] of Object.entries(MEMBERS)) {
        const want = Object.entries(values).map(([value, m]) => [lang === "python" || lang === "go" ? m[lang] : m.other, value]);
        assert.deepEqual(declared(lang, type), want, `${lang}: ${type}`);
      }
    });
  }

  it("no SDK, API docs page or example spells a member in the old mangled forms", () => {
    const mangled = /\b(?:SMAR_T_TV|GAM_E_CONSOLE|NUL_L_IP|CUSTO_M_IP|DeviceType_\w+|BlockingModeKind_\w+|DeviceType(?:WINDOWS|ANDROID|MAC|LINUX|ROUTER|UNKNOWN)|BlockingModeKind(?:NONE|REFUSED|NXDOMAIN))\b/;
    const files = [
      ...["sdks/python/pulumi_dns_account/_enums.py", "sdks/go/dnsaccount/pulumiEnums.go", "sdks/go/dnsaccount/device.go", "sdks/go/dnsaccount/dnsServer.go", "examples/go-home-network/homenetwork/homenetwork.go", "examples/python-home-network/__main__.py", "examples/java-home-network/src/main/java/homenetwork/App.java"].map((f) => [f, read(f)] as const),
      ...[...apiDocs()].map(([f, text]) => [`docs/api-docs/${f}`, text] as const),
    ];
    assert.deepEqual(files.filter(([, text]) => mangled.test(text)).map(([f, text]) => `${f}: ${mangled.exec(text)![0]}`), []);
    // The pages list each language's members: Python's are the values, Go's carry the type's name.
    const device = apiDocs().get(path.join("device", "_index.md"))!;
    for (const member of ["`SMART_TV` = `\"SMART_TV\"`", "`DeviceTypeSmartTV` = `\"SMART_TV\"`", "`SmartTV` = `\"SMART_TV\"`"]) assert.ok(device.includes(member), member);
  });

  it("a Device's dnsAddresses and dnsAddressesWithAuth are object types with optional string fields (the latter secret), and the SDKs have typed accessors", () => {
    const device = SCHEMA.resources["dns-account:index:Device"]!.properties;
    for (const [property, type, field] of [
      ["dnsAddresses", "DnsAddresses", "dnsOverHttpsUrl"],
      ["dnsAddressesWithAuth", "DnsAddressesWithAuth", "dnsOverHttpsWithAuthUrl"],
    ] as const) {
      assert.equal(device[property]!.$ref, `#/types/dns-account:index:${type}`, `${property} refers to an object type`);
      assert.equal(device[property]!.additionalProperties, undefined);
      const spec = SCHEMA.types[`dns-account:index:${type}`]!;
      assert.equal(spec.type, "object");
      assert.equal((spec as { required?: string[] }).required, undefined, `${type}: every field optional (the service may add or leave out kinds)`);
      assert.ok(spec.properties![field], `${type}.${field}`);
      for (const [name, p] of Object.entries(spec.properties!)) {
        assert.equal(p.type, "string", `${type}.${name}`);
        assert.equal(p.secret === true, property === "dnsAddressesWithAuth", `${type}.${name}: secret exactly when it embeds the DoH password`);
      }
    }
    // Python: an output class with a property per field; Go: an output type with a method per field.
    const outputs = read("sdks", "python", "pulumi_dns_account", "outputs.py");
    assert.match(outputs, /^class DnsAddresses\(dict\):/m);
    assert.match(outputs, /^ {4}def dns_over_https_url\(self\) -> Optional\[_builtins\.str\]:/m);
    assert.match(read("sdks", "python", "pulumi_dns_account", "device.py"), /def dns_addresses\(self\) -> pulumi\.Output\['outputs\.DnsAddresses'\]:/);
    const goDevice = read("sdks", "go", "dnsaccount", "device.go");
    assert.match(goDevice, /^\tDnsAddresses DnsAddressesOutput `pulumi:"dnsAddresses"`$/m);
    assert.match(goDevice, /^\tDnsAddressesWithAuth DnsAddressesWithAuthOutput `pulumi:"dnsAddressesWithAuth"`$/m);
    assert.match(read("sdks", "go", "dnsaccount", "pulumiTypes.go"), /^func \(o DnsAddressesOutput\) DnsOverHttpsUrl\(\) pulumi\.StringPtrOutput \{$/m);
    assert.match(read("sdks", "nodejs", "device.ts"), /readonly dnsAddresses: pulumi\.Output<outputs\.DnsAddresses>;/);
    // The generated docs no longer index the addresses by string in any language.
    for (const [f, text] of apiDocs()) assert.doesNotMatch(text, /MapIndex\(pulumi\.String\("dnsOverHttpsUrl"\)\)|addresses\["dnsOverHttpsUrl"\]|addresses\.get\("dnsOverHttpsUrl"\)/, f);
  });

  it("the API docs read on GitHub: Markdown without the Registry's HTML, headings without {#id}, site links absolute, a page folder linked by its _index.md", () => {
    const pages = apiDocs();
    assert.ok(pages.size >= 10);
    const html = /<(?:pulumi-[\w-]+|div|span|dl|dt|dd|pre|code|h\d|ul|li|a|wbr|p)\b/;
    for (const [f, page] of pages) {
      const text = prose(page);
      assert.doesNotMatch(text, html, `${f}: no Registry HTML outside fenced code (${html.exec(text)?.[0]})`);
      assert.doesNotMatch(text, /\{#[\w-]+\}/, `${f}: no Hugo heading ids`);
      assert.doesNotMatch(text, /\]\(\/(?!\/)/, `${f}: no site-relative links`);
      assert.doesNotMatch(text, /\]\([\w-]+\/\)/, `${f}: a page is linked by its _index.md`);
      // What a reader looks for is still there: the examples by language and the properties as a list.
      if (f !== "_index.md" && f !== path.join("provider", "_index.md")) assert.match(page, /^<summary>Python<\/summary>$/m, f);
    }
    assert.match(pages.get(path.join("device", "_index.md"))!, /^- \*\*`dns_addresses`\*\* \(\[`DnsAddresses`\]\(#dnsaddresses\)\): /m);
    assert.match(pages.get("_index.md")!, /^- \[Device\]\(device\/_index\.md\)$/m);
    // The Registry's HTML took 213 KB for DnsServer; the Markdown about a third of it.
    const size = statSync(path.join(root, "docs", "api-docs", "dnsserver", "_index.md")).size;
    assert.ok(size < 100_000, `the DnsServer page is ${size} bytes`);
  });
});
