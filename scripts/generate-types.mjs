#!/usr/bin/env node
// Writes provider/schema/types.generated.ts from the Pulumi package schema (provider/schema/schema.json),
// the one source of truth of the resources' and functions' properties: the plugin serves the schema, the
// dynamic resources and the lifecycles use these types. Run with `npm run generate:types` after
// editing the schema; `--check` exits 1 when the file is stale (a test runs it).
//
// For every object type X: `X` (plain values, as the provider receives and returns them) and `XArgs`
// (`pulumi.Input` at every level, as Pulumi's generated SDKs take them). For every resource R: `RArgs`,
// `RInputs` (plain) and `ROutputs`. For every enum E: `E` (a union) and `EValues`. For every function F:
// `FResult`. Each carries the schema's description as TSDoc.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const schemaFile = path.join(root, "provider", "schema", "schema.json");
const target = path.join(root, "provider", "schema", "types.generated.ts");
const schema = JSON.parse(readFileSync(schemaFile, "utf8"));

const local = (token) => token.split(":").pop();
const refName = (ref) => local(decodeURIComponent(ref.replace("#/types/", "")));
const isEnum = (name) => Array.isArray(schema.types[`dns-account:index:${name}`]?.enum);
const upper = (s) => s[0].toUpperCase() + s.slice(1);
/**
 * A resource's or function's description without its examples and import sections (the Registry's
 * `{{% examples %}}` and `## Import`, which the SDK and docs generators place themselves).
 */
const summary = (text) => text.split(/\n\n(?:\{\{% examples %\}\}|## Import\b)/)[0];

/** TSDoc of a description, wrapped at about 100 columns, indented. */
function doc(text, indent = "") {
  if (!text) return "";
  const words = text.split(/\s+/);
  const lines = [];
  let line = "";
  for (const w of words) {
    if (line && line.length + w.length + 1 > 96 - indent.length) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return indent + "/**\n" + lines.map((l) => indent + " * " + l).join("\n") + "\n" + indent + " */\n";
}

/** The TypeScript type of a property: plain, or with `pulumi.Input` at every level (`args`). */
function typeOf(spec, args) {
  const wrap = (t) => (args ? `pulumi.Input<${t}>` : t);
  if (spec.$ref) {
    const name = refName(spec.$ref);
    return wrap(args && !isEnum(name) ? `${name}Args` : name);
  }
  switch (spec.type) {
    case "string":
      return wrap("string");
    case "integer":
    case "number":
      return wrap("number");
    case "boolean":
      return wrap("boolean");
    case "array":
      return wrap(`${typeOf(spec.items, args)}[]`);
    case "object":
      if (spec.additionalProperties) return wrap(`Record<string, ${typeOf(spec.additionalProperties, args)}>`);
      return wrap("Record<string, unknown>");
    default:
      throw new Error(`no TypeScript type for ${JSON.stringify(spec)}`);
  }
}

function fields(properties, required, args, indent = "  ") {
  return Object.entries(properties ?? {})
    .map(([name, spec]) => {
      const secret = spec.secret ? " Secret." : "";
      const dflt = spec.default !== undefined ? " Default `" + JSON.stringify(spec.default) + "`." : "";
      const text = `${spec.description ?? ""}${dflt}${secret}`.trim();
      return `${doc(text, indent)}${indent}${name}${required?.includes(name) ? "" : "?"}: ${typeOf(spec, args)};\n`;
    })
    .join("");
}

// The generated file's opening lines are a file of their own (scripts/templates/types-header.ts); each
// declaration below is a list of lines, so no string here holds code that spans lines.
const lines = (...parts) => parts.join("\n") + "\n";
const values = (spec, sep) => spec.enum.map((e) => JSON.stringify(e.value)).join(sep);
const INPUT_NOTE = " (inputs: any value may be a " + "`pulumi.Input`" + ")";
const CONFIG_DOC = "The provider's configuration (" + "`dns-account:*`" + " stack config, or an explicit provider's arguments).";

const out = [readFileSync(path.join(root, "scripts", "templates", "types-header.ts"), "utf8")];

for (const [token, spec] of Object.entries(schema.types)) {
  const name = local(token);
  if (spec.enum) {
    out.push(
      doc(spec.description) + lines(
        "export type " + name + " = " + values(spec, " | ") + ";",
        "/** Every {@link " + name + "} value. */",
        "export const " + name + "Values = [" + values(spec, ", ") + "] as const;",
      ),
    );
    continue;
  }
  out.push(
    doc(spec.description) + "export interface " + name + " {\n" + fields(spec.properties, spec.required, false) + "}\n" +
      doc(spec.description + INPUT_NOTE) + "export interface " + name + "Args {\n" + fields(spec.properties, spec.required, true) + "}\n",
  );
}

for (const [token, spec] of Object.entries(schema.resources)) {
  const name = local(token);
  out.push(
    doc("Arguments of a " + name + ". " + summary(spec.description)) + "export interface " + name + "Args {\n" + fields(spec.inputProperties, spec.requiredInputs, true) + "}\n" +
      doc("Inputs of a " + name + " as the provider receives them (resolved values).") + "export interface " + name + "Inputs {\n" + fields(spec.inputProperties, spec.requiredInputs, false) + "}\n" +
      doc("State of a " + name + " (the provider's outputs).") + "export interface " + name + "Outputs {\n" + fields(spec.properties, spec.required, false) + "}\n",
  );
}

for (const [token, spec] of Object.entries(schema.functions)) {
  const name = upper(local(token));
  out.push(doc("What " + local(token) + " returns. " + summary(spec.description)) + "export interface " + name + "Result {\n" + fields(spec.outputs.properties, spec.outputs.required, false) + "}\n");
}

out.push(doc(CONFIG_DOC) + "export interface ProviderConfig {\n" + fields(schema.config.variables, [], false) + "}\n");

const text = out.join("\n");
if (process.argv.includes("--check")) {
  const same = existsSync(target) && readFileSync(target, "utf8") === text;
  console.log(`${path.relative(root, target)} is ${same ? "up to date" : "stale: run npm run generate:types"}`);
  process.exit(same ? 0 : 1);
}
writeFileSync(target, text);
console.log(`wrote ${path.relative(root, target)}`);
