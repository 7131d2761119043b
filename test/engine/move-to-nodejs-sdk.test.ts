import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _gitSnapshot } from "../support/git-snapshot";
import { _cleanEnv, _refreshTokenAlive, _repoRoot } from "../support/helpers";
import { _dynamicMissing, _engineMissing, _failWithout, _summaryCounts } from "../support/pulumi-cli";
import { _currentTarball, type PackageProject, _packageProject, _recordingProxy } from "../support/release";
import { _dynamicTokenRefreshToken, _inventory, _stateIds, _writes } from "../support/service-inventory";

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const USERNAME = "ops@example.com";
const PASSWORD = "pw-MOVE-SDK-3c9e1d70";
const API_KEY = "key-MOVE-SDK-8a4f2b61";
const root = _repoRoot();
const devDependencies = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies;

/** The server's settings, written the same way on both faces. */
const SETTINGS = `{
    protectionEnabled: true,
    blockTtlSeconds: 60,
    userRules: { enabled: true, rules: ["||ads.example^"] },
    safeBrowsing: { enabled: true, blockNewlyRegisteredDomains: true },
    blockedServices: ["tiktok"],
    parentalControl: { enabled: true, safeSearch: true, schedule: { monday: { from: "07:00", to: "20:00" } } },
}`;

/**
 * A TypeScript program on the dynamic resources, as docs/typescript.md writes them: a Token from the stack's
 * password login, and a DNS server, two devices and a dedicated address that use its refresh token.
 * `retain` adds `retainOnDelete` to the resources that hold service objects (docs/upgrading.md, step 2).
 */
const dynamicProgram = (retain: boolean): string => `import { DedicatedIpv4, Device, DnsServer, Token } from "pulumi-dns-account";

const opts = ${retain ? "{ retainOnDelete: true }" : "{}"};
const token = new Token("ops", { keepers: { rotation: "1" } });
const credentials = { baseUrl: token.baseUrl, refreshToken: token.refreshToken };
const home = new DnsServer("home", { name: "Home", credentials, settings: ${SETTINGS} }, opts);
const laptop = new Device("laptop", { name: "Laptop", deviceType: "MAC", dnsServerId: home.serverId, credentials, settings: { protectionEnabled: true } }, opts);
const router = new Device("router", { name: "Router", deviceType: "ROUTER", dnsServerId: home.serverId, credentials }, opts);
const address = new DedicatedIpv4("address", { deviceId: router.deviceId, credentials }, opts);

export const serverId = home.serverId;
export const laptopId = laptop.deviceId;
export const routerId = router.deviceId;
export const ip = address.ip;
`;

interface Ids {
  serverId: string;
  laptopId: string;
  routerId: string;
  ip: string;
}

/**
 * The same resources on the Node.js SDK generated from the schema (the plugin underneath; credentials from
 * the provider's configuration), in the same project and stack. With `ids`, each takes over its object
 * with the `import` resource option (docs/upgrading.md, step 4).
 */
const sdkProgram = (ids?: Ids): string => `import * as dns from "@pulumi-dns-account/dns-account";

const home = new dns.DnsServer("home", { name: "Home", settings: ${SETTINGS} }${ids ? `, { import: ${JSON.stringify(ids.serverId)} }` : ""});
const laptop = new dns.Device("laptop", { name: "Laptop", deviceType: dns.DeviceType.Mac, dnsServerId: home.serverId, settings: { protectionEnabled: true } }${ids ? `, { import: ${JSON.stringify(ids.laptopId)} }` : ""});
const router = new dns.Device("router", { name: "Router", deviceType: dns.DeviceType.Router, dnsServerId: home.serverId }${ids ? `, { import: ${JSON.stringify(ids.routerId)} }` : ""});
const address = new dns.DedicatedIpv4("address", { deviceId: router.deviceId }${ids ? `, { import: ${JSON.stringify(ids.ip)} }` : ""});

export const serverId = home.serverId;
export const laptopId = laptop.deviceId;
export const routerId = router.deviceId;
export const ip = address.ip;
`;

/**
 * Issue 33 §4: a stack made with the TypeScript dynamic resources (Token, DnsServer, two Devices, a
 * DedicatedIpv4) moves to the Node.js SDK generated from our schema by the route docs/upgrading.md
 * documents, under the real engine and Pulumi's Node.js language host (a `runtime: nodejs` project with
 * index.ts, as a user writes it): `retainOnDelete`, then the same resources on the SDK with the `import`
 * option, then the options removed. Every server, device and address keeps its id; nothing is written
 * at the service but the dynamic Token's revocation; the plugin then owns the objects (destroy deletes
 * them). The package comes from this checkout's `npm pack`; the SDK from a clone, installed as the docs
 * say (`install-links=true`, `npm install <clone>/sdks/nodejs`); the plugin is the package's npm bin.
 */
describe("engine: a stack on the dynamic resources moves to the generated Node.js SDK", function () {
  this.timeout(1_200_000);
  let emu: Emulator;
  let proxy: Awaited<ReturnType<typeof _recordingProxy>>;
  let dashboard: Client;
  let work: string;
  let p: PackageProject;

  before(async function () {
    this.timeout(1_200_000);
    _failWithout(_engineMissing("nodejs") ?? _dynamicMissing());
    emu = await startEmulator({ users: [{ username: USERNAME, password: PASSWORD }] });
    emu.addApiKey(USERNAME, API_KEY);
    proxy = await _recordingProxy(emu.url);
    dashboard = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    work = mkdtempSync(path.join(os.tmpdir(), "dns-account-move-sdk-"));
    const [tarball, snapshot] = await Promise.all([_currentTarball(), _gitSnapshot(work)]);
    await run("git", ["clone", "--quiet", snapshot, path.join(work, "clone")]);
    p = await _packageProject(
      "dns-account-move-sdk-",
      {
        "Pulumi.yaml": "name: dns-account-move-sdk\nruntime: nodejs\nmain: index.ts\n",
        "package.json": JSON.stringify({ name: "dns-account-move-sdk", private: true, dependencies: { "@pulumi/pulumi": "3.248.0" }, devDependencies: { typescript: devDependencies.typescript, "@types/node": devDependencies["@types/node"] } }),
        ".npmrc": "install-links=true\n",
        "index.ts": dynamicProgram(false),
      },
      { "dns-account:baseUrl": proxy.url, "dns-account:username": USERNAME, "dns-account:password": { secret: PASSWORD } },
    );
    await run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: p.dir, env: _cleanEnv(), maxBuffer: 64 * 1024 * 1024 });
    await p.install(tarball);
  });

  after(async () => {
    await dashboard?.close();
    await proxy?.close();
    await emu?.close();
    p?.remove();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("retainOnDelete, then the same resources on the SDK with the import option: every server, device and address keeps its id, and the plugin owns them after", async () => {
    const empty = await _inventory(dashboard);
    assert.equal(_summaryCounts(await p.apply("up")).create, 6, "the stack, a token, a server, two devices and an address");
    const made = await _inventory(dashboard);
    assert.equal(made.length - empty.length, 4, made.join("\n"));
    const ids = JSON.parse(await p.pulumi("stack", "output", "--json")) as Ids;
    const oldRefreshToken = await _dynamicTokenRefreshToken(p);
    assert.ok(await _refreshTokenAlive(emu.url, oldRefreshToken));
    const since = proxy.requests.length;
    // What the move may write at the service: revocations only (the old Token's, and the logins' the plugin revokes as it exits).
    const changes = (): string[] => _writes(proxy.requests, since).filter((w) => w !== "POST /oapi/v1/revoke_token");

    // Step 2 of docs/upgrading.md: retainOnDelete on the server, the devices and the address; `up` records it.
    p.write({ "index.ts": dynamicProgram(true) });
    assert.deepEqual(_summaryCounts(await p.apply("up")), { same: 6 });
    assert.equal((await p.pulumi("stack", "export")).match(/"retainOnDelete": true/g)?.length, 4, "four resources retained, not the Token");

    // Step 4: the SDK from the clone, as the docs install it, and the program on it with the import option.
    await run(npm, ["install", "--prefer-offline", "--no-audit", "--no-fund", path.join(work, "clone", "sdks", "nodejs")], { cwd: p.dir, env: _cleanEnv(), maxBuffer: 64 * 1024 * 1024 });
    p.write({ "index.ts": sdkProgram(ids) });
    // Step 5: only imports and the dynamic resources leaving the state; no create, no replace.
    assert.deepEqual(_summaryCounts(await p.pulumi("preview")), { import: 4, delete: 5, same: 1 }, "imports four, drops five from the state");
    assert.deepEqual(changes(), [], "a preview writes nothing");
    // Step 6.
    const moved = await p.apply("up");
    assert.deepEqual(_summaryCounts(moved), { import: 4, delete: 5, same: 1 }, moved);
    assert.deepEqual(changes(), [], "nothing but revocations");
    assert.equal(await _refreshTokenAlive(emu.url, oldRefreshToken), false, "the dynamic Token's delete revoked its refresh token");
    assert.deepEqual(await _inventory(dashboard), made, "every server, device and address keeps its id");
    assert.deepEqual(await _stateIds(p), [
      `dns-account:index:DedicatedIpv4 address ${ids.ip}`,
      `dns-account:index:Device laptop ${ids.laptopId}`,
      `dns-account:index:Device router ${ids.routerId}`,
      `dns-account:index:DnsServer home ${ids.serverId}`,
    ]);
    assert.deepEqual(JSON.parse(await p.pulumi("stack", "output", "--json")), ids, "the same outputs from the SDK's resources");
    await p.pulumi("preview", "--expect-no-changes");

    // Then the import options go: nothing changes.
    p.write({ "index.ts": sdkProgram() });
    await p.pulumi("preview", "--expect-no-changes");
    assert.deepEqual(changes(), []);

    // The plugin owns them now: destroy deletes the server and the devices (the address stays allocated to the account, as documented).
    await p.apply("destroy");
    const left = await _inventory(dashboard);
    assert.deepEqual(
      left.filter((o) => !o.startsWith("address ")),
      empty.filter((o) => !o.startsWith("address ")),
      left.join("\n"),
    );
  });
});
