import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { _installPlugin, _packageVersion, _typescriptProject } from "../support/codegen-project";
import { _engineSuite } from "../support/engine-suite";
import { _assertNoSecrets } from "../support/helpers";
import { _engineMissing, _engineVersion, type PulumiProject, _stackProject } from "../support/pulumi-cli";
import { _pythonMissing, _pythonVenv } from "../support/python-venv";

const API_KEY = "key-ENGINE-PACKAGE-ADD-7c1d93fe";

const TYPESCRIPT = `import * as dns from "@pulumi-dns-account/dns-account";

const home = new dns.DnsServer("home", {
    name: "Package add TS",
    settings: { blockTtlSeconds: 42, blockingMode: { mode: dns.BlockingModeKind.Nxdomain } },
});
const laptop = new dns.Device("laptop", { name: "Laptop TS", deviceType: dns.DeviceType.Linux, dnsServerId: home.serverId });

export const serverId = home.serverId;
export const deviceId = laptop.deviceId;
export const devicesInUse = dns.getAccountLimitsOutput().devices.used;
`;

const PYTHON = `import pulumi
import pulumi_dns_account as dns

home = dns.DnsServer("home",
    name="Package add Python",
    settings={"block_ttl_seconds": 43, "blocking_mode": {"mode": dns.BlockingModeKind.NXDOMAIN}})
laptop = dns.Device("laptop", name="Laptop Python", device_type=dns.DeviceType.LINUX, dns_server_id=home.server_id)

pulumi.export("serverId", home.server_id)
pulumi.export("deviceId", laptop.device_id)
pulumi.export("devicesInUse", dns.get_account_limits_output().devices.used)
`;

/**
 * Issue 33 §3: `pulumi package add dns-account` with the plugin installed from its tarball
 * (`pulumi plugin install resource dns-account <version> --file …`) generates a local SDK from the
 * plugin's schema into the project's `sdks/dns-account` and links it (package.json's `file:` dependency
 * for TypeScript, requirements.txt and the venv for Python). A TypeScript and a Python program on that
 * SDK run `up`, `preview --expect-no-changes` and `destroy` against the emulator, each checked there.
 */
describe("engine: pulumi package add with the installed plugin, a TypeScript and a Python program on the local SDK", function () {
  this.timeout(1_200_000);
  const suite = _engineSuite({
    missing: () => _engineMissing("nodejs", "python") ?? _pythonMissing(),
    prefix: "dns-account-engine-package-add-",
    apiKey: API_KEY,
  });

  async function stack(prefix: string, program: string): Promise<PulumiProject> {
    const p = await _stackProject(prefix, { program, config: { "dns-account:baseUrl": suite.emu.url, "dns-account:apiKey": { secret: API_KEY } } });
    suite.projects.push(p);
    await _installPlugin(p, suite.tarball);
    return p;
  }

  /** up, the server and device at the service, no changes, destroy removes both. */
  async function life(p: PulumiProject, name: string, ttl: number, device: string, logs: string[]): Promise<void> {
    const devicesBefore = (await suite.dashboard.devices.list()).length;
    let started = Date.now();
    logs.push(await p.pulumi("up", "--yes"));
    console.log(`      up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const serverId = (await p.pulumi("stack", "output", "serverId")).trim();
    const deviceId = (await p.pulumi("stack", "output", "deviceId")).trim();
    const server = await suite.dashboard.dnsServers.get(serverId);
    assert.equal(server.name, name);
    assert.equal(server.settings.block_ttl_seconds, ttl);
    const laptop = await suite.dashboard.devices.get(deviceId);
    assert.deepEqual([laptop.name, laptop.device_type, laptop.dns_server_id], [device, "LINUX", serverId]);
    // The look-up ran before the device was made: it counts the account's devices as they were.
    assert.equal((await p.pulumi("stack", "output", "devicesInUse")).trim(), String(devicesBefore), "the look-up reached the plugin");
    started = Date.now();
    logs.push(await p.pulumi("preview", "--expect-no-changes"));
    console.log(`      preview --expect-no-changes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    logs.push(await p.pulumi("destroy", "--yes", "--skip-preview"));
    await assert.rejects(suite.dashboard.devices.get(deviceId), (e: { status?: number }) => e.status === 404);
    await assert.rejects(suite.dashboard.dnsServers.get(serverId), (e: { status?: number }) => e.status === 404);
    _assertNoSecrets(logs.join("\n"), [API_KEY]);
  }

  it("TypeScript: package add links the generated SDK (file:sdks/dns-account), and a program on it runs up, no changes, destroy", async () => {
    const p = await stack("dns-account-engine-package-add-ts-", "name: dns-account-package-add\nruntime: nodejs\n");
    writeFileSync(path.join(p.dir, "index.ts"), TYPESCRIPT);
    const logs = [await _typescriptProject(p)];
    assert.match(logs[0]!, /import \* as dnsAccount from "@pulumi-dns-account\/dns-account";/);
    const pkg = JSON.parse(readFileSync(path.join(p.dir, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    assert.equal(pkg.dependencies["@pulumi-dns-account/dns-account"], "file:sdks/dns-account");
    const sdk = JSON.parse(readFileSync(path.join(p.dir, "sdks", "dns-account", "package.json"), "utf8")) as { pulumi: { name: string; version: string } };
    assert.deepEqual([sdk.pulumi.name, sdk.pulumi.version], ["dns-account", _packageVersion()]);
    assert.ok(existsSync(path.join(p.dir, "node_modules", "@pulumi-dns-account", "dns-account", "bin", "index.js")), "the SDK is built into node_modules");
    await life(p, "Package add TS", 42, "Laptop TS", logs);
  });

  it("Python: package add links the generated SDK into requirements.txt and the venv, and a program on it runs up, no changes, destroy", async () => {
    const p = await stack("dns-account-engine-package-add-py-", "name: dns-account-package-add\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n");
    const venv = await _pythonVenv(path.join(p.dir, "venv"));
    await venv.pip("install", `pulumi==${_engineVersion()}`);
    writeFileSync(path.join(p.dir, "requirements.txt"), `pulumi==${_engineVersion()}\n`);
    writeFileSync(path.join(p.dir, "__main__.py"), PYTHON);
    const started = Date.now();
    const logs = [await p.pulumi("package", "add", "dns-account")];
    console.log(`      package add (generate, pip install) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.match(logs[0]!, /import pulumi_dns_account as pulumi_dns_account/);
    assert.deepEqual(readFileSync(path.join(p.dir, "requirements.txt"), "utf8").trim().split("\n"), [`pulumi==${_engineVersion()}`, "sdks/dns-account"]);
    assert.ok(existsSync(path.join(p.dir, "sdks", "dns-account", "pulumi_dns_account", "device.py")));
    await life(p, "Package add Python", 43, "Laptop Python", logs);
  });
});
