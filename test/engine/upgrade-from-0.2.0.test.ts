import assert from "node:assert/strict";
import { readlinkSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _refreshTokenAlive } from "../support/helpers";
import { _dynamicMissing, _engineMissing, _failWithout, _summaryCounts } from "../support/pulumi-cli";
import { _currentTarball, type PackageProject, _packageProject, _recordingProxy, _releaseTarball } from "../support/release";
import { _dynamicTokenRefreshToken, _inventory, _stateIds, _writes } from "../support/service-inventory";

/** 0.2.0: the last commit before the CHANGELOG's 0.3.0 section. */
const RELEASE_0_2_0 = "1bd26aa8cb5e1a51d7afb7345f4c448270801713"; // 0.2.0: the full id, so a shallow clone can fetch it
const USERNAME = "ops@example.com";
const PASSWORD = "pw-UPGRADE-7d2e4a19";
const API_KEY = "key-UPGRADE-5b8c1f03";

/**
 * The server and the laptop in Pulumi YAML, through the plugin: the server's settings with `rules` as its
 * user rules (the other settings as SETTINGS_JS has them); with `ids`, each resource takes over the
 * object with the `import` option.
 */
const homeAndLaptop = (rules: string[], ids?: { server: string; device: string }): string => `  home:
    type: dns-account:index:DnsServer
    properties:
      name: Home
      settings:
        protectionEnabled: true
        blockTtlSeconds: 60
        blockingMode:
          mode: NXDOMAIN
        userRules:
          enabled: true
          rules:
${rules.map((r) => `            - "${r}"\n`).join("")}        safeBrowsing:
          enabled: true
          blockNewlyRegisteredDomains: true
        blockedServices:
          - tiktok
        parentalControl:
          enabled: true
          safeSearch: true
          schedule:
            monday:
              from: "07:00"
              to: "20:00"
${ids ? `    options:\n      import: ${ids.server}\n` : ""}  laptop:
    type: dns-account:index:Device
    properties:
      name: Laptop
      deviceType: MAC
      dnsServerId: \${home.serverId}
      settings:
        protectionEnabled: true
${ids ? `    options:\n      import: ${ids.device}\n` : ""}`;

/** A DNS server with settings, two devices and a dedicated address, in Pulumi YAML through the plugin. */
const YAML_PROGRAM = `name: dns-account-upgrade-yaml
runtime: yaml
resources:
${homeAndLaptop(["||ads.example^", "@@||bank.example^$important"])}  router:
    type: dns-account:index:Device
    properties:
      name: Router
      deviceType: ROUTER
      dnsServerId: \${home.serverId}
  routerAddress:
    type: dns-account:index:DedicatedIpv4
    properties:
      deviceId: \${router.deviceId}
outputs:
  serverId: \${home.serverId}
  laptopAddresses: \${laptop.dnsAddresses}
  routerIpv4: \${routerAddress.ip}
`;

/** The server's settings of the dynamic resources' program below: the same values as the YAML's. */
const SETTINGS_JS = `{
    protectionEnabled: true,
    blockTtlSeconds: 60,
    blockingMode: { mode: "NXDOMAIN" },
    userRules: { enabled: true, rules: ["||ads.example^"] },
    safeBrowsing: { enabled: true, blockNewlyRegisteredDomains: true },
    blockedServices: ["tiktok"],
    parentalControl: { enabled: true, safeSearch: true, schedule: { monday: { from: "07:00", to: "20:00" } } },
  }`;

/**
 * 0.2.0's dynamic resources as its README showed them: a Token from the stack's password login, a DNS
 * server and a device that use the Token's refresh token. `retain` adds `retainOnDelete` (the first
 * step of the move to the plugin).
 */
const tsProgram = (retain: boolean): string => `const { Token, DnsServer, Device } = require("pulumi-dns-account");
const opts = ${retain ? "{ retainOnDelete: true }" : "{}"};
const token = new Token("ops", { keepers: { rotation: "1" } });
const credentials = { baseUrl: token.baseUrl, refreshToken: token.refreshToken };
const home = new DnsServer("home", { name: "Home", credentials, settings: ${SETTINGS_JS} }, opts);
const laptop = new Device("laptop", { name: "Laptop", deviceType: "MAC", dnsServerId: home.serverId, credentials, settings: { protectionEnabled: true } }, opts);
exports.serverId = home.serverId;
exports.deviceId = laptop.deviceId;
exports.doh = laptop.dnsAddresses.apply((a) => a.dnsOverHttpsUrl);
`;

/**
 * The same server and device on the plugin (the native provider; credentials from stack config), in
 * Pulumi YAML, the same project: with `ids`, each resource takes over the object with the `import` option.
 */
const nativeProgram = (ids?: { server: string; device: string }): string => `name: dns-account-upgrade-ts
runtime: yaml
resources:
${homeAndLaptop(["||ads.example^"], ids)}outputs:
  serverId: \${home.serverId}
  deviceId: \${laptop.deviceId}
`;

/** Where npm's `pulumi-resource-dns-account` bin points in the program: 0.2.0's plugin is main.js, today's bin.js. */
const pluginBin = (p: PackageProject): string => readlinkSync(path.join(p.dir, "node_modules", ".bin", "pulumi-resource-dns-account"));

/**
 * Issue 33 §4: stacks made by 0.2.0 (built from this repository's history, commit 1bd26aa; cached) run
 * under the current version with no change, under the real engine: a YAML stack through the plugin and
 * a Node.js program on the dynamic resources (Pulumi's Node.js language host), each created by 0.2.0's
 * `npm pack`, then the current `npm pack` installed over it, as a user upgrades. `preview
 * --expect-no-changes` passes, `refresh` finds nothing, and `up` writes nothing at the service (no
 * request but reads and token grants; every object keeps its id). Then the dynamic stack moves to the
 * plugin by the documented route (docs/upgrading.md): `retainOnDelete`, then the same resources on the
 * plugin with the `import` option; every server and device keeps its id and nothing is deleted.
 */
describe("engine: stacks made by 0.2.0 under the current version", function () {
  this.timeout(900_000);
  let emu: Emulator;
  /** The programs' base URL: every request they send the emulator is recorded. */
  let proxy: Awaited<ReturnType<typeof _recordingProxy>>;
  let user: Client;
  let release: string;
  let current: string;
  const projects: PackageProject[] = [];

  before(async function () {
    this.timeout(900_000);
    // Never green without the engine (issue 33 §1): `npm run engine` builds it and the language hosts.
    _failWithout(_engineMissing("yaml") ?? _dynamicMissing());
    emu = await startEmulator({ users: [{ username: USERNAME, password: PASSWORD }] });
    emu.addApiKey(USERNAME, API_KEY);
    proxy = await _recordingProxy(emu.url);
    user = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    [release, current] = await Promise.all([_releaseTarball(RELEASE_0_2_0), _currentTarball()]);
  });

  after(async function () {
    this.timeout(300_000);
    await user?.close();
    await proxy?.close();
    await emu?.close();
    for (const p of projects) p.remove();
  });

  it("a YAML stack made by 0.2.0's plugin (server with settings, devices, a dedicated address): no changes under the current plugin, and up writes nothing", async () => {
    const p = await _packageProject("dns-account-upgrade-yaml-", { "Pulumi.yaml": YAML_PROGRAM }, { "dns-account:baseUrl": proxy.url, "dns-account:apiKey": { secret: API_KEY } });
    projects.push(p);
    const empty = await _inventory(user);
    await p.install(release);
    assert.match(pluginBin(p), /dist\/provider\/plugin\/main\.js$/, "0.2.0's plugin is the npm bin");
    assert.equal(_summaryCounts(await p.apply("up")).create, 5, "the stack, a server, two devices and an address");
    const made = await _inventory(user);
    assert.equal(made.length - empty.length, 4, made.join("\n"));
    const ids = await _stateIds(p);

    await p.install(current);
    assert.match(pluginBin(p), /dist\/provider\/plugin\/bin\.js$/, "the current plugin is the npm bin");
    const since = proxy.requests.length;
    await p.pulumi("preview", "--expect-no-changes", "--diff");
    await p.pulumi("refresh", "--preview-only", "--expect-no-changes");
    const up = _summaryCounts(await p.apply("up"));
    assert.deepEqual(up, { same: 5 }, "up changes nothing");
    assert.deepEqual(_writes(proxy.requests, since), [], "nothing written at the service");
    assert.deepEqual(await _inventory(user), made, "every object keeps its id");
    assert.deepEqual(await _stateIds(p), ids, "the state keeps every id");

    // The current plugin deletes what 0.2.0 made (the address stays allocated, as documented).
    await p.apply("destroy");
    assert.deepEqual(
      (await _inventory(user)).filter((o) => !o.startsWith("address ")),
      empty.filter((o) => !o.startsWith("address ")),
    );
  });

  let dynamic: PackageProject | undefined;
  let dynamicMade: string[] = [];

  it("a Node.js stack on 0.2.0's dynamic resources (Token, DnsServer, Device): no changes under the current package, and up writes nothing", async () => {
    const p = await _packageProject(
      "dns-account-upgrade-ts-",
      { "Pulumi.yaml": "name: dns-account-upgrade-ts\nruntime: nodejs\nmain: index.js\n", "index.js": tsProgram(false) },
      { "dns-account:baseUrl": proxy.url, "dns-account:username": USERNAME, "dns-account:password": { secret: PASSWORD } },
    );
    projects.push(p);
    await p.install(release);
    assert.match(pluginBin(p), /dist\/provider\/plugin\/main\.js$/, "0.2.0 is installed");
    assert.equal(_summaryCounts(await p.apply("up")).create, 4, "the stack, the token, a server and a device");
    const made = await _inventory(user);
    const ids = await _stateIds(p);
    assert.equal(ids.length, 3, ids.join("\n"));

    await p.install(current);
    assert.match(pluginBin(p), /dist\/provider\/plugin\/bin\.js$/, "the current package is installed");
    const since = proxy.requests.length;
    const revokes = emu.stats.revokeCalls;
    await p.pulumi("preview", "--expect-no-changes", "--diff");
    await p.pulumi("refresh", "--preview-only", "--expect-no-changes");
    assert.deepEqual(_summaryCounts(await p.apply("up")), { same: 4 }, "up changes nothing");
    assert.deepEqual(_writes(proxy.requests, since), [], "nothing written at the service");
    assert.equal(emu.stats.revokeCalls, revokes, "the token is not revoked");
    assert.deepEqual(await _inventory(user), made, "every object keeps its id");
    assert.deepEqual(await _stateIds(p), ids, "the state keeps every id");
    dynamic = p;
    dynamicMade = made;
  });

  it("moving that stack from the dynamic resources to the plugin (retainOnDelete, then the import option) keeps every server and device", async () => {
    const p = dynamic;
    assert.ok(p, "needs the stack the test before made");
    const outputs = JSON.parse(await p.pulumi("stack", "output", "--json")) as { serverId: string; deviceId: string };
    const oldRefreshToken = await _dynamicTokenRefreshToken(p);
    assert.ok(await _refreshTokenAlive(emu.url, oldRefreshToken));
    const since = proxy.requests.length;
    // What the move writes at the service: nothing but revocations (the old Token's, and the plugin's own
    // logins', which it revokes as it exits).
    const changes = (): string[] => _writes(proxy.requests, since).filter((w) => w !== "POST /oapi/v1/revoke_token");

    // Step 1: retainOnDelete on every resource that holds a service object; `up` records it in the state.
    p.write({ "index.js": tsProgram(true) });
    assert.deepEqual(_summaryCounts(await p.apply("up")), { same: 4 });
    assert.match(await p.pulumi("stack", "export"), /"retainOnDelete": true/);

    // Step 2: the same resources on the plugin, each with the import option; the dynamic ones leave the state.
    p.write({ "Pulumi.yaml": nativeProgram({ server: outputs.serverId, device: outputs.deviceId }) });
    const preview = _summaryCounts(await p.pulumi("preview"));
    assert.deepEqual(preview, { import: 2, delete: 3, same: 1 }, "imports two, drops three from the state");
    const moved = await p.apply("up");
    assert.deepEqual(_summaryCounts(moved), { import: 2, delete: 3, same: 1 }, moved);
    assert.deepEqual(changes(), [], "nothing but revocations");
    assert.equal(await _refreshTokenAlive(emu.url, oldRefreshToken), false, "the dynamic Token's delete revoked its refresh token");
    assert.deepEqual(await _inventory(user), dynamicMade, "every server and device keeps its id");
    assert.deepEqual(await _stateIds(p), [`dns-account:index:Device laptop ${outputs.deviceId}`, `dns-account:index:DnsServer home ${outputs.serverId}`]);
    await p.pulumi("preview", "--expect-no-changes");

    // Step 3: the import options go; nothing changes.
    p.write({ "Pulumi.yaml": nativeProgram() });
    await p.pulumi("preview", "--expect-no-changes");
    assert.deepEqual(changes(), []);

    // The plugin now manages them: destroy deletes both at the service.
    await p.apply("destroy");
    const left = await _inventory(user);
    assert.ok(!left.some((o) => o.includes(outputs.serverId) || o.includes(outputs.deviceId)), left.join("\n"));
  });
});
