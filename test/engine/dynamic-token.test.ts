import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _assertNoSecrets, _refreshTokenAlive, _repoRoot, _withLowerCase } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _dynamicMissing, type NodeProgramProject, _nodeProgramProject, _failWithout } from "../support/pulumi-cli";

const USERNAME = "ops@example.com";
const PASSWORD = "pw-CLI-5a7e3c91";
const API_KEY = "key-DYNAMIC-3f9b27c1";

/** An example's files as they are in the repository (Pulumi.yaml, index.ts, package.json, rules.txt), unedited. */
function example(name: string): Record<string, string> {
  const dir = path.join(_repoRoot(), "examples", name);
  return Object.fromEntries(readdirSync(dir).filter((f) => statSync(path.join(dir, f)).isFile() && f !== "README.md").map((f) => [f, readFileSync(path.join(dir, f), "utf8")]));
}

/** The secrets a device's with-auth addresses embed: its DoH password, as given and percent-encoded. */
function dohSecrets(addresses: Record<string, unknown>): string[] {
  const url = new URL(String(addresses.dns_over_https_with_auth_url));
  const password = decodeURIComponent(url.password);
  assert.ok(password.length >= 8, "the device has a DoH password");
  return [password, url.password, String(addresses.dns_over_https_with_auth_url)];
}

/** Names and ids of an account's servers and devices. */
async function inventory(client: Client): Promise<{ servers: string[]; devices: string[] }> {
  return {
    servers: (await client.dnsServers.list()).map((s) => `${s.name}:${s.id}`).sort(),
    devices: (await client.devices.list()).map((d) => `${d.name}:${d.id}`).sort(),
  };
}

/** The URN of the stack's Token (the dynamic resource with a refresh token) in a `stack export` deployment. */
function tokenUrn(deployment: unknown): string {
  const resources = (deployment as { deployment: { resources: { urn: string; type: string; outputs?: { refreshToken?: unknown } }[] } }).deployment.resources;
  const found = resources.find((r) => r.type === "pulumi-nodejs:dynamic/dns-account:Token");
  assert.ok(found, `the token in the state: ${resources.map((r) => r.type).join(", ")}`);
  return found.urn;
}

/**
 * TypeScript dynamic resources under the real engine (`npm run engine`'s `pulumi`), each example program
 * run as its README says (issue 33 §2): the example's folder as it is (examples/rotation's Token,
 * examples/home-network's account), its package installed from `npm pack` beside @pulumi/pulumi and
 * TypeScript (what `npm run example:install -- <name>` does), and `pulumi up` of the folder, which starts
 * Pulumi's Node.js language host (`npm run engine` builds it) to compile and run index.ts; the dynamic
 * resources run in Pulumi's own pulumi-resource-pulumi-nodejs. Every step is checked at the emulator, not
 * only in what Pulumi reports.
 */
describe("engine: TypeScript dynamic resources (examples/rotation, examples/home-network)", function () {
  this.timeout(600_000);
  let emu: Emulator;
  let user: Client;
  let installed: string;
  const projects: NodeProgramProject[] = [];

  before(async function () {
    _failWithout(_dynamicMissing());
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

  /** Whether the service still honours a refresh token (a refresh grant with it). */
  const refreshTokenAlive = (refreshToken: string): Promise<boolean> => _refreshTokenAlive(emu.url, refreshToken);

  /** The Token's refresh token in the stack's state (`pulumi stack export --show-secrets`). */
  async function stateRefreshToken(p: NodeProgramProject): Promise<string> {
    type Secret = { plaintext?: string };
    const deployment = JSON.parse(await p.pulumi("stack", "export", "--show-secrets")) as { deployment: { resources: { outputs?: { refreshToken?: string | Secret } }[] } };
    const held = deployment.deployment.resources.find((r) => r.outputs?.refreshToken)?.outputs?.refreshToken;
    const token = typeof held === "object" && held.plaintext !== undefined ? (JSON.parse(held.plaintext) as string) : held;
    assert.ok(typeof token === "string" && token.length > 0, "the state holds the token's refresh token");
    return token;
  }

  it("examples/rotation's Token: up, no changes, rotation by up --replace, destroy revokes; secrets only as ciphertext", async () => {
    const p = _nodeProgramProject("dns-account-engine-token-", installed, example("rotation"));
    projects.push(p);
    await p.config({
      "dns-account:baseUrl": { value: emu.url },
      "dns-account:username": { value: USERNAME },
      "dns-account:password": { value: PASSWORD, secret: true },
    });
    const logs: string[] = [];

    const up = await p.run("up");
    logs.push(up.stdout ?? "");
    assert.equal(up.summary?.resourceChanges?.create, 2, "the stack and the token");
    assert.equal(emu.stats.passwordGrants, 1);
    const accessToken = up.outputs?.accessToken;
    assert.equal(accessToken?.secret, true, "accessToken is a secret output");
    const firstRefresh = await stateRefreshToken(p);
    assert.ok(await refreshTokenAlive(firstRefresh));

    const preview = await p.run("preview", { expectNoChanges: true });
    logs.push(preview.stdout ?? "");
    assert.deepEqual(Object.keys(preview.changeSummary ?? {}), ["same"]);
    assert.equal(emu.stats.passwordGrants, 1, "a preview logs in nowhere");

    const stateBefore = await p.pulumi("stack", "export");
    const rotated = await p.run("up", { replace: [tokenUrn(JSON.parse(stateBefore))] });
    logs.push(rotated.stdout ?? "");
    assert.equal(rotated.summary?.resourceChanges?.replace, 1, rotated.stdout);
    assert.equal(emu.stats.passwordGrants, 2, "the replacement logs in again");
    assert.equal(emu.stats.revokeCalls, 1, "the old refresh token is revoked once the new token exists");
    assert.equal(await refreshTokenAlive(firstRefresh), false, "the replaced token's refresh token is revoked at the service");
    const secondRefresh = await stateRefreshToken(p);
    assert.notEqual(secondRefresh, firstRefresh);
    assert.ok(await refreshTokenAlive(secondRefresh));
    const newAccess = rotated.outputs?.accessToken;
    assert.notEqual(newAccess?.value, accessToken?.value, "a new access token");
    logs.push((await p.run("preview", { expectNoChanges: true })).stdout ?? "");

    const state = await p.pulumi("stack", "export");
    assert.match(state, /"ciphertext"/);
    const destroy = await p.run("destroy");
    logs.push(destroy.stdout ?? "");
    assert.equal(destroy.summary?.resourceChanges?.delete, 2, destroy.stdout);
    assert.equal(emu.stats.revokeCalls, 2);
    assert.equal(await refreshTokenAlive(secondRefresh), false, "destroy revokes the refresh token at the service");

    const secrets = _withLowerCase([PASSWORD, firstRefresh, secondRefresh, String(accessToken?.value), String(newAccess?.value), p.env.PULUMI_CONFIG_PASSPHRASE!]);
    _assertNoSecrets(stateBefore + state + (await p.pulumi("stack", "export")), secrets);
    _assertNoSecrets(logs.join("\n"), secrets);
  });

  it("examples/home-network: up, no changes, a dashboard edit found by refresh and repaired by up, destroy; secrets only as ciphertext", async () => {
    const p = _nodeProgramProject("dns-account-engine-account-", installed, example("home-network"))
    projects.push(p);
    await p.config({ "dns-account:baseUrl": { value: emu.url }, "dns-account:apiKey": { value: API_KEY, secret: true } });
    const before = await inventory(user);
    const logs: string[] = [];

    const up = await p.run("up");
    logs.push(up.stdout ?? "");
    const serverId = String(up.outputs?.serverId?.value);
    const home = await user.dnsServers.get(serverId);
    assert.equal(home.name, "Home");
    assert.deepEqual(home.settings.parental_control_settings?.blocked_services.map((s) => s.id).sort(), ["roblox", "tiktok"]);
    assert.equal(home.settings.parental_control_settings?.enabled, true);
    const devices = (await user.devices.list()).filter((d) => d.dns_server_id === serverId);
    assert.deepEqual(devices.map((d) => `${d.name}/${d.device_type}`).sort(), ["Laptop/MAC", "Router/ROUTER"]);
    const laptop = devices.find((d) => d.name === "Laptop")!;
    const router = devices.find((d) => d.name === "Router")!;
    assert.ok((await user.devices.dedicatedAddresses(router.id)).ipv4.includes(String(up.outputs?.routerIpv4?.value)), "the router holds the dedicated address");
    assert.equal(up.outputs?.laptopDohWithAuth?.secret, true);
    assert.equal(up.outputs?.routerDohWithAuth?.secret, true);

    logs.push((await p.run("preview", { expectNoChanges: true })).stdout ?? "");

    // A dashboard edit: the laptop renamed through the API.
    await user.devices.update(laptop.id, { name: "Laptop (dashboard)" });
    const refresh = await p.run("refresh");
    logs.push(refresh.stdout ?? "");
    assert.equal(refresh.summary?.resourceChanges?.update, 1, refresh.stdout);
    const afterRefresh = await p.pulumi("stack", "export");
    assert.match(afterRefresh, /Laptop \(dashboard\)/, "the state holds what refresh read");
    const repair = await p.run("up");
    logs.push(repair.stdout ?? "");
    assert.equal(repair.summary?.resourceChanges?.update, 1, repair.stdout);
    assert.equal((await user.devices.get(laptop.id)).name, "Laptop", "up puts the program's name back at the service");
    logs.push((await p.run("preview", { expectNoChanges: true })).stdout ?? "");

    const state = await p.pulumi("stack", "export");
    assert.match(state, /"ciphertext"/);
    const secrets = [API_KEY, p.env.PULUMI_CONFIG_PASSPHRASE!];
    for (const d of [laptop, router]) secrets.push(...dohSecrets((await user.devices.get(d.id)).dns_addresses as Record<string, unknown>));
    logs.push((await p.run("destroy")).stdout ?? "");
    assert.deepEqual(await inventory(user), before, "destroy leaves the account as it was");
    _assertNoSecrets(state + afterRefresh + (await p.pulumi("stack", "export")), _withLowerCase(secrets));
    _assertNoSecrets(logs.join("\n"), _withLowerCase(secrets));
  });
});
