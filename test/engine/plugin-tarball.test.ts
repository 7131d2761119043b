import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _assertNoSecrets, _repoRoot } from "../support/helpers";
import { _engineBin, _engineMissing, _grpcCalls, type PulumiProject, _pulumiProject, _failWithout } from "../support/pulumi-cli";

const run = promisify(execFile);
const API_KEY = "key-ENGINE-TARBALL-7d2b94c1";
const VERSION = (JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")) as { version: string }).version;
const TARBALL = `pulumi-resource-dns-account-v${VERSION}-linux-amd64.tar.gz`;

const PROGRAM = `name: dns-account-engine-tarball
runtime: yaml
resources:
  home:
    type: dns-account:index:DnsServer
    properties:
      name: Tarball home
      settings:
        blockTtlSeconds: 30
  laptop:
    type: dns-account:index:Device
    properties:
      name: Tarball laptop
      deviceType: LINUX
      dnsServerId: \${home.serverId}
outputs:
  serverId: \${home.serverId}
  deviceId: \${laptop.deviceId}
`;

/**
 * The plugin as Pulumi installs resource plugins (issue 24): `npm run release:dry-run` builds the
 * linux-amd64 tarball (and the npm tarball and checksums) and names what it would upload;
 * `pulumi plugin install resource dns-account <version> --file <tarball>` puts it into a fresh
 * PULUMI_HOME; then a YAML program runs `up`, `preview --expect-no-changes` and `destroy` under the real
 * engine with a PATH that holds the engine's folder and nothing else, so there is no Node.js to be
 * found. A control installs a plugin that is the same bundle run as a `#!/usr/bin/env node` script and
 * shows that under that PATH it cannot start, so the test would fail for an executable that needed node.
 */
describe("engine: the plugin tarball, installed with `pulumi plugin install --file`, runs without Node.js", function () {
  this.timeout(900_000);
  let emu: Emulator;
  let dashboard: Client;
  let out: string;
  let release: string;
  const projects: PulumiProject[] = [];

  /** A YAML project whose `pulumi` sees no Node.js: PATH is the engine's folder alone. */
  const nodelessProject = (prefix: string): PulumiProject => {
    const project = _pulumiProject(prefix);
    projects.push(project);
    project.env.PATH = _engineBin();
    delete project.env.NODE_OPTIONS;
    writeFileSync(path.join(project.dir, "Pulumi.yaml"), PROGRAM);
    return project;
  };
  const install = async (project: PulumiProject, tarball: string): Promise<void> => {
    await project.pulumi("plugin", "install", "resource", "dns-account", VERSION, "--file", tarball);
    await project.pulumi("stack", "init", "dev");
    await project.pulumi("config", "set", "dns-account:baseUrl", emu.url);
    await project.pulumi("config", "set", "--secret", "dns-account:apiKey", API_KEY);
  };

  before(async function () {
    _failWithout(_engineMissing("yaml"));
    out = mkdtempSync(path.join(os.tmpdir(), "dns-account-release-"));
    const started = Date.now();
    release = (await run(process.execPath, [path.join(_repoRoot(), "scripts", "release.mjs"), "--dry-run", "--platform", "linux-amd64", "--out", out], { cwd: _repoRoot(), maxBuffer: 16 * 1024 * 1024 })).stdout;
    console.log(`      release:dry-run (linux-amd64) built the assets in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    emu = await startEmulator();
    emu.addApiKey("user@example.com", API_KEY);
    dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
  });

  after(async () => {
    await dashboard?.close();
    await emu?.close();
    for (const p of projects) p.remove();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it("release:dry-run names each asset and the release it would go to, uploading nothing", () => {
    const repo = "pulumi-dns-account/pulumi-dns-account";
    assert.match(release, new RegExp(`^release v${VERSION.replace(/\./g, "\\.")} of github\\.com/${repo} \\(dry run: nothing is uploaded\\)$`, "m"));
    const names = [...release.matchAll(/^would upload (\S+) \(\d+ bytes\) to release v\S+ of \S+$/gm)].map((m) => m[1]);
    assert.deepEqual(names, [TARBALL, `pulumi-dns-account-${VERSION}.tgz`, `pulumi-dns-account_${VERSION}_checksums.txt`]);
    const sums = readFileSync(path.join(out, names[2]!), "utf8").trim().split("\n");
    assert.deepEqual(sums.map((l) => l.split(/\s+/)[1]), names.slice(0, 2));
  });

  it("up, preview --expect-no-changes and destroy run through the installed executable with no node on PATH", async () => {
    const project = nodelessProject("dns-account-engine-tarball-");
    for (const dir of project.env.PATH!.split(path.delimiter)) assert.ok(!existsSync(path.join(dir, "node")), `no node in ${dir}`);
    await assert.rejects(run("/bin/sh", ["-c", "command -v node"], { env: project.env }), "command -v node finds nothing");
    const grpcLog = path.join(path.dirname(project.dir), "grpc.jsonl");
    project.env.PULUMI_DEBUG_GRPC = grpcLog;
    await install(project, path.join(out, TARBALL));
    const plugin = path.join(project.env.PULUMI_HOME!, "plugins", `resource-dns-account-v${VERSION}`);
    assert.deepEqual(readdirSync(plugin), ["pulumi-resource-dns-account"], "the tarball holds the one executable at its root");

    const logs: string[] = [];
    logs.push(await project.pulumi("up", "--yes"));
    const serverId = (await project.pulumi("stack", "output", "serverId")).trim();
    const deviceId = (await project.pulumi("stack", "output", "deviceId")).trim();
    const server = await dashboard.dnsServers.get(serverId);
    assert.equal(server.name, "Tarball home");
    assert.equal(server.settings.block_ttl_seconds, 30);
    const device = await dashboard.devices.get(deviceId);
    assert.equal(device.name, "Tarball laptop");
    assert.equal(device.dns_server_id, serverId);
    const info = _grpcCalls(grpcLog).find((c) => c.method === "/pulumirpc.ResourceProvider/GetPluginInfo" && c.response.version);
    assert.equal(info?.response.version, VERSION, "the engine ran the installed plugin");

    logs.push(await project.pulumi("preview", "--expect-no-changes"));
    logs.push(await project.pulumi("destroy", "--yes"));
    await assert.rejects(dashboard.devices.get(deviceId), (e: { status?: number }) => e.status === 404);
    await assert.rejects(dashboard.dnsServers.get(serverId), (e: { status?: number }) => e.status === 404);
    _assertNoSecrets(logs.join("\n") + (await project.pulumi("stack", "export")), [API_KEY]);
  });

  it("control: the same bundle as a `#!/usr/bin/env node` script cannot start under that PATH", async () => {
    const stage = path.join(out, "needs-node");
    mkdirSync(stage);
    const script = path.join(stage, "pulumi-resource-dns-account");
    const { bundle } = (await import(pathToFileURL(path.join(_repoRoot(), "scripts", "package-plugin.mjs")).href)) as { bundle(): Promise<{ text: string }> };
    writeFileSync(script, `#!/usr/bin/env node\n${(await bundle()).text}`);
    chmodSync(script, 0o755);
    const tarball = path.join(stage, TARBALL);
    await run("tar", ["-czf", tarball, "-C", stage, "pulumi-resource-dns-account"]);
    const project = nodelessProject("dns-account-engine-needs-node-");
    await install(project, tarball);
    await assert.rejects(project.pulumi("preview"), (e: Error) => {
      // The engine's words: "Detected that <PULUMI_HOME>/plugins/resource-dns-account-v<version>/
      // pulumi-resource-dns-account exited prematurely", then the plugin's stderr.
      assert.match(e.message, /pulumi-resource-dns-account exited prematurely/);
      assert.match(e.message, /env: .node.: No such file or directory/);
      return true;
    });
  });
});

