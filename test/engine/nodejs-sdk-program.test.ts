import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { _engineSuite } from "../support/engine-suite";
import { _gitSnapshot } from "../support/git-snapshot";
import { _cleanEnv, _repoRoot } from "../support/helpers";
import { _engineMissing, _grpcCalls, type PulumiProject, _pulumiProject } from "../support/pulumi-cli";

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const API_KEY = "key-ENGINE-NODEJS-SDK-5d0e7a19";

const EXAMPLE = path.join(_repoRoot(), "examples", "nodejs-home-network");

/**
 * Issue 33 §2: a TypeScript project (examples/nodejs-home-network, `runtime: nodejs`) on the Node.js SDK generated
 * from our schema, run by the real `pulumi up`, `preview --expect-no-changes`, `refresh` and `destroy`
 * through `pulumi-language-nodejs` (built by `npm run engine`: without it this suite fails, it does not
 * skip). The SDK is installed as the docs say, from a clone: `install-links=true` in the project's
 * .npmrc, then `npm install <clone>/sdks/nodejs` (the clone is a `git clone` of a snapshot of the working
 * tree), whose postinstall compiles it; the plugin from `npm run package:plugin`'s linux-amd64 tarball
 * with `pulumi plugin install --file`. The program is examples/nodejs-home-network as it is; the life it
 * goes through and what is checked at the emulator: see `_homeNetworkLife`.
 */
describe("engine: a TypeScript project on the generated Node.js SDK, run by pulumi up", function () {
  this.timeout(1_200_000);
  const suite = _engineSuite({ missing: () => _engineMissing("nodejs"), prefix: "dns-account-engine-nodejs-sdk-", apiKey: API_KEY });
  let project: PulumiProject;
  let installLog: string;

  before(async function () {
    const started = Date.now();
    const clone = path.join(suite.root, "clone");
    await run("git", ["clone", "--quiet", await _gitSnapshot(suite.root), clone]);
    project = _pulumiProject("dns-account-engine-nodejs-sdk-program-");
    suite.projects.push(project);
    // The example's folder as it is (its .npmrc has install-links=true), then its README's two installs.
    cpSync(EXAMPLE, project.dir, { recursive: true, filter: (src) => !/(^|\/)(node_modules|bin)$/.test(src) });
    // The documented route: the SDK from the clone, copied and built by its postinstall.
    const out = await run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", path.join(clone, "sdks", "nodejs")], {
      cwd: project.dir,
      env: _cleanEnv(),
      maxBuffer: 64 * 1024 * 1024,
    });
    installLog = `${out.stdout}\n${out.stderr}`;
    await run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: project.dir, env: _cleanEnv(), maxBuffer: 64 * 1024 * 1024 });
    console.log(`      clone and npm install of the SDK in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  it("examples/nodejs-home-network by pulumi up (the Node.js language host): up, no changes, refresh finds a dashboard edit, changed config updates, destroy; secrets only as ciphertext", async () => {
    assert.match(installLog, /added \d+ packages?/, installLog);
    await suite.homeNetworkLife(project, "nodejs");
    const calls = _grpcCalls(path.join(path.dirname(project.dir), "grpc.jsonl"));
    assert.ok(calls.some((c) => c.method === "/pulumirpc.LanguageRuntime/Run"), "the engine ran the program through pulumi-language-nodejs");
  });
});
