import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { _repoRoot } from "../support/helpers";
import { _engineBin, _engineVersion, _failWithout, _engineMissing } from "../support/pulumi-cli";

const run = promisify(execFile);

/** Every binary a Pulumi install carries that `npm run engine` must put beside `pulumi` (issue 33 §1). */
const EXPECTED = [
  "pulumi",
  "pulumi-language-nodejs",
  "pulumi-language-python",
  "pulumi-language-python-exec",
  "pulumi-language-go",
  "pulumi-language-java",
  "pulumi-language-yaml",
  "pulumi-converter-yaml",
  "pulumi-resource-pulumi-nodejs",
  "pulumi-resource-pulumi-python",
];

/**
 * `scripts/install-pulumi-engine.sh` (`npm run engine`) as CI runs it: every host is there, and a host
 * that neither the Go module proxy nor the shared source folder can give fails the script, naming the
 * host, the proxy's error and the folder it looked for. The failing run works on a copy of the built
 * engine with one host removed (so nothing is rebuilt but that host), in a cache folder of its own.
 */
describe("engine: npm run engine builds every language host, and fails without one", function () {
  this.timeout(600_000);
  let tmp: string;

  before(() => {
    _failWithout(_engineMissing("nodejs"));
    tmp = mkdtempSync(path.join(os.tmpdir(), "dns-account-engine-script-"));
  });

  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("the engine's folder holds pulumi and every host, converter and executor a Pulumi install carries", () => {
    const present = readdirSync(_engineBin());
    assert.deepEqual(EXPECTED.filter((f) => !present.includes(f)), [], `missing from ${_engineBin()}`);
  });

  it("a host with neither the proxy nor the shared folder fails the script, which names the host, the proxy's error and the folder", async () => {
    const cache = path.join(tmp, "cache");
    const bin = path.join(cache, "pulumi-dns-account", "engine", _engineVersion(), "bin");
    mkdirSync(path.dirname(bin), { recursive: true });
    await run("cp", ["-al", _engineBin(), bin]); // hard links: the binaries are large, and only links are removed
    rmSync(path.join(bin, "pulumi-language-go"));
    rmSync(path.join(bin, ".pulumi-language-go.version"));
    const nowhere = path.join(tmp, "no-such-hosts-folder");
    const failed = await run("bash", [path.join(_repoRoot(), "scripts", "install-pulumi-engine.sh")], {
      cwd: _repoRoot(),
      env: { ...process.env, XDG_CACHE_HOME: cache, PULUMI_LANGUAGE_HOSTS_DIR: nowhere },
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      () => undefined,
      (e: Error & { code?: number; stderr?: string }) => e,
    );
    assert.ok(failed, "the script fails");
    const stderr = failed.stderr ?? "";
    assert.match(stderr, /pulumi-language-go cannot be built: the Go module proxy refuses github\.com\/pulumi\/pulumi\/sdk\/go\/pulumi-language-go\/v3@/);
    assert.ok(stderr.includes(`${nowhere}/sdk/go/pulumi-language-go has no go.mod`), stderr);
    assert.match(stderr, /\((?:[^()]|\([^()]*\))*(403|not available|Forbidden|error)/i, "the proxy's own error text is quoted");
    assert.match(stderr, /failed: not built: pulumi-language-go/);
    assert.ok(!existsSync(path.join(bin, "pulumi-language-go")), "nothing stands in for the host");
    // The other hosts were there already: the script rebuilt none of them.
    assert.doesNotMatch(stderr, /building pulumi-language-(nodejs|python|java|yaml)|building pulumi v/);
  });
});
