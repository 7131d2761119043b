import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { cpSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _goMissing } from "../support/codegen-project";
import { _engineSuite } from "../support/engine-suite";
import { _repoRoot } from "../support/helpers";
import { _nodelessProject } from "../support/home-network-program";
import { _engineMissing } from "../support/pulumi-cli";

const run = promisify(execFile);
const API_KEY = "key-ENGINE-GO-8c24e9b7";
const EXAMPLE = path.join(_repoRoot(), "examples", "go-home-network");

/**
 * examples/go-home-network under the real engine as its users run it (issue 33 §2): a Go program written
 * against the SDK generated from our schema, the plugin from `npm run package:plugin`'s linux-amd64
 * tarball installed with `pulumi plugin install --file`, and `pulumi up` of the project folder
 * (`runtime: go`), which starts `pulumi-language-go` (built by `npm run engine`); the host builds the
 * program with `go build` (modules through the Go module proxy). The project is a copy of the example
 * whose `replace` names this repository's sdks/go by its absolute path (the example's own `../../sdks/go`
 * holds only inside the repository). PATH holds the engine's folder and Go's only: no Node.js
 * (asserted). The life it goes through and what is checked at the emulator: see `_homeNetworkLife`.
 */
describe("engine: a Go program through the generated SDK and the tarball plugin, without Node.js", function () {
  this.timeout(1_200_000);
  const suite = _engineSuite({ missing: () => _engineMissing("go") ?? _goMissing(), prefix: "dns-account-engine-go-", apiKey: API_KEY });
  let goBin = "";

  before(async function () {
    goBin = path.dirname(execFileSync("/bin/sh", ["-c", "command -v go"], { encoding: "utf8" }).trim());
    const started = Date.now();
    // go vet in the example's own folder (its `replace` points at ../../sdks/go); -mod=readonly: go.mod
    // and go.sum as committed must be enough, and nothing is written into the repository.
    const status = (): string => execFileSync("git", ["status", "--porcelain", "--ignored", "--", "examples/go-home-network", "sdks/go"], { cwd: _repoRoot(), encoding: "utf8" });
    const statusBefore = status();
    await run("go", ["vet", "./..."], { cwd: EXAMPLE, env: { ...process.env, GOFLAGS: "-mod=readonly -buildvcs=false" }, maxBuffer: 16 * 1024 * 1024 });
    console.log(`      go vet in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.equal(status(), statusBefore, "go vet wrote nothing into the repository");
  });

  it("examples/go-home-network by pulumi up (the Go language host builds it): up, no changes, refresh finds a dashboard edit, changed config updates, destroy; secrets only as ciphertext", async () => {
    const project = await _nodelessProject("dns-account-engine-go-program-", [goBin], suite.projects);
    cpSync(EXAMPLE, project.dir, { recursive: true });
    await run("go", ["mod", "edit", `-replace=github.com/pulumi-dns-account/pulumi-dns-account/sdks/go=${path.join(_repoRoot(), "sdks", "go")}`], { cwd: project.dir });
    project.env.GOFLAGS = "-mod=readonly -buildvcs=false";
    await suite.homeNetworkLife(project, "go");
  });
});
