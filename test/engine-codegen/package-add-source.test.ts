import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { _gitSnapshot } from "../support/git-snapshot";
import { _repoRoot } from "../support/helpers";
import { _engineMissing, _failWithout, type PulumiProject, _pulumiProject } from "../support/pulumi-cli";

const run = promisify(execFile);

/**
 * The source-based route (issues 24 and 33): `pulumi package add <clone>` on a clone of this repository
 * with a `PulumiPlugin.yaml` of `runtime: nodejs`. With pulumi-language-nodejs there (`npm run engine`
 * builds it; without it this suite fails), the engine installs the clone's dependencies (`npm install`,
 * which runs our `prepare`: the build), then asks the Node.js host to run the package as a provider: it
 * runs the package's `main`, which is the TypeScript library (dynamic resources), not the plugin, and
 * exits without serving. The engine then fails to read the schema. This pins that, in the engine's words
 * (docs/plugin.md quotes them): the route to the plugin is its tarball, or `pulumi package add dns-account`
 * once it is installed (package-add.test.ts).
 */
describe("engine: pulumi package add on a clone with a PulumiPlugin.yaml (runtime: nodejs)", function () {
  this.timeout(900_000);
  let tmp: string;
  let project: PulumiProject | undefined;

  before(() => _failWithout(_engineMissing("nodejs", "yaml")));

  after(() => {
    project?.remove();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("the engine builds the clone, runs its main (the library, not the plugin) and fails for want of a provider", async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "dns-account-source-package-"));
    const clone = path.join(tmp, "clone");
    await run("git", ["clone", "--quiet", `file://${await _gitSnapshot(tmp)}`, clone]);
    writeFileSync(path.join(clone, "PulumiPlugin.yaml"), "runtime: nodejs\n");
    const pkg = JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")) as { name: string; version: string; main: string };
    assert.equal(pkg.main, "./dist/provider/index.js", "the package's main is the TypeScript library");
    project = _pulumiProject("dns-account-engine-source-");
    writeFileSync(path.join(project.dir, "Pulumi.yaml"), "name: dns-account-source\nruntime: yaml\n");
    const started = Date.now();
    await assert.rejects(project.pulumi("package", "add", clone), (e: Error) => {
      // The dependencies installed, with our prepare (the build)…
      assert.ok(e.message.includes(`> ${pkg.name}@${pkg.version} prepare`), e.message);
      // …then the main ran and exited: no port, no schema.
      assert.ok(e.message.includes(`error: Detected that ${clone} exited prematurely.`), e.message);
      assert.ok(e.message.includes(`error: failed to get schema: unable to run ${clone}: could not run plugin at "${clone}": could not read plugin [${clone}]: EOF`), e.message);
      return true;
    });
    console.log(`      package add of the clone failed as pinned in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});
