import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_API_KEYS, type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _assertNoSecrets, _repoRoot } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _engineMissing, type PulumiProject, _pulumiProject } from "../support/pulumi-cli";

/** The emulator's two default users and their API keys: two accounts. */
const [USER, KIDS] = DEFAULT_API_KEYS as [{ key: string; username: string }, { key: string; username: string }];

/** The secrets a device's with-auth addresses embed: its DoH password, as given and percent-encoded. */
function dohSecrets(addresses: Record<string, unknown>): string[] {
  const url = new URL(String(addresses.dns_over_https_with_auth_url));
  const password = decodeURIComponent(url.password);
  assert.ok(password.length >= 8, "the device has a DoH password");
  return [...new Set([password, url.password, password.toLowerCase(), url.password.toLowerCase(), String(addresses.dns_over_https_with_auth_url)])];
}

/** Names and ids of an account's servers and devices. */
async function inventory(client: Client): Promise<{ servers: string[]; devices: string[] }> {
  return {
    servers: (await client.dnsServers.list()).map((s) => `${s.name}:${s.id}`).sort(),
    devices: (await client.devices.list()).map((d) => `${d.name}:${d.id}`).sort(),
  };
}

/**
 * Pulumi YAML programs through the native plugin under the real engine (`npm run engine`'s `pulumi`
 * and `pulumi-language-yaml`; the plugin from an `npm pack` install on PATH), every step checked against
 * the emulator's state: the whole life of examples/yaml-home-network (with a dashboard edit found by
 * `refresh` and repaired by `up`), two explicit providers on two accounts, and `pulumi up` interrupted.
 */
describe("engine: YAML programs through the plugin, their whole life", function () {
  this.timeout(600_000);
  let emu: Emulator;
  let user: Client;
  let kids: Client;
  let pathToPlugin: string;
  const projects: PulumiProject[] = [];
  const requests: string[] = [];
  const onRequest: ((line: string) => void)[] = [];

  before(async function () {
    const missing = _engineMissing("yaml");
    if (missing) {
      console.log(`      skipped: ${missing}`);
      this.skip();
    }
    emu = await startEmulator({
      limits: { devices: 40 },
      log: (line) => {
        requests.push(line);
        for (const f of onRequest) f(line);
      },
    });
    user = createClient({ baseUrl: emu.url, apiKey: USER.key });
    kids = createClient({ baseUrl: emu.url, apiKey: KIDS.key });
    pathToPlugin = path.join(await _installedProgram(), "node_modules", ".bin");
  });

  after(async () => {
    await user?.close();
    await kids?.close();
    await emu?.close();
    for (const p of projects) p.remove();
  });

  function project(prefix: string, env: NodeJS.ProcessEnv = {}): PulumiProject {
    const p = _pulumiProject(prefix, { PATH: pathToPlugin, ...env });
    projects.push(p);
    return p;
  }

  it("examples/yaml-home-network: up, no changes, a dashboard edit found by refresh and repaired by up, destroy; secrets only as ciphertext", async () => {
    // The example with one change of configuration: the kids' provider gets the emulator's address beside
    // its key (a key is sent only to the origin given beside it: DNS_ACCOUNT_BASE_URL would not do).
    const p = project("dns-account-engine-yaml-cycle-");
    const example = readFileSync(path.join(_repoRoot(), "examples", "yaml-home-network", "Pulumi.yaml"), "utf8");
    const adapted = example
      .replace("config:\n", "config:\n  kidsBaseUrl:\n    type: string\n")
      .replace("      apiKey: ${kidsApiKey}\n", "      apiKey: ${kidsApiKey}\n      baseUrl: ${kidsBaseUrl}\n");
    assert.match(adapted, /baseUrl: \$\{kidsBaseUrl\}/);
    writeFileSync(path.join(p.dir, "Pulumi.yaml"), adapted);
    await p.pulumi("stack", "init", "dev");
    await p.pulumi("config", "set", "dns-account:baseUrl", emu.url);
    await p.pulumi("config", "set", "--secret", "dns-account:apiKey", USER.key);
    await p.pulumi("config", "set", "--secret", "kidsApiKey", KIDS.key);
    await p.pulumi("config", "set", "kidsBaseUrl", emu.url);
    const userBefore = await inventory(user);
    const kidsBefore = await inventory(kids);
    const logs: string[] = [];

    logs.push(await p.pulumi("up", "--yes"));
    const homeId = (await p.pulumi("stack", "output", "homeServerId")).trim();
    const home = await user.dnsServers.get(homeId);
    assert.equal(home.name, "Home");
    assert.equal(home.settings.block_ttl_seconds, 60);
    assert.deepEqual(home.settings.user_rules_settings?.rules, ["||ads.example^", "@@||bank.example^$important"]);
    const devices = (await user.devices.list()).filter((d) => d.dns_server_id === homeId);
    assert.deepEqual(devices.map((d) => `${d.name}/${d.device_type}`).sort(), ["Laptop/MAC", "Router/ROUTER"]);
    const laptop = devices.find((d) => d.name === "Laptop")!;
    const router = devices.find((d) => d.name === "Router")!;
    const routerIp = (await p.pulumi("stack", "output", "routerIpv4")).trim();
    assert.ok((await user.devices.dedicatedAddresses(router.id)).ipv4.includes(routerIp), "the router holds the dedicated address");
    // The kids' server is in the kids' account only.
    const kidsNow = await inventory(kids);
    const kidsServers = kidsNow.servers.filter((s) => !kidsBefore.servers.includes(s));
    assert.equal(kidsServers.length, 1);
    assert.match(kidsServers[0]!, /^Kids:/);
    assert.equal((await user.dnsServers.list()).filter((s) => s.name === "Kids").length, userBefore.servers.filter((s) => s.startsWith("Kids:")).length);
    const kidsServer = await kids.dnsServers.get(kidsServers[0]!.split(":")[1]!);
    assert.equal(kidsServer.settings.parental_control_settings?.enabled, true);

    logs.push(await p.pulumi("preview", "--expect-no-changes"));

    // A dashboard edit: the laptop renamed and the server's block TTL changed through the API.
    await user.devices.update(laptop.id, { name: "Laptop (dashboard)" });
    await user.dnsServers.updateSettings(homeId, { block_ttl_seconds: 300 });
    const refresh = await p.pulumi("refresh", "--yes", "--diff");
    logs.push(refresh);
    assert.match(refresh, /Laptop \(dashboard\)/, "refresh reports the device's new name");
    assert.match(refresh, /blockTtlSeconds[^\n]*60[^\n]*300|300/, "refresh reports the server's new TTL");
    assert.match(refresh, /2 updated/, refresh);
    const afterRefresh = await p.pulumi("stack", "export");
    assert.match(afterRefresh, /Laptop \(dashboard\)/, "the state holds what refresh read");
    // The next up puts the program's values back at the service.
    const repair = await p.pulumi("up", "--yes", "--diff");
    logs.push(repair);
    assert.match(repair, /2 updated/, repair);
    assert.equal((await user.devices.get(laptop.id)).name, "Laptop");
    assert.equal((await user.dnsServers.get(homeId)).settings.block_ttl_seconds, 60);
    logs.push(await p.pulumi("preview", "--expect-no-changes"));

    // Every secret in the state is ciphertext: the API keys, the devices' DoH passwords.
    const state = await p.pulumi("stack", "export");
    assert.match(state, /"ciphertext"/);
    const secrets = [USER.key, KIDS.key];
    for (const d of [laptop, router]) secrets.push(...dohSecrets((await user.devices.get(d.id)).dns_addresses as Record<string, unknown>));
    _assertNoSecrets(state + afterRefresh, secrets);

    logs.push(await p.pulumi("destroy", "--yes"));
    assert.deepEqual(await inventory(user), userBefore);
    assert.deepEqual(await inventory(kids), kidsBefore);
    _assertNoSecrets(logs.join("\n") + (await p.pulumi("stack", "export")), secrets);
  });
});
