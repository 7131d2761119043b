import { cpSync } from "node:fs";
import path from "node:path";
import { _engineSuite } from "../support/engine-suite";
import { _repoRoot } from "../support/helpers";
import { _nodelessProject } from "../support/home-network-program";
import { _engineMissing, _engineVersion } from "../support/pulumi-cli";
import { type PythonVenv, _pythonMissing, _pythonVenv, _sdkWheel } from "../support/python-venv";

const API_KEY = "key-ENGINE-PYTHON-3f61a0d8";
const EXAMPLE = path.join(_repoRoot(), "examples", "python-home-network");

/**
 * examples/python-home-network under the real engine as its users run it (issue 33 §2): a Python
 * program written against the SDK generated from our schema (the wheel built from a copy of
 * sdks/python), `pulumi` from PyPI at the version of our `@pulumi/pulumi` (3.248.0, so the engine and
 * the language SDK match) in a virtual environment made from the example's requirements.txt, the plugin
 * from `npm run package:plugin`'s linux-amd64 tarball installed with `pulumi plugin install resource
 * dns-account <version> --file`, and `pulumi up` of the project folder (`runtime: python`), which starts
 * `pulumi-language-python` (built by `npm run engine`). PATH holds the venv's `bin` and the engine's
 * folder only: no Node.js (asserted). The life it goes through and what is checked at the emulator: see
 * `_homeNetworkLife`.
 */
describe("engine: a Python program through the generated SDK and the tarball plugin, without Node.js", function () {
  this.timeout(900_000);
  const suite = _engineSuite({ missing: () => _engineMissing("python") ?? _pythonMissing(), prefix: "dns-account-engine-python-", apiKey: API_KEY });
  let venv: PythonVenv;

  before(async function () {
    const started = Date.now();
    venv = await _pythonVenv(path.join(suite.root, "venv"));
    const wheel = await _sdkWheel(venv, path.join(suite.root, "wheels"));
    // The example's requirements as written, with pulumi pinned to the engine's version and the SDK
    // taken from the wheel (it is not on PyPI).
    await venv.pip("install", `pulumi==${_engineVersion()}`, wheel, "-r", path.join(EXAMPLE, "requirements.txt"));
    console.log(`      venv with pulumi ${_engineVersion()} from PyPI and the SDK wheel in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  it("examples/python-home-network by pulumi up (the Python language host, the venv on PATH): up, no changes, refresh finds a dashboard edit, changed config updates, destroy; secrets only as ciphertext", async () => {
    const project = await _nodelessProject("dns-account-engine-python-program-", [venv.bin], suite.projects);
    cpSync(EXAMPLE, project.dir, { recursive: true });
    // As the README says: the venv activated (its bin first on PATH), then `pulumi up` of the folder.
    project.env.VIRTUAL_ENV = venv.dir;
    await suite.homeNetworkLife(project, "python");
  });
});
