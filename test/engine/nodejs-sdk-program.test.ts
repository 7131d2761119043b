import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _gitSnapshot } from "../support/git-snapshot";
import { _assertNoSecrets, _cleanEnv, _repoRoot } from "../support/helpers";
import { _pluginTarball } from "../support/home-network-program";
import { _engineMissing, _engineVersion, _grpcCalls, type PulumiProject, _pulumiProject } from "../support/pulumi-cli";
import { _dohSecrets } from "../support/secrets";

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const API_KEY = "key-ENGINE-NODEJS-SDK-5d0e7a19";
const pkg = JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")) as { version: string; devDependencies: Record<string, string> };

/** The program: examples/python-home-network's, in TypeScript on the generated SDK. */
const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as dns from "@pulumi-dns-account/dns-account";

const config = new pulumi.Config();
const serverName = config.get("serverName") ?? "Home";
const blockTtlSeconds = config.getNumber("blockTtlSeconds") ?? 60;

// Reference data and quotas, read from the account.
const limits = dns.getAccountLimitsOutput();
const securityLists = dns.getFilterListsOutput().filterLists.apply((ls) => ls.filter((l) => l.tags.includes("purpose:security")).map((l) => l.filterId));
const blocked = dns.getWebServicesOutput().webServices.apply((ws) => ws.map((w) => w.id).filter((id) => id === "tiktok").sort());

const home = new dns.DnsServer("home", {
    name: serverName,
    settings: {
        protectionEnabled: true,
        blockTtlSeconds,
        blockingMode: { mode: dns.BlockingModeKind.Nxdomain },
        userRules: { enabled: true, rules: ["||ads.example^", "@@||bank.example^$important"] },
        filterLists: { enabled: true, ids: securityLists },
        blockedServices: blocked,
        safeBrowsing: { enabled: true, blockNewlyRegisteredDomains: true },
    },
});

const laptop = new dns.Device("laptop", {
    name: "Laptop",
    deviceType: dns.DeviceType.Linux,
    dnsServerId: home.serverId,
    settings: { protectionEnabled: true },
});

export const serverId = home.serverId;
export const deviceId = laptop.deviceId;
export const laptopAddresses = laptop.dnsAddresses;
// The addresses that embed the device's DNS-over-HTTPS password: a secret output.
export const laptopAddressesWithAuth = laptop.dnsAddressesWithAuth;
export const blockedServices = blocked;
export const devicesInUse = limits.devices.used;
`;

/** Pulumi's TypeScript template's tsconfig.json (the current one). */
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: "commonjs",
    moduleResolution: "node",
    sourceMap: true,
    experimentalDecorators: true,
    pretty: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files: ["index.ts"],
};

/** Names and ids of an account's servers and devices. */
async function inventory(client: Client): Promise<{ servers: string[]; devices: string[] }> {
  return {
    servers: (await client.dnsServers.list()).map((s) => `${s.name}:${s.id}`).sort(),
    devices: (await client.devices.list()).map((d) => `${d.name}:${d.id}`).sort(),
  };
}

/**
 * Issue 33 §2: a TypeScript project (`Pulumi.yaml` with `runtime: nodejs`) on the Node.js SDK generated
 * from our schema, run by the real `pulumi up`, `preview --expect-no-changes`, `refresh` and `destroy`
 * through `pulumi-language-nodejs` (built by `npm run engine`: without it this suite fails, it does not
 * skip). The SDK is installed as the docs say, from a clone: `install-links=true` in the project's
 * .npmrc, then `npm install <clone>/sdks/nodejs` (the clone is a `git clone` of a snapshot of the working
 * tree), whose postinstall compiles it; the plugin from `npm run package:plugin`'s linux-amd64 tarball with `pulumi plugin install
 * --file`. Each step is checked at the emulator and in what `pulumi` printed.
 */
describe("engine: a TypeScript project on the generated Node.js SDK, run by pulumi up", function () {
  this.timeout(1_200_000);
  let emu: Emulator;
  let dashboard: Client;
  let root: string;
  let tarball: string;
  let project: PulumiProject;
  let installLog: string;

  before(async function () {
    this.timeout(1_200_000);
    const missing = _engineMissing("nodejs");
    if (missing) throw new Error(`this suite needs the engine's Node.js language host: ${missing}`);
    root = mkdtempSync(path.join(os.tmpdir(), "dns-account-engine-nodejs-sdk-"));
    const started = Date.now();
    tarball = await _pluginTarball(root);
    const packaged = Date.now();
    const clone = path.join(root, "clone");
    await run("git", ["clone", "--quiet", await _gitSnapshot(root), clone]);
    project = _pulumiProject("dns-account-engine-nodejs-sdk-program-");
    writeFileSync(path.join(project.dir, "Pulumi.yaml"), "name: dns-account-nodejs-sdk\nruntime: nodejs\ndescription: A home network's DNS on the generated Node.js SDK\n");
    writeFileSync(
      path.join(project.dir, "package.json"),
      JSON.stringify(
        {
          name: "dns-account-nodejs-sdk",
          main: "index.ts",
          devDependencies: { "@types/node": pkg.devDependencies["@types/node"], typescript: pkg.devDependencies.typescript },
          dependencies: { "@pulumi/pulumi": _engineVersion() },
        },
        null,
        2,
      ),
    );
    writeFileSync(path.join(project.dir, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(path.join(project.dir, "index.ts"), PROGRAM);
    // The documented route: the SDK from the clone, copied and built by its postinstall.
    writeFileSync(path.join(project.dir, ".npmrc"), "install-links=true\n");
    const out = await run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", path.join(clone, "sdks", "nodejs")], {
      cwd: project.dir,
      env: _cleanEnv(),
      maxBuffer: 64 * 1024 * 1024,
    });
    installLog = `${out.stdout}\n${out.stderr}`;
    console.log(`      plugin tarball in ${((packaged - started) / 1000).toFixed(1)} s; clone and npm install of the SDK in ${((Date.now() - packaged) / 1000).toFixed(1)} s`);
    emu = await startEmulator();
    emu.addApiKey("user@example.com", API_KEY);
    dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
  });

  after(async () => {
    await dashboard?.close();
    await emu?.close();
    project?.remove();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("up creates the server and the laptop; preview has no changes; refresh finds a dashboard edit; changed config updates; destroy leaves the account as before; secrets only as ciphertext", async () => {
    const p = project;
    const grpcLog = path.join(root, "grpc.jsonl");
    p.env.PULUMI_DEBUG_GRPC = grpcLog;
    assert.match(installLog, /added \d+ packages?/, installLog);
    await p.pulumi("plugin", "install", "resource", "dns-account", pkg.version, "--file", tarball);
    await p.pulumi("stack", "init", "dev");
    await p.pulumi("config", "set", "dns-account:baseUrl", emu.url);
    await p.pulumi("config", "set", "--secret", "dns-account:apiKey", API_KEY);
    const before = await inventory(dashboard);
    const printed: string[] = [];

    // up: the server with its settings, the laptop on it; the look-ups picked the security list and TikTok.
    const up = await p.pulumi("up", "--yes");
    printed.push(up);
    assert.match(up, /\+ +dns-account:index:DnsServer +home +created/, up);
    assert.match(up, /\+ +dns-account:index:Device +laptop +created/, up);
    assert.match(up, /laptopAddressesWithAuth *: *\[secret\]/, up);
    assert.match(up, /\+ 3 created/, up);
    console.log(`      pulumi up printed: ${up.slice(up.lastIndexOf("Outputs:")).split("\n").filter((l) => /^\s+(\+ \d|blockedServices|devicesInUse|serverId|laptopAddressesWithAuth)/.test(l)).map((l) => l.trim()).join("; ")}`);
    const serverId = (await p.pulumi("stack", "output", "serverId")).trim();
    const deviceId = (await p.pulumi("stack", "output", "deviceId")).trim();
    assert.match(up, new RegExp(`serverId *: *"${serverId}"`), up);
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
    assert.deepEqual(JSON.parse(await p.pulumi("stack", "output", "blockedServices", "--json")), ["tiktok"]);

    // The program ran through the Node.js language host, and its resources through the installed plugin.
    const calls = _grpcCalls(grpcLog);
    assert.ok(calls.some((c) => c.method === "/pulumirpc.LanguageRuntime/Run"), "the engine ran the program through pulumi-language-nodejs");
    const info = calls.find((c) => c.method === "/pulumirpc.ResourceProvider/GetPluginInfo" && c.response.version);
    assert.equal(info?.response.version, pkg.version, "the engine ran the installed plugin");
    const invoked = [...new Set(calls.filter((c) => c.method === "/pulumirpc.ResourceProvider/Invoke").map((c) => String(c.request.tok)))].sort();
    assert.deepEqual(invoked, ["dns-account:index:getAccountLimits", "dns-account:index:getFilterLists", "dns-account:index:getWebServices"], "the look-ups reached the plugin");

    const preview = await p.pulumi("preview", "--expect-no-changes");
    printed.push(preview);
    assert.match(preview, /3 unchanged/, preview);

    // A dashboard edit: the laptop renamed and the server's TTL changed through the API; refresh finds both.
    await dashboard.devices.update(deviceId, { name: "Laptop (dashboard)" });
    await dashboard.dnsServers.updateSettings(serverId, { block_ttl_seconds: 300 });
    const refresh = await p.pulumi("refresh", "--yes");
    printed.push(refresh);
    assert.match(refresh, /~ 2 updated/, refresh);
    const afterRefresh = await p.pulumi("stack", "export");
    assert.match(afterRefresh, /"name": "Laptop \(dashboard\)"/, "the state holds the name refresh read");
    assert.match(afterRefresh, /"blockTtlSeconds": 300/, "the state holds the TTL refresh read");

    // An update from changed stack configuration; the same up puts the laptop's name back.
    await p.pulumi("config", "set", "serverName", "Home office");
    await p.pulumi("config", "set", "blockTtlSeconds", "120");
    const update = await p.pulumi("up", "--yes");
    printed.push(update);
    assert.match(update, /~ 2 updated/, update);
    const updated = await dashboard.dnsServers.get(serverId);
    assert.equal(updated.name, "Home office");
    assert.equal(updated.settings.block_ttl_seconds, 120);
    assert.equal((await dashboard.devices.get(deviceId)).name, "Laptop");
    assert.equal(serverId, (await p.pulumi("stack", "output", "serverId")).trim(), "updated in place, not replaced");
    printed.push(await p.pulumi("preview", "--expect-no-changes"));

    // Every secret in the state is ciphertext: the API key and the laptop's DoH password.
    const state = await p.pulumi("stack", "export");
    assert.match(state, /"ciphertext"/);
    const secrets = [API_KEY, ..._dohSecrets((await dashboard.devices.get(deviceId)).dns_addresses as Record<string, unknown>)];
    _assertNoSecrets(state + afterRefresh, secrets);

    const destroy = await p.pulumi("destroy", "--yes");
    printed.push(destroy);
    assert.match(destroy, /- 3 deleted/, destroy);
    await assert.rejects(dashboard.devices.get(deviceId), (e: { status?: number }) => e.status === 404);
    await assert.rejects(dashboard.dnsServers.get(serverId), (e: { status?: number }) => e.status === 404);
    assert.deepEqual(await inventory(dashboard), before, "the account is as it was before up");
    _assertNoSecrets(printed.join("\n") + (await p.pulumi("stack", "export")), secrets);
  });
});
