import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startPlugin } from "../support/engine/plugin-host";
import { _gitSnapshot } from "../support/git-snapshot";
import { _cleanEnv, _repoRoot } from "../support/helpers";

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const pkg = JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")) as { version: string; devDependencies: Record<string, string> };

/**
 * Issue 22 §7: `npm install git+https://…` used to exit 0 with a package that had no `dist/` and no bin
 * links (the build ran only in `prepack`, which a git install never runs). npm runs `prepare` for a git
 * dependency in its clone, with the devDependencies installed, and packs the result: that is the build.
 * The test installs from a `git+file://` URL of a snapshot of the working tree, so it tests this code.
 */
describe("installing from git", function () {
  this.timeout(600_000);
  let tmp: string;
  let program: string;
  let installLog: string;

  before(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "dns-account-git-install-"));
    const repo = await _gitSnapshot(tmp);
    program = path.join(tmp, "program");
    mkdirSync(program);
    writeFileSync(path.join(program, "package.json"), JSON.stringify({ name: "dns-account-git-program", private: true }));
    // As a user types it, with the cache first so it works offline once the cache holds the lockfile's packages.
    const out = await run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", `git+file://${repo}`, `@pulumi/pulumi@${pkg.devDependencies["@pulumi/pulumi"]}`], {
      cwd: program,
      env: _cleanEnv(),
      maxBuffer: 64 * 1024 * 1024,
    });
    installLog = `${out.stdout}\n${out.stderr}`;
  });

  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const installed = () => path.join(program, "node_modules", "pulumi-dns-account");

  it("gives a built package: dist/ with the entry points, and only the packed files", () => {
    for (const file of ["dist/provider/index.js", "dist/provider/index.d.ts", "dist/sdk/index.js", "dist/emulator/index.js", "dist/cli/main.js", "dist/provider/plugin/main.js", "dist/provider/schema/schema.json"]) {
      assert.ok(existsSync(path.join(installed(), file)), `${file} missing; npm said:\n${installLog.slice(-2000)}`);
    }
    // What `files` allows, as from a tarball: no sources, tests or build state.
    for (const absent of ["sdk", "test", "tsconfig.json", "dist/test", "dist/bench", "dist/.tsbuildinfo"]) {
      assert.ok(!existsSync(path.join(installed(), absent)), absent);
    }
  });

  it("links the dns-account bin, which runs", async () => {
    const { stdout } = await run(path.join(program, "node_modules", ".bin", "dns-account"), ["--version"], { env: _cleanEnv() });
    assert.equal(stdout.trim(), pkg.version);
  });

  it("require() of the main entry and of the SDK works from the program", async () => {
    const script = 'const m = require("pulumi-dns-account"); const s = require("pulumi-dns-account/sdk"); console.log(typeof m.Token, typeof s.createClient);';
    const { stdout } = await run(process.execPath, ["-e", script], { cwd: program, env: _cleanEnv() });
    assert.equal(stdout.trim(), "function function");
  });

  it("the plugin bin starts and answers the engine", async () => {
    const plugin = await startPlugin({ programDir: program, env: _cleanEnv() });
    try {
      assert.equal(await plugin.getPluginInfo(), pkg.version);
      assert.equal(JSON.parse(await plugin.getSchema()).name, "dns-account");
    } finally {
      await plugin.stop();
    }
  });
});
