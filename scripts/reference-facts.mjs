#!/usr/bin/env node
// Makes the repository's facts-only copies of the service's OpenAPI descriptions — run with
// `npm run reference` when ../shared/reference changes. Paths, operation ids, parameters, request
// bodies, status codes, schemas, enums and security schemes are kept; descriptions, summaries, titles,
// examples and tags (names of groups in the documentation) are not, so no prose of the reference is copied.
// `npm run generate`, `npm run generate:emulator-openapi` and the contract tests read these copies, so a
// clone without ../shared builds and tests everything. `--check` exits 1 when a copy is stale.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");
const sharedDir = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? path.resolve(root, "..", "shared", "reference");
export const VERSIONS = ["1.11", "1.15"];

/** Keys whose values are prose, never facts (only outside `properties`, where keys are field names). */
const PROSE = new Set(["description", "summary", "title", "example", "examples", "externalDocs", "termsOfService", "contact", "license", "x-logo", "x-summary", "tags"]);

function facts(node, underProperties = false) {
  if (Array.isArray(node)) return node.map((n) => facts(n));
  if (node === null || typeof node !== "object") return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (!underProperties && PROSE.has(key)) continue;
    out[key] = facts(value, !underProperties && key === "properties");
  }
  return out;
}

/** Each copy: its source in ../shared/reference, its target here, and what of it is kept. */
const COPIES = [
  ...VERSIONS.map((version) => ({
    source: `dns-api-openapi-${version}.json`,
    target: `dns-api-openapi-${version}.facts.json`,
    keep: (doc) => ({ openapi: doc.openapi, info: { version: doc.info?.version }, servers: doc.servers, security: doc.security, paths: doc.paths, components: doc.components }),
  })),
  // Pulumi's package metaschema, which the plugin's schema test validates against (its rules, no prose).
  { source: "pulumi-package-metaschema.json", target: "pulumi-package-metaschema.facts.json", keep: (doc) => doc },
];

let stale = 0;
for (const { source: name, target: targetName, keep } of COPIES) {
  const source = path.join(sharedDir, name);
  const target = path.join(root, "scripts", "reference", targetName);
  if (!existsSync(source)) {
    console.error(`no ${source}: the copies are made from ../shared/reference`);
    process.exit(2);
  }
  const copy = facts(keep(JSON.parse(readFileSync(source, "utf8"))));
  const text = `${JSON.stringify(copy, null, 1)}\n`;
  if (check) {
    const same = existsSync(target) && readFileSync(target, "utf8") === text;
    if (!same) stale++;
    console.log(`${path.relative(root, target)} is ${same ? "up to date" : "stale: run npm run reference"}`);
  } else {
    writeFileSync(target, text);
    console.log(`wrote ${path.relative(root, target)}`);
  }
}
process.exit(stale ? 1 : 0);
