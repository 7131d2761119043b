import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { registryDocs } from "../../../provider/tofu/registry-docs";
import { type TfBlock, terraformSchema } from "../../../provider/tofu/schema";
import { _repoRoot } from "../../support/helpers";

const root = _repoRoot();
const examples = (relative: string): string | undefined => {
  const file = path.join(root, "examples", "tofu", relative);
  return existsSync(file) ? readFileSync(file, "utf8") : undefined;
};

/** Every file under `dir`, as paths relative to it. */
function files(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
}

/** Every attribute and nested block name of a block, with its nested ones. */
function names(block: Pick<TfBlock, "attributes" | "block_types">): { name: string; sensitive: boolean }[] {
  return [
    ...block.attributes.flatMap((a) => [{ name: a.name, sensitive: a.sensitive }, ...(a.nested_type ? names({ attributes: a.nested_type.attributes, block_types: [] }) : [])]),
    ...block.block_types.flatMap((b) => [{ name: b.type_name, sensitive: false }, ...names(b.block)]),
  ];
}

/**
 * Issue 35 §2: the OpenTofu/Terraform registry pages are generated from the schema the provider serves, in
 * the registries' layout, and docs/tofu/ holds exactly what the generator writes (`npm run docs:tofu`).
 */
describe("OpenTofu registry docs: generated from the served schema", () => {
  const schema = terraformSchema();
  const pages = registryDocs(examples, schema);

  it("docs/tofu/ is what `npm run docs:tofu` writes (run it after a schema or example change)", () => {
    const dir = path.join(root, "docs", "tofu");
    assert.deepEqual(files(dir).sort(), [...pages.keys()].sort());
    for (const [page, text] of pages) assert.equal(readFileSync(path.join(dir, page), "utf8"), text, `docs/tofu/${page} is stale: run npm run docs:tofu`);
  });

  it("a page per resource and data source, in the registries' layout, with front matter and an example", () => {
    const expected = [
      "index.md",
      ...Object.keys(schema.resources).map((t) => `resources/${t.replace(/^dnsaccount_/, "")}.md`),
      ...Object.keys(schema.dataSources).map((t) => `data-sources/${t.replace(/^dnsaccount_/, "")}.md`),
    ];
    assert.deepEqual([...pages.keys()].sort(), expected.sort());
    for (const [page, text] of pages) {
      assert.match(text, /^---\npage_title: "[^"\n]+"\nsubcategory: ""\ndescription: \|-\n {2}\S[^\n]*\n---\n/, `${page}: front matter`);
      assert.match(text, /## Example Usage\n\n```terraform\n/, `${page}: an example`);
      assert.match(text, /## Schema\n/, `${page}: the schema`);
    }
  });

  it("every argument and attribute is on its page, sensitive ones marked so; each nested schema is linked and present", () => {
    const check = (page: string, block: TfBlock): void => {
      const text = pages.get(page)!;
      for (const { name, sensitive } of names(block)) {
        const line = new RegExp(`^- \`${name}\` \\(([^)]*)\\)`, "m").exec(text);
        assert.ok(line, `${page}: ${name} is missing`);
        if (sensitive) assert.match(text, new RegExp(`^- \`${name}\` \\([^)]*Sensitive`, "m"), `${page}: ${name} is not marked sensitive`);
      }
      for (const [, target] of text.matchAll(/\(#(nested(?:block|att)--[\w-]+)\)/g)) assert.ok(text.includes(`<a id="${target}"></a>`), `${page}: #${target} has no section`);
    };
    check("index.md", schema.provider.block);
    for (const [type, s] of Object.entries(schema.resources)) check(`resources/${type.replace(/^dnsaccount_/, "")}.md`, s.block);
    for (const [type, s] of Object.entries(schema.dataSources)) check(`data-sources/${type.replace(/^dnsaccount_/, "")}.md`, s.block);
    assert.match(pages.get("index.md")!, /^- `api_key` \(String, Sensitive\)/m);
    assert.match(pages.get("resources/token.md")!, /^- `refresh_token` \(String, Sensitive\)/m);
  });

  it("an import section for what can be imported (block and command); the Token's says it cannot be", () => {
    for (const type of ["dns_server", "device", "dedicated_ipv4"]) {
      const text = pages.get(`resources/${type}.md`)!;
      assert.match(text, new RegExp(`## Import\\n[\\s\\S]*\`\`\`terraform\\nimport \\{\\n {2}to = dnsaccount_${type}\\.`), `${type}: an import block`);
      assert.match(text, new RegExp(`\`\`\`shell\\n(?:#[^\\n]*\\n)*tofu import dnsaccount_${type}\\.\\w+ \\S+\\n`), `${type}: the import command`);
    }
    assert.match(pages.get("resources/token.md")!, /## Import\n\nThis resource cannot be imported\./);
  });

  it("the provider page has the provider block, the credential chain and links to every page", () => {
    const index = pages.get("index.md")!;
    assert.match(index, /provider "dnsaccount" \{\}/);
    assert.match(index, /## Authentication\n/);
    for (const page of pages.keys()) if (page !== "index.md") assert.ok(index.includes(`](${page})`), `index.md links ${page}`);
  });
});
