import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { _repoRoot } from "../support/helpers";
import { _useTempDirs } from "../support/temp";

describe("the main entry without @pulumi/pulumi", () => {
  const tmp = _useTempDirs();
  let dir: string;
  before(() => {
    // A program whose node_modules holds this package (its package.json and dist) and no @pulumi.
    dir = tmp("dns-account-nopulumi-");
    const pkg = path.join(dir, "node_modules", "pulumi-dns-account");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(path.join(pkg, "package.json"), JSON.stringify(require(path.join(_repoRoot(), "package.json"))));
    symlinkSync(path.join(_repoRoot(), "dist"), path.join(pkg, "dist"), "dir");
  });

  it("says so in one line with a typed error, not MODULE_NOT_FOUND", () => {
    const code = `try { require("pulumi-dns-account"); console.log("loaded") } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message, field: e.field })) }`;
    // --preserve-symlinks: resolve from the program's node_modules, as a real install would.
    const out = execFileSync(process.execPath, ["--preserve-symlinks", "-e", code], { cwd: dir, encoding: "utf8" }).trim();
    const err = JSON.parse(out) as { code: string; message: string; field: string };
    assert.equal(err.code, "invalid_config");
    assert.equal(err.field, "@pulumi/pulumi");
    assert.match(err.message, /npm install @pulumi\/pulumi/);
    assert.ok(!err.message.includes("\n"), "one line");
  });
});
