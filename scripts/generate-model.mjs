#!/usr/bin/env node
// Regenerates sdk/client/model.ts from the facts-only copy of the reference description
// (scripts/reference/, made from ../shared/reference by scripts/reference-facts.mjs) — run with
// `npm run generate`. Types come from openapi-typescript; the validators are emitted here in the
// client's lazy, precompiled pattern (`compiled<T>((z, use) => …)` of api-schemas.ts), each checked by
// the compiler against its generated type, so schema and type cannot drift.
//
// No prose is copied: descriptions, summaries, titles and examples are removed before generation.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// `--check`: exit 1 when the committed file differs from what the description generates (for tests).
const check = process.argv.includes("--check");
const source = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? path.join(root, "scripts", "reference", "dns-api-openapi-1.15.facts.json");
const target = path.join(root, "sdk", "client", "model.ts");

const PROSE = new Set(["description", "summary", "title", "example", "examples", "externalDocs", "x-summary"]);

/** A copy of the document without prose. Property *names* such as a field called "description" stay. */
function stripProse(node, inProperties = false) {
  if (Array.isArray(node)) return node.map((n) => stripProse(n));
  if (node === null || typeof node !== "object") return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (!inProperties && PROSE.has(key) && typeof value !== "object") continue;
    if (!inProperties && (key === "examples" || key === "externalDocs" || key === "example")) continue;
    out[key] = stripProse(value, key === "properties");
  }
  return out;
}

/**
 * The description declares DnsProtoType as an object with a `value` integer that is also one of two
 * string enums; the service sends the enum string. Keep only the union so the type is inhabitable.
 */
function normalize(doc) {
  for (const schema of Object.values(doc.components.schemas)) {
    if (schema.oneOf && schema.type === "object") {
      delete schema.type;
      delete schema.properties;
      delete schema.required;
    }
  }
  return doc;
}

const doc = normalize(stripProse(JSON.parse(readFileSync(source, "utf8"))));
const names = Object.keys(doc.components.schemas).sort();
const refName = (ref) => ref.replace("#/components/schemas/", "");

/** The components a node refers to, transitively. */
function reachable(node, out = new Set()) {
  if (Array.isArray(node)) for (const n of node) reachable(n, out);
  else if (node !== null && typeof node === "object") {
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/components/schemas/")) {
      const name = refName(node.$ref);
      if (!out.has(name)) {
        out.add(name);
        reachable(doc.components.schemas[name], out);
      }
    }
    for (const value of Object.values(node)) reachable(value, out);
  }
  return out;
}

// Tolerant reading (strict requests, forgiving responses): every component a response can carry reads
// enum values it does not know as their strings, and null in an optional property as absent. Requests
// keep the description's closed enums. The 1.15 description shares only enums (and ScheduleTime)
// between the two directions, so an enum *component* stays closed (requests name it) while a response
// object's property that refers to it is opened.
const responseSide = new Set();
for (const item of Object.values(doc.paths)) {
  for (const op of Object.values(item)) if (op && typeof op === "object") reachable(op.responses, responseSide);
}
/** An enum, a reference to one, or a union of enums (DnsProtoType). */
const isEnum = (schema) =>
  Array.isArray(schema?.enum) ||
  (typeof schema?.$ref === "string" && isEnum(doc.components.schemas[refName(schema.$ref)])) ||
  (Array.isArray(schema?.oneOf ?? schema?.anyOf) && (schema.oneOf ?? schema.anyOf).every(isEnum));

/** `T | (string & {})`: the known values still complete in editors, and any other string is allowed. */
const open = (type) =>
  ts.factory.createUnionTypeNode([
    type,
    ts.factory.createIntersectionTypeNode([ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword), ts.factory.createTypeLiteralNode([])]),
  ]);

const ast = await openapiTS(doc, {
  rootTypes: true,
  rootTypesNoSchemaPrefix: true,
  rootTypesKeepCasing: true,
  alphabetize: true,
  // A field with a default may still be absent from a body: keep it optional, like the validators.
  defaultNonNullable: false,
  // An enum-typed property (or list of them) of a response-side object is open (see above); the enum
  // component itself is not.
  transformProperty(property, schema, options) {
    const component = /^#\/components\/schemas\/([^/]+)\//.exec(options.path ?? "")?.[1];
    if (!component || !responseSide.has(component)) return undefined;
    let type = property.type;
    if (isEnum(schema)) type = open(type);
    else if (schema?.type === "array" && isEnum(schema.items) && ts.isArrayTypeNode(type)) type = ts.factory.createArrayTypeNode(ts.factory.createParenthesizedType(open(type.elementType)));
    else return undefined;
    return ts.factory.updatePropertySignature(property, property.modifiers, property.name, property.questionToken, type);
  },
});
const types = astToString(ast);

// DNSServer → dnsServer, DedicatedIPv4Address → dedicatedIPv4Address.
const camel = (name) => name.replace(/^[A-Z]+(?=[A-Z][a-z]|$)|^[A-Z]/, (head) => head.toLowerCase());
const validatorName = (name) => `${camel(name)}Schema`;
/**
 * The zod expression of one schema (no constraints: responses are checked for shape, not policy). With
 * `tolerant` (a response-side component), enums accept any string and optional properties accept null,
 * which the parse drops (`absent`), so callers see the property as missing.
 */
function zodOf(schema, tolerant) {
  let expr;
  if (tolerant && isEnum(schema)) {
    expr = "z.string()";
  } else if (schema.$ref) {
    expr = `use(${validatorName(refName(schema.$ref))})`;
  } else if (schema.oneOf || schema.anyOf) {
    expr = `z.union([${(schema.oneOf ?? schema.anyOf).map((s) => zodOf(s, tolerant)).join(", ")}])`;
  } else if (schema.allOf) {
    throw new Error("allOf is not used by the description; teach the generator before relying on it");
  } else if (schema.enum) {
    expr = `z.enum([${schema.enum.map((v) => JSON.stringify(v)).join(", ")}])`;
  } else {
    switch (schema.type) {
      case "string":
        expr = "z.string()";
        break;
      case "integer":
        expr = "z.number().int()";
        break;
      case "number":
        expr = "z.number()";
        break;
      case "boolean":
        expr = "z.boolean()";
        break;
      case "array":
        expr = `z.array(${zodOf(schema.items ?? {}, tolerant)})`;
        break;
      case "object":
      case undefined: {
        const props = Object.entries(schema.properties ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        if (props.length === 0 && schema.additionalProperties && typeof schema.additionalProperties === "object") {
          expr = `z.record(z.string(), ${zodOf(schema.additionalProperties, tolerant)})`;
        } else if (props.length === 0 && schema.type === undefined) {
          expr = "z.unknown()";
        } else {
          const required = new Set(schema.required ?? []);
          const fields = props.map(([key, value]) => {
            const inner = zodOf(value, tolerant);
            return `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${required.has(key) ? inner : `${inner}.exactOptional()`}`;
          });
          // Loose: a field the service adds later passes through instead of failing the call.
          expr = `z.looseObject({ ${fields.join(", ")} })`;
          const optional = props.map(([key]) => key).filter((key) => !required.has(key));
          if (tolerant && optional.length) expr = `z.preprocess(absent(${JSON.stringify(optional)}), ${expr})`;
        }
        break;
      }
      default:
        throw new Error(`unsupported schema type ${schema.type}`);
    }
  }
  return schema.nullable ? `${expr}.nullable()` : expr;
}

const taken = new Map();
for (const name of names) {
  if (taken.has(validatorName(name))) throw new Error(`${name} and ${taken.get(validatorName(name))} get the same validator name`);
  taken.set(validatorName(name), name);
}
const validators = names.map((name) => {
  // An enum component stays closed (requests name it); response-side properties that refer to it are opened.
  const expr = zodOf(doc.components.schemas[name], responseSide.has(name) && !isEnum(doc.components.schemas[name]));
  const usesRef = expr.includes("use(");
  return [
    `/** Validator of {@link ${name}}. */`,
    `export const ${validatorName(name)} = compiled<${name}>((z${usesRef ? ", use" : ""}) => ${expr});`,
  ].join("\n");
});

// A list response gets its own validator (never `schema().array()` at a call site, which would build
// and not compile a new schema on every call).
const listed = new Set();
for (const item of Object.values(doc.paths)) {
  for (const op of Object.values(item)) {
    for (const response of Object.values(op?.responses ?? {})) {
      for (const media of Object.values(response.content ?? {})) {
        if (media.schema?.type === "array" && media.schema.items?.$ref) listed.add(refName(media.schema.items.$ref));
      }
    }
  }
}
for (const name of [...listed].sort()) {
  validators.push(
    [`/** Validator of a list of {@link ${name}}. */`, `export const ${camel(name)}ListSchema = compiled<${name}[]>((z, use) => z.array(use(${validatorName(name)})));`].join("\n"),
  );
}

const out = `// Generated by scripts/generate-model.mjs from the ${doc.info?.version ? `${doc.info.version} ` : ""}reference description: do not edit.
// Run \`npm run generate\` to regenerate. Types by openapi-typescript; validators are lazy and precompiled.
/* eslint-disable */
import { absent, compiled } from "./compiled";

${types.trim()}

${validators.join("\n")}
`;
if (check) {
  const same = readFileSync(target, "utf8") === out;
  console.log(same ? "model.ts is up to date" : "model.ts is stale: run npm run generate");
  process.exit(same ? 0 : 1);
}
writeFileSync(target, out);
console.log(`wrote ${path.relative(root, target)}: ${names.length} schemas`);
