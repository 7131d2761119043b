import assert from "node:assert/strict";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _assertNoSecrets, _refreshTokenAlive, _withLowerCase } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _dynamicMissing, _engineMissing, type NodeProgramProject, _nodeProgramProject, type PulumiProject, _failWithout, _stackProject } from "../support/pulumi-cli";

const USERNAME = "rotate@example.com";
const PASSWORD = "pw-ROTATE-8c1f4e27";
const API_KEY = "key-ROTATE-5be09d13";

/** The Token's refresh token in a `stack export --show-secrets` deployment. */
function refreshTokenOf(exported: string): string {
  type Secret = { plaintext?: string };
  const resources = (JSON.parse(exported) as { deployment: { resources: { type: string; outputs?: { refreshToken?: string | Secret } }[] } }).deployment.resources;
  const held = resources.find((r) => /Token$/.test(r.type) && r.outputs?.refreshToken)?.outputs?.refreshToken;
  const token = typeof held === "object" && held.plaintext !== undefined ? (JSON.parse(held.plaintext) as string) : held;
  assert.ok(typeof token === "string" && token.length > 0, "the state holds the token's refresh token");
  return token;
}

/** A YAML program: a Token that rotates with `rotation`, and a server, a device and an address that use its credentials. */
const YAML_PROGRAM = `name: rotation-dependents
runtime: yaml
config:
  rotation:
    type: string
    default: "1"
  serverName:
    type: string
    default: CI only
resources:
  automation:
    type: dns-account:index:Token
    properties:
      keepers:
        rotation: \${rotation}
  ciOnly:
    type: dns-account:index:DnsServer
    properties:
      name: \${serverName}
      credentials:
        baseUrl: \${automation.baseUrl}
        refreshToken: \${automation.refreshToken}
  runner:
    type: dns-account:index:Device
    properties:
      name: CI runner
      deviceType: LINUX
      dnsServerId: \${ciOnly.serverId}
      credentials:
        baseUrl: \${automation.baseUrl}
        refreshToken: \${automation.refreshToken}
  runnerIp:
    type: dns-account:index:DedicatedIpv4
    properties:
      deviceId: \${runner.deviceId}
      credentials:
        baseUrl: \${automation.baseUrl}
        refreshToken: \${automation.refreshToken}
outputs:
  serverId: \${ciOnly.serverId}
`;

/** The same account as a TypeScript program of dynamic resources (CommonJS, as `tsc` makes it). */
const DYNAMIC_PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const { Token, DnsServer, Device } = require("pulumi-dns-account");
const config = new pulumi.Config();
const automation = new Token("automation", { keepers: { rotation: config.get("rotation") ?? "1" } });
const credentials = { baseUrl: automation.baseUrl, refreshToken: automation.refreshToken };
const ciOnly = new DnsServer("ciOnly", { name: config.get("serverName") ?? "CI only", credentials });
const runner = new Device("runner", { name: "CI runner", deviceType: "LINUX", dnsServerId: ciOnly.serverId, credentials });
exports.serverId = ciOnly.serverId;
`;

/**
 * Issue 32 §1: a Token's documented pattern, resources whose `credentials` come from the Token, under the
 * real engine in both faces. After the Token is replaced (keepers), its old refresh token is revoked;
 * refresh, a no-change preview, an update and destroy of the dependents all work, with no extra login,
 * because the new credentials are recorded in the dependents' state by an update that calls nothing.
 */
describe("engine: rotating a Token keeps the resources that use its credentials working", function () {
  this.timeout(900_000);
  let emu: Emulator;
  let user: Client;
  let installed: string;
  const projects: PulumiProject[] = [];

  before(async () => {
    emu = await startEmulator({ users: [{ username: USERNAME, password: PASSWORD }] });
    emu.addApiKey(USERNAME, API_KEY);
    user = createClient({ baseUrl: emu.url, apiKey: API_KEY });
    installed = await _installedProgram();
  });

  after(async () => {
    await user?.close();
    await emu?.close();
    for (const p of projects) p.remove();
  });

  /** Whether the service still honours a refresh token. */
  const alive = (refreshToken: string): Promise<boolean> => _refreshTokenAlive(emu.url, refreshToken);

  it("the plugin (YAML): a keepers change replaces the Token; refresh, no-change preview, an update and destroy of its dependents work", async function () {
    _failWithout(_engineMissing("yaml"));
    const p = await _stackProject("dns-account-engine-rotation-", {
      program: YAML_PROGRAM,
      config: { "dns-account:baseUrl": emu.url, "dns-account:username": USERNAME, "dns-account:password": { secret: PASSWORD } },
      env: { PATH: path.join(installed, "node_modules", ".bin") },
    });
    projects.push(p);
    const logs: string[] = [];
    const grantsBefore = emu.stats.passwordGrants;

    logs.push(await p.pulumi("up", "--yes"));
    const serverId = (await p.pulumi("stack", "output", "serverId")).trim();
    assert.equal((await user.dnsServers.get(serverId)).name, "CI only");
    const first = refreshTokenOf(await p.pulumi("stack", "export", "--show-secrets"));

    await p.pulumi("config", "set", "rotation", "2");
    const rotate = await p.pulumi("up", "--yes");
    logs.push(rotate);
    assert.match(rotate, /1 replaced/, rotate);
    const second = refreshTokenOf(await p.pulumi("stack", "export", "--show-secrets"));
    assert.notEqual(second, first);
    assert.equal(await alive(first), false, "the replaced Token's refresh token is revoked");

    const refresh = await p.pulumi("refresh", "--yes");
    logs.push(refresh);
    logs.push(await p.pulumi("preview", "--expect-no-changes"));

    await p.pulumi("config", "set", "serverName", "CI only (renamed)");
    logs.push(await p.pulumi("up", "--yes"));
    assert.equal((await user.dnsServers.get(serverId)).name, "CI only (renamed)");
    logs.push(await p.pulumi("preview", "--expect-no-changes"));

    logs.push(await p.pulumi("destroy", "--yes"));
    assert.equal((await user.dnsServers.list()).some((s) => s.id === serverId), false, "destroy deleted the server");
    assert.equal((await user.devices.list()).some((d) => d.name === "CI runner"), false, "destroy deleted the device");
    assert.equal(await alive(second), false, "destroy revoked the Token");
    assert.equal(emu.stats.passwordGrants - grantsBefore, 2, "one login per Token, none for the dependents");
    _assertNoSecrets(logs.join("\n"), _withLowerCase([PASSWORD, first, second, p.env.PULUMI_CONFIG_PASSPHRASE!]));
  });

  it("dynamic resources (TypeScript): a keepers change replaces the Token; refresh, no-change preview, an update and destroy of its dependents work", async function () {
    _failWithout(_dynamicMissing());
    const p: NodeProgramProject = _nodeProgramProject("dns-account-engine-rotation-dyn-", installed, { "index.js": DYNAMIC_PROGRAM });
    projects.push(p);
    await p.config({
      "dns-account:baseUrl": { value: emu.url },
      "dns-account:username": { value: USERNAME },
      "dns-account:password": { value: PASSWORD, secret: true },
    });
    const logs: string[] = [];
    const grantsBefore = emu.stats.passwordGrants;

    const up = await p.run("up");
    logs.push(up.stdout ?? "");
    const serverId = String(up.outputs?.serverId?.value);
    assert.equal((await user.dnsServers.get(serverId)).name, "CI only");
    const first = refreshTokenOf(await p.pulumi("stack", "export", "--show-secrets"));

    await p.config({ rotation: { value: "2" } });
    const rotate = await p.run("up");
    logs.push(rotate.stdout ?? "");
    assert.equal(rotate.summary?.resourceChanges?.replace, 1, rotate.stdout);
    const second = refreshTokenOf(await p.pulumi("stack", "export", "--show-secrets"));
    assert.equal(await alive(first), false, "the replaced Token's refresh token is revoked");

    logs.push((await p.run("refresh")).stdout ?? "");
    logs.push((await p.run("preview", { expectNoChanges: true })).stdout ?? "");
    await p.config({ serverName: { value: "CI only (renamed)" } });
    logs.push((await p.run("up")).stdout ?? "");
    assert.equal((await user.dnsServers.get(serverId)).name, "CI only (renamed)");
    logs.push((await p.run("destroy")).stdout ?? "");
    assert.equal((await user.dnsServers.list()).some((s) => s.id === serverId), false, "destroy deleted the server");
    assert.equal(await alive(second), false, "destroy revoked the Token");
    assert.equal(emu.stats.passwordGrants - grantsBefore, 2, "one login per Token, none for the dependents");
    _assertNoSecrets(logs.join("\n"), _withLowerCase([PASSWORD, first, second, p.env.PULUMI_CONFIG_PASSPHRASE!]));
  });
});
