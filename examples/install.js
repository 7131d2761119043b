#!/usr/bin/env node
// `npm run example:install`: packs this checkout (npm pack, which builds in prepare) and installs the
// tarball into examples/basic/node_modules, the way users install the package. Pulumi serializes a
// Token's provider as a short require() only for a module loaded from node_modules; from the checkout
// itself it would capture the whole module graph. The root Pulumi.yaml runs examples/basic.
"use strict";
const { execFileSync } = require("node:child_process");
const { mkdirSync, renameSync, rmSync } = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const program = path.join(__dirname, "basic");
const pack = path.join(program, ".pack");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const quiet = process.argv.includes("--quiet");

rmSync(pack, { recursive: true, force: true });
mkdirSync(pack, { recursive: true });
const [{ filename }] = JSON.parse(execFileSync(npm, ["pack", "--json", "--pack-destination", pack, ...(process.argv.includes("--ignore-scripts") ? ["--ignore-scripts"] : [])], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
renameSync(path.join(pack, path.basename(filename)), path.join(pack, "pulumi-dns-account.tgz"));
execFileSync(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--no-package-lock", "--ignore-scripts"], { cwd: program, stdio: quiet ? "ignore" : "inherit" });
if (!quiet) console.log(`Installed pulumi-dns-account into ${path.relative(root, program)}/node_modules: run pulumi up at the repository root (or in examples/basic).`);
