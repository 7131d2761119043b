import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { _gitSnapshot } from "../support/git-snapshot";
import { _engineMissing, _hasPulumi, type PulumiProject, _pulumiProject } from "../support/pulumi-cli";

const run = promisify(execFile);

/**
 * The source-based route of issue 24: `pulumi package add <path>` on a clone of this repository with a
 * `PulumiPlugin.yaml` of `runtime: nodejs`. The engine hands a source-based package to the language host
 * its runtime names, and `npm run engine` cannot build pulumi-language-nodejs here (the Go module proxy
 * refuses its module), so the engine refuses before it reads anything of ours. This pins its words, as
 * the README quotes them; with pulumi-language-nodejs present the route is not decided here.
 */
describe("engine: pulumi package add on a clone with a PulumiPlugin.yaml (runtime: nodejs)", function () {
  this.timeout(300_000);
  let tmp: string;
  let project: PulumiProject | undefined;

  before(function () {
    if (!_hasPulumi()) {
      console.log(`      skipped: no pulumi CLI (run "npm run engine")`);
      return this.skip();
    }
    if (!_engineMissing("nodejs")) {
      console.log("      skipped: pulumi-language-nodejs is there; this test pins the engine's refusal without it");
      return this.skip();
    }
  });

  after(() => {
    project?.remove();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("the engine refuses for want of pulumi-language-nodejs, in its own words", async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "dns-account-source-package-"));
    const clone = path.join(tmp, "clone");
    await run("git", ["clone", "--quiet", `file://${await _gitSnapshot(tmp)}`, clone]);
    writeFileSync(path.join(clone, "PulumiPlugin.yaml"), "runtime: nodejs\n");
    project = _pulumiProject("dns-account-engine-source-");
    writeFileSync(path.join(project.dir, "Pulumi.yaml"), "name: dns-account-source\nruntime: yaml\n");
    await assert.rejects(project.pulumi("package", "add", clone), (e: Error) => {
      assert.ok(
        e.message.includes(`error: failed to get schema: unable to install ${clone}: no language plugin 'pulumi-language-nodejs' found in the workspace or on your $PATH`),
        e.message,
      );
      return true;
    });
  });
});
