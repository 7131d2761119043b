import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _repoRoot, _skipBecause } from "../support/helpers";
import { _homeNetworkLife, _nodelessProject, _pluginTarball } from "../support/home-network-program";
import { _engineBin, type PulumiProject } from "../support/pulumi-cli";

const run = promisify(execFile);
const API_KEY = "key-ENGINE-GO-8c24e9b7";
const VERSION = (JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")) as { version: string }).version;
const EXAMPLE = path.join(_repoRoot(), "examples", "go-home-network");

/**
 * examples/go-home-network under the real engine (issue 23 item 4, issue 24): a Go program written
 * against the SDK generated from our schema (sdks/go, through the example's `replace`), built with
 * `go build` (modules through the Go module proxy), and the plugin from `npm run package:plugin`'s
 * linux-amd64 tarball installed with `pulumi plugin install --file`. There is no `pulumi-language-go`
 * here (the proxy refuses it), so the example's driver (`./run`, Pulumi's Go Automation API) runs the
 * program as an inline program; the program's own `main` (what `pulumi up` runs with a Go language
 * host) is built too. PATH holds the engine's folder only: no Node.js, no Go language host (both
 * asserted). The life it goes through and what is checked at the emulator: see `_homeNetworkLife`.
 */
describe("engine: a Go program through the generated SDK and the tarball plugin, without Node.js", function () {
  this.timeout(1_200_000);
  let emu: Emulator;
  let dashboard: Client;
  let root: string;
  let tarball: string;
  let driver: string;
  const projects: PulumiProject[] = [];

  before(async function () {
    if (!existsSync(path.join(_engineBin(), "pulumi"))) _skipBecause(this, `no pulumi in ${_engineBin()} (run "npm run engine")`);
    try {
      execFileSync("go", ["version"], { stdio: "ignore" });
    } catch {
      _skipBecause(this, "no go on PATH");
    }
    root = mkdtempSync(path.join(os.tmpdir(), "dns-account-engine-go-"));
    const started = Date.now();
    tarball = await _pluginTarball(root);
    const packaged = Date.now();
    // Built from the example's own folder (its `replace` points at ../../sdks/go) into the temporary
    // folder; -mod=readonly: go.mod and go.sum as committed must be enough.
    const status = (): string => execFileSync("git", ["status", "--porcelain", "--ignored", "--", "examples/go-home-network", "sdks/go"], { cwd: _repoRoot(), encoding: "utf8" });
    const statusBefore = status();
    driver = path.join(root, "run");
    const build = { cwd: EXAMPLE, env: { ...process.env, GOFLAGS: "-mod=readonly -buildvcs=false" }, maxBuffer: 16 * 1024 * 1024 };
    await run("go", ["build", "-o", driver, "./run"], build);
    await run("go", ["build", "-o", path.join(root, "program"), "."], build);
    await run("go", ["vet", "./..."], build);
    console.log(`      plugin tarball in ${((packaged - started) / 1000).toFixed(1)} s; go build of the driver and the program, go vet in ${((Date.now() - packaged) / 1000).toFixed(1)} s`);
    assert.equal(status(), statusBefore, "the build wrote nothing into the repository");
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

  it("examples/go-home-network via ./run: up, no changes, refresh finds a dashboard edit, changed config updates, destroy; secrets only as ciphertext", async () => {
    const project = await _nodelessProject("dns-account-engine-go-program-", [], projects);
    cpSync(EXAMPLE, project.dir, { recursive: true });
    await _homeNetworkLife({ project, driver: [driver], tarball, version: VERSION, baseUrl: emu.url, apiKey: API_KEY, dashboard });
  });
});
