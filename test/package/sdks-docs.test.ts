import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { _repoRoot } from "../support/helpers";
import { type Program, type Schema, _namesNotInSchema, problems } from "../support/yaml-program";
import { EXAMPLE_LANGUAGES, programsIn, schemaEntries } from "./sdks/schema-examples";

// js-yaml comes with mocha (and @pulumi/pulumi): no dependency of its own for one test.
const yaml = require("js-yaml") as { load(text: string): unknown };

const root = _repoRoot();
const SCHEMA = JSON.parse(readFileSync(path.join(root, "provider", "schema", "schema.json"), "utf8")) as Schema & {
  functions: Record<string, { outputs: { properties?: Record<string, unknown> } }>;
  types: Record<string, { enum?: { name?: string; value: string }[] }>;
};
/** docs/api-docs: what `npm run sdks` writes with Pulumi's docs generator (the Registry's api-docs layout). */
const API_DOCS = path.join(root, "docs", "api-docs");
const upper = (s: string) => s[0]!.toUpperCase() + s.slice(1);
/** Text as Go's html/template writes it into the pages. */
const html = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/'/g, "&#39;").replace(/"/g, "&#34;");
/** Hugo's id of a heading without an explicit `{#id}`. */
const slug = (heading: string) => heading.toLowerCase().replace(/[^a-z0-9 _-]/g, "").replace(/ /g, "-");
/** What _namesNotInSchema reports of Pulumi's own C# API (`var config = new Config(); config.RequireSecret(…)`). */
const PULUMI_CSHARP = new Set(["class Config", "output RequireSecret"]);

/**
 * Issue 24, "docs where Pulumi users look": every resource and function of the schema carries an
 * example in the six languages of the Registry and (resources) an Import section; the C# and YAML
 * programs name only what the schema has (the TypeScript, Python, Go and Java ones are type-checked,
 * run or compiled in sdks.test.ts); the per-resource pages the docs generator wrote into docs/api-docs
 * are linked from docs/_index.md and every link in them resolves. Reads files only: milliseconds.
 */
describe("per-resource docs: the schema's examples and docs/api-docs", () => {
  const entries = schemaEntries(root);

  it("every resource and function has an example with a program in each of the six languages", () => {
    assert.equal(entries.length, 8, "four resources and four functions");
    const missing: string[] = [];
    for (const entry of entries) {
      if (entry.examples.length === 0) missing.push(`${entry.token}: no {{% example %}}`);
      for (const example of entry.examples) {
        if (!example.title) missing.push(`${entry.token}: an example without a ### title`);
        for (const lang of EXAMPLE_LANGUAGES) if (example.programs[lang] === undefined) missing.push(`${entry.token} "${example.title}": no ${lang} program`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it("every resource has an Import section: a `pulumi import` of its own type where the plugin imports it, and a Token says it cannot be imported", () => {
    for (const entry of entries.filter((e) => e.kind === "resource")) {
      assert.ok(entry.importSection, `${entry.token} has an ## Import section`);
      const commands = [...entry.importSection.matchAll(/^\$ pulumi import (\S+) (\S+) (\S+)$/gm)];
      if (entry.name === "Token") {
        assert.deepEqual(commands, [], "no import command for a Token");
        assert.match(entry.importSection, /cannot be imported/);
        assert.match(entry.importSection, /`refreshToken`, `profile` or `credentialCommand`/);
      } else {
        assert.equal(commands.length, 1, `${entry.token}: one pulumi import command`);
        assert.equal(commands[0]![1], entry.token, `${entry.token}: imports its own type`);
      }
    }
    for (const entry of entries.filter((e) => e.kind === "function")) assert.equal(entry.importSection, undefined, `${entry.token}: a function is not imported`);
  });

  it("C# examples name only classes, properties, functions and enum values the schema has", () => {
    const functions = new Set(Object.keys(SCHEMA.functions).map((t) => upper(t.split(":").pop()!)));
    const known = new Set<string>([...functions]);
    const addProps = (ps: Record<string, unknown> | undefined) => Object.keys(ps ?? {}).forEach((k) => known.add(upper(k)));
    for (const r of Object.values(SCHEMA.resources)) (addProps(r.inputProperties), addProps(r.properties));
    for (const [token, t] of Object.entries(SCHEMA.types)) {
      known.add(token.split(":").pop()!);
      addProps(t.properties);
      for (const e of t.enum ?? []) (known.add(e.value), e.name && known.add(e.name));
    }
    for (const f of Object.values(SCHEMA.functions)) addProps(f.outputs.properties);
    // Pulumi's own .NET API the examples call.
    for (const api of ["RunAsync", "Invoke", "Apply", "RequireSecret"]) known.add(api);
    const check = (id: string, text: string): string[] => {
      const found = _namesNotInSchema(text, "csharp", SCHEMA).filter((p) => !PULUMI_CSHARP.has(p)).map((p) => `${id}: ${p}`);
      const code = text.replace(/^using .*$/gm, "");
      for (const [, fn] of code.matchAll(/\b(\w+)\.Invoke(?:Async)?\(/g)) if (!functions.has(fn!)) found.push(`${id}: function ${fn}`);
      for (const [, member] of code.matchAll(/\.([A-Z]\w*)/g)) if (!known.has(member!)) found.push(`${id}: member ${member}`);
      return found;
    };
    assert.deepEqual(programsIn(root, "csharp").flatMap(({ id, text }) => check(id, text)), []);
    // The check catches a misspelt property, output and function.
    const broken = "var s = new DnsServer(\"s\", new DnsServerArgs { Nmae = \"S\" });\nvar x = s.ServerIdd;\nvar l = GetLimits.Invoke();\n";
    assert.deepEqual(check("broken", broken), ["broken: property Nmae", "broken: output ServerIdd", "broken: function GetLimits", "broken: member ServerIdd"]);
  });

  it("YAML examples parse and name only types, properties, functions and outputs the schema has", () => {
    const found: string[] = [];
    for (const { id, text } of programsIn(root, "yaml")) {
      const program = yaml.load(text) as Program;
      program.resources ??= {};
      found.push(...problems(program, SCHEMA).map((p) => `${id}: ${p}`));
    }
    assert.deepEqual(found, []);
  });

  it("docs/api-docs has an index and a page per resource, function and the provider, linked from docs/_index.md, with every example in all six languages", () => {
    const index = readFileSync(path.join(root, "docs", "_index.md"), "utf8");
    assert.match(index, /\]\(api-docs\/_index\.md\)/, "docs/_index.md links the API docs");
    const pages = readdirSync(API_DOCS).filter((f) => statSync(path.join(API_DOCS, f)).isDirectory());
    assert.deepEqual(pages.sort(), [...entries.map((e) => e.name.toLowerCase()), "provider"].sort());
    for (const entry of entries) {
      const page = readFileSync(path.join(API_DOCS, entry.name.toLowerCase(), "_index.md"), "utf8");
      for (const example of entry.examples) {
        assert.ok(page.includes(`### ${html(example.title)}`), `${entry.name}: the page shows "${example.title}"`);
        for (const lang of EXAMPLE_LANGUAGES) assert.ok(page.includes(example.programs[lang]!.trimEnd()), `${entry.name}: the page shows the ${lang} program`);
      }
      assert.ok(!page.includes("Coming soon!"), `${entry.name}: no language left out`);
      if (entry.kind === "resource") assert.ok(page.includes("## Import"), `${entry.name}: the page has the Import section`);
    }
  });

  it("every link of docs/api-docs resolves: pages, folders and anchors here; site links are Pulumi's /docs/", () => {
    const broken: string[] = [];
    const files = readdirSync(API_DOCS, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".md"));
    assert.ok(files.length >= 10);
    for (const file of files) {
      const text = readFileSync(path.join(API_DOCS, file), "utf8");
      const anchors = new Set([...text.matchAll(/\bid="([^"]+)"/g), ...text.matchAll(/\{#([\w-]+)\}/g)].map((m) => m[1]!));
      for (const [, heading] of text.matchAll(/^#{1,6} (.+?)\s*$/gm)) if (!/\{#/.test(heading!)) anchors.add(slug(heading!));
      const links = [...text.matchAll(/\bhref="([^"]*)"/g), ...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
      for (const link of links) {
        if (/^https:\/\//.test(link)) continue;
        if (link.startsWith("/")) {
          // The Registry renders these pages on pulumi.com, where /docs/ is Pulumi's own documentation.
          if (!link.startsWith("/docs/")) broken.push(`${file}: ${link} (not under Pulumi's /docs/)`);
          continue;
        }
        const [target, anchor] = link.split("#") as [string, string | undefined];
        if (target === "") {
          if (!anchors.has(anchor!)) broken.push(`${file}: #${anchor}`);
          continue;
        }
        const resolved = path.join(API_DOCS, path.dirname(file), target);
        if (!existsSync(resolved) || (statSync(resolved).isDirectory() && !existsSync(path.join(resolved, "_index.md")))) broken.push(`${file}: ${link}`);
      }
    }
    assert.deepEqual(broken, []);
  });
});
