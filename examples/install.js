#!/usr/bin/env node
// `npm run example:install [-- <example>...]`: packs this checkout (npm pack, which builds in prepare)
// and installs the tarball into examples/<example>/node_modules (default: basic), the way users install
// the package. Pulumi serializes a dynamic resource's provider as a short require() only for a module
// loaded from node_modules; from the checkout itself it would capture the whole module graph. The root
// Pulumi.yaml runs examples/basic; examples/rotation and examples/home-network are run in their folders
// (see their README.md).
"use strict";
const { execFileSync } = require("node:child_process");
const { copyFileSync, existsSync, mkdirSync, rmSync } = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const quiet = process.argv.includes("--quiet");
const names = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const examples = names.length > 0 ? names : ["basic"];
for (const name of examples) {
  if (!/^[a-z0-9-]+$/.test(name) || !existsSync(path.join(__dirname, name, "package.json"))) {
    console.error(`example:install: no example "${name}" with a package.json under examples/ (basic, rotation, home-network)`);
    process.exit(2);
  }
}

const work = path.join(__dirname, ".pack");
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const [{ filename }] = JSON.parse(execFileSync(npm, ["pack", "--json", "--pack-destination", work, ...(process.argv.includes("--ignore-scripts") ? ["--ignore-scripts"] : [])], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
for (const name of examples) {
  const program = path.join(__dirname, name);
  const pack = path.join(program, ".pack");
  rmSync(pack, { recursive: true, force: true });
  mkdirSync(pack, { recursive: true });
  copyFileSync(path.join(work, path.basename(filename)), path.join(pack, "pulumi-dns-account.tgz"));
  execFileSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--no-package-lock", "--ignore-scripts"], { cwd: program, stdio: quiet ? "ignore" : "inherit" });
  if (!quiet) {
    const where = name === "basic" ? "at the repository root (or in examples/basic)" : `in examples/${name}`;
    console.log(`Installed pulumi-dns-account into examples/${name}/node_modules: run pulumi up ${where}.`);
  }
}
rmSync(work, { recursive: true, force: true });

