// Writes the OpenTofu/Terraform registry pages (docs/tofu/: index.md, resources/*.md, data-sources/*.md)
// from the schema the provider serves and the examples of examples/tofu/ (provider/tofu/registry-docs.ts).
// Run after `tsc` (npm run docs:tofu does both). Pages no longer generated are removed.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { registryDocs } = require(path.join(root, "dist", "provider", "tofu", "registry-docs.js"));

const examples = path.join(root, "examples", "tofu");
const out = path.join(root, "docs", "tofu");
const read = (relative) => {
  const file = path.join(examples, relative);
  return existsSync(file) ? readFileSync(file, "utf8") : undefined;
};
const pages = registryDocs(read);
for (const dir of ["resources", "data-sources"]) {
  const folder = path.join(out, dir);
  if (!existsSync(folder)) continue;
  for (const f of readdirSync(folder)) if (!pages.has(`${dir}/${f}`)) rmSync(path.join(folder, f));
}
for (const [page, text] of pages) {
  const file = path.join(out, page);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}
console.log(`docs/tofu: ${pages.size} pages`);
