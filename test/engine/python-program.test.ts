import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _repoRoot } from "../support/helpers";
import { _homeNetworkLife, _nodelessProject, _pluginTarball } from "../support/home-network-program";
import { _engineMissing, _engineVersion, _failWithout, type PulumiProject } from "../support/pulumi-cli";
import { type PythonVenv, _pythonMissing, _pythonVenv, _sdkWheel } from "../support/python-venv";

const API_KEY = "key-ENGINE-PYTHON-3f61a0d8";
const VERSION = (JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")) as { version: string }).version;
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
  let emu: Emulator;
  let dashboard: Client;
  let root: string;
  let venv: PythonVenv;
  let tarball: string;
  const projects: PulumiProject[] = [];

  before(async function () {
    _failWithout(_engineMissing("python"));
    const noPython = _pythonMissing();
    _failWithout(noPython);
    root = mkdtempSync(path.join(os.tmpdir(), "dns-account-engine-python-"));
    const started = Date.now();
    tarball = await _pluginTarball(root);
    const packaged = Date.now();
    venv = await _pythonVenv(path.join(root, "venv"));
    const wheel = await _sdkWheel(venv, path.join(root, "wheels"));
    // The example's requirements as written, with pulumi pinned to the engine's version and the SDK
    // taken from the wheel (it is not on PyPI).
    await venv.pip("install", `pulumi==${_engineVersion()}`, wheel, "-r", path.join(EXAMPLE, "requirements.txt"));
    console.log(
      `      plugin tarball in ${((packaged - started) / 1000).toFixed(1)} s; venv with pulumi ${_engineVersion()} from PyPI and the SDK wheel in ${((Date.now() - packaged) / 1000).toFixed(1)} s`,
    );
    emu = await startEmulator();
    emu.addApiKey("user@example.com", API_KEY);
    dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
  });

  after(async () => {
    await dashboard?.close();
    await emu?.close();
    for (const p of projects) p.remove();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("examples/python-home-network by pulumi up (the Python language host, the venv on PATH): up, no changes, refresh finds a dashboard edit, changed config updates, destroy; secrets only as ciphertext", async () => {
    const project = await _nodelessProject("dns-account-engine-python-program-", [venv.bin], projects);
    cpSync(EXAMPLE, project.dir, { recursive: true });
    // As the README says: the venv activated (its bin first on PATH), then `pulumi up` of the folder.
    project.env.VIRTUAL_ENV = venv.dir;
    await _homeNetworkLife({ project, runtime: "python", tarball, version: VERSION, baseUrl: emu.url, apiKey: API_KEY, dashboard });
  });
});
