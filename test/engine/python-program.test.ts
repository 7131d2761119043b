import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _assertNoSecrets, _repoRoot, _skipBecause } from "../support/helpers";
import { _engineBin, _engineVersion, _grpcCalls, type PulumiProject, _pulumiProject } from "../support/pulumi-cli";
import { type PythonVenv, _pythonMissing, _pythonVenv, _sdkWheel } from "../support/python-venv";
import { _dohSecrets } from "../support/secrets";

const run = promisify(execFile);
const API_KEY = "key-ENGINE-PYTHON-3f61a0d8";
const VERSION = (JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")) as { version: string }).version;
const EXAMPLE = path.join(_repoRoot(), "examples", "python-home-network");

/** Names and ids of an account's servers and devices. */
async function inventory(client: Client): Promise<{ servers: string[]; devices: string[] }> {
  return {
    servers: (await client.dnsServers.list()).map((s) => `${s.name}:${s.id}`).sort(),
    devices: (await client.devices.list()).map((d) => `${d.name}:${d.id}`).sort(),
  };
}

/**
 * examples/python-home-network under the real engine (issue 24; issue 23 item 4): a Python program
 * written against the SDK generated from our schema (the wheel built from a copy of sdks/python),
 * `pulumi` 3.248.0 from PyPI (the version of our `@pulumi/pulumi`, so the engine and the language SDK
 * match) in a virtual environment, and the plugin from `npm run package:plugin`'s linux-amd64 tarball
 * installed with `pulumi plugin install resource dns-account <version> --file`. There is no
 * `pulumi-language-python` here (the Go module proxy refuses it), so the example's driver `run.py` runs
 * the program's function as an Automation API inline program: the Python SDK serves the language
 * runtime itself and the real `pulumi` CLI connects to it. PATH holds the venv's `bin` and the engine's
 * folder only: no Node.js (asserted), no language host. The whole life is checked against the emulator's
 * state: up, preview with no changes, a dashboard edit found by refresh, an update from changed stack
 * configuration (which also repairs the edit), destroy (the account as before); the API key and the
 * device's DoH password appear in the state only as ciphertext.
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
    if (!existsSync(path.join(_engineBin(), "pulumi"))) _skipBecause(this, `no pulumi in ${_engineBin()} (run "npm run engine")`);
    const noPython = _pythonMissing();
    if (noPython) _skipBecause(this, noPython);
    root = mkdtempSync(path.join(os.tmpdir(), "dns-account-engine-python-"));
    const started = Date.now();
    await run(process.execPath, [path.join(_repoRoot(), "scripts", "package-plugin.mjs"), "--platform", "linux-amd64", "--out", root], { cwd: _repoRoot(), maxBuffer: 16 * 1024 * 1024 });
    tarball = path.join(root, `pulumi-resource-dns-account-v${VERSION}-linux-amd64.tar.gz`);
    assert.ok(existsSync(tarball), "package:plugin wrote the linux-amd64 tarball");
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

  it("examples/python-home-network: up, no changes, refresh finds a dashboard edit, changed config updates, destroy; secrets only as ciphertext", async () => {
    const p = _pulumiProject("dns-account-engine-python-program-");
    projects.push(p);
    cpSync(EXAMPLE, p.dir, { recursive: true });
    p.env.PATH = [venv.bin, _engineBin()].join(path.delimiter);
    delete p.env.NODE_OPTIONS;
    delete p.env.PULUMI_ENGINE_BIN;
    for (const dir of p.env.PATH.split(path.delimiter)) {
      assert.ok(!existsSync(path.join(dir, "node")), `no node in ${dir}`);
      assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith("pulumi-language-")), dir === _engineBin() ? ["pulumi-language-yaml"] : [], `no Python language host in ${dir}`);
    }
    await assert.rejects(run("/bin/sh", ["-c", "command -v node"], { env: p.env }), "command -v node finds nothing");
    const grpcLog = path.join(path.dirname(p.dir), "grpc.jsonl");
    p.env.PULUMI_DEBUG_GRPC = grpcLog;

    await p.pulumi("plugin", "install", "resource", "dns-account", VERSION, "--file", tarball);
    await p.pulumi("stack", "init", "dev");
    await p.pulumi("config", "set", "dns-account:baseUrl", emu.url);
    await p.pulumi("config", "set", "--secret", "dns-account:apiKey", API_KEY);
    const driver = async (...args: string[]): Promise<string> => {
      try {
        return (await run(venv.python, ["run.py", ...args], { cwd: p.dir, env: p.env, maxBuffer: 64 * 1024 * 1024 })).stdout;
      } catch (err) {
        const e = err as Error & { stdout?: string; stderr?: string };
        e.message = `run.py ${args[0]} failed: ${e.message}\n--- stdout\n${e.stdout ?? ""}\n--- stderr\n${e.stderr ?? ""}`;
        throw e;
      }
    };
    const before = await inventory(dashboard);
    const logs: string[] = [];

    // up: the server with its settings, the laptop on it; the look-ups picked the security list and TikTok.
    const up = await driver("up");
    logs.push(up);
    const serverId = (await p.pulumi("stack", "output", "serverId")).trim();
    const deviceId = (await p.pulumi("stack", "output", "deviceId")).trim();
    const server = await dashboard.dnsServers.get(serverId);
    assert.equal(server.name, "Home");
    assert.equal(server.settings.protection_enabled, true);
    assert.equal(server.settings.block_ttl_seconds, 60);
    assert.equal(server.settings.blocking_mode_settings.blocking_mode, "NXDOMAIN");
    assert.deepEqual(server.settings.user_rules_settings.rules, ["||ads.example^", "@@||bank.example^$important"]);
    assert.deepEqual(server.settings.filter_lists_settings.filter_list.filter((f) => f.enabled).map((f) => f.filter_id), ["emulator_security"]);
    assert.deepEqual(server.settings.parental_control_settings.blocked_services.filter((s) => s.enabled).map((s) => s.id), ["tiktok"]);
    assert.equal(server.settings.safebrowsing_settings.block_nrd, true);
    const device = await dashboard.devices.get(deviceId);
    assert.equal(device.name, "Laptop");
    assert.equal(device.device_type, "LINUX");
    assert.equal(device.dns_server_id, serverId);
    assert.match(up, /^output laptopAddressesWithAuth: \[secret\]$/m);
    assert.match(up, /^output blockedServices: \['tiktok'\]$/m);
    const calls = _grpcCalls(grpcLog);
    const info = calls.find((c) => c.method === "/pulumirpc.ResourceProvider/GetPluginInfo" && c.response.version);
    assert.equal(info?.response.version, VERSION, "the engine ran the installed plugin");
    const invoked = calls.filter((c) => c.method === "/pulumirpc.ResourceProvider/Invoke").map((c) => String(c.request.tok));
    assert.deepEqual(
      [...new Set(invoked)].sort(),
      ["dns-account:index:getAccountLimits", "dns-account:index:getFilterLists", "dns-account:index:getWebServices"],
      "the program's look-ups reached the plugin",
    );

    const preview = await driver("preview", "--expect-no-changes");
    logs.push(preview);
    assert.match(preview, /^changes: \{'same': 3\}$/m, preview);

    // A dashboard edit: the laptop renamed and the server's TTL changed through the API; refresh finds both.
    await dashboard.devices.update(deviceId, { name: "Laptop (dashboard)" });
    await dashboard.dnsServers.updateSettings(serverId, { block_ttl_seconds: 300 });
    logs.push(await driver("refresh"));
    const afterRefresh = await p.pulumi("stack", "export");
    assert.match(afterRefresh, /"name": "Laptop \(dashboard\)"/, "the state holds the name refresh read");
    assert.match(afterRefresh, /"blockTtlSeconds": 300/, "the state holds the TTL refresh read");

    // An update from changed stack configuration; the same up puts the laptop's name back.
    await p.pulumi("config", "set", "serverName", "Home office");
    await p.pulumi("config", "set", "blockTtlSeconds", "120");
    const update = await driver("up");
    logs.push(update);
    assert.match(update, /2 updated/, update);
    const updated = await dashboard.dnsServers.get(serverId);
    assert.equal(updated.name, "Home office");
    assert.equal(updated.settings.block_ttl_seconds, 120);
    assert.equal((await dashboard.devices.get(deviceId)).name, "Laptop");
    logs.push(await driver("preview", "--expect-no-changes"));

    // Every secret in the state is ciphertext: the API key and the laptop's DoH password.
    const state = await p.pulumi("stack", "export");
    assert.match(state, /"ciphertext"/);
    const secrets = [API_KEY, ..._dohSecrets((await dashboard.devices.get(deviceId)).dns_addresses as Record<string, unknown>)];
    _assertNoSecrets(state + afterRefresh, secrets);

    logs.push(await driver("destroy"));
    await assert.rejects(dashboard.devices.get(deviceId), (e: { status?: number }) => e.status === 404);
    await assert.rejects(dashboard.dnsServers.get(serverId), (e: { status?: number }) => e.status === 404);
    assert.deepEqual(await inventory(dashboard), before, "the account is as it was before up");
    _assertNoSecrets(logs.join("\n") + (await p.pulumi("stack", "export")), secrets);
  });
});
