import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_API_KEYS, type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient } from "../../sdk";
import { _assertNoSecrets, _repoRoot } from "../support/helpers";
import { _installedProgram } from "../support/program";
import { _engineBin, _engineMissing, type PulumiProject, _failWithout, _stackProject } from "../support/pulumi-cli";

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
    _failWithout(_engineMissing("yaml"));
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

  /** A stack of `program` with the npm-installed plugin on PATH and `config` set; removed after the suite. */
  async function stack(prefix: string, program: string, config: Record<string, string | { secret: string }>): Promise<PulumiProject> {
    const p = await _stackProject(prefix, { program, config, env: { PATH: pathToPlugin } });
    projects.push(p);
    return p;
  }

  it("examples/yaml-home-network: up, no changes, a dashboard edit found by refresh and repaired by up, destroy; secrets only as ciphertext", async () => {
    // The example with one change of configuration: the kids' provider gets the emulator's address beside
    // its key (a key is sent only to the origin given beside it: DNS_ACCOUNT_BASE_URL would not do).
    const example = readFileSync(path.join(_repoRoot(), "examples", "yaml-home-network", "Pulumi.yaml"), "utf8");
    const adapted = example
      .replace("config:\n", "config:\n  kidsBaseUrl:\n    type: string\n")
      .replace("      apiKey: ${kidsApiKey}\n", "      apiKey: ${kidsApiKey}\n      baseUrl: ${kidsBaseUrl}\n");
    assert.match(adapted, /baseUrl: \$\{kidsBaseUrl\}/);
    const p = await stack("dns-account-engine-yaml-cycle-", adapted, {
      "dns-account:baseUrl": emu.url,
      "dns-account:apiKey": { secret: USER.key },
      kidsApiKey: { secret: KIDS.key },
      kidsBaseUrl: emu.url,
    });
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
    assert.match(refresh, /blockTtlSeconds\W+60\W+300/, "refresh reports the server's new TTL");
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
  it("two explicit providers on two accounts: each resource lands in its own account only", async () => {
    const p = await stack(
      "dns-account-engine-yaml-two-",
      `name: dns-account-engine-two-accounts
runtime: yaml
config:
  baseUrl:
    type: string
  parentKey:
    type: string
    secret: true
  kidKey:
    type: string
    secret: true
resources:
  parent:
    type: pulumi:providers:dns-account
    properties:
      baseUrl: \${baseUrl}
      apiKey: \${parentKey}
  kid:
    type: pulumi:providers:dns-account
    properties:
      baseUrl: \${baseUrl}
      apiKey: \${kidKey}
  parentServer:
    type: dns-account:index:DnsServer
    properties:
      name: Two-Parent
    options:
      provider: \${parent}
  parentPhone:
    type: dns-account:index:Device
    properties:
      name: Two-Parent-Phone
      deviceType: IOS
      dnsServerId: \${parentServer.serverId}
    options:
      provider: \${parent}
  kidServer:
    type: dns-account:index:DnsServer
    properties:
      name: Two-Kid
    options:
      provider: \${kid}
  kidTablet:
    type: dns-account:index:Device
    properties:
      name: Two-Kid-Tablet
      deviceType: ANDROID
      dnsServerId: \${kidServer.serverId}
    options:
      provider: \${kid}
`,
      { baseUrl: emu.url, parentKey: { secret: USER.key }, kidKey: { secret: KIDS.key } },
    );
    const userBefore = await inventory(user);
    const kidsBefore = await inventory(kids);
    const logs = [await p.pulumi("up", "--yes")];
    const added = (now: { servers: string[]; devices: string[] }, before: { servers: string[]; devices: string[] }): string[] => [
      ...now.servers.filter((s) => !before.servers.includes(s)).map((s) => s.split(":")[0]!),
      ...now.devices.filter((d) => !before.devices.includes(d)).map((d) => d.split(":")[0]!),
    ];
    assert.deepEqual(added(await inventory(user), userBefore), ["Two-Parent", "Two-Parent-Phone"]);
    assert.deepEqual(added(await inventory(kids), kidsBefore), ["Two-Kid", "Two-Kid-Tablet"]);
    const kidTablet = (await kids.devices.list()).find((d) => d.name === "Two-Kid-Tablet")!;
    assert.equal((await kids.dnsServers.get(kidTablet.dns_server_id)).name, "Two-Kid", "the kid's device is on the kid's server");
    logs.push(await p.pulumi("preview", "--expect-no-changes"));
    const state = await p.pulumi("stack", "export");
    logs.push(await p.pulumi("destroy", "--yes"));
    assert.deepEqual(await inventory(user), userBefore);
    assert.deepEqual(await inventory(kids), kidsBefore);
    _assertNoSecrets(logs.join("\n") + state, [USER.key, KIDS.key, ...dohSecrets(kidTablet.dns_addresses as Record<string, unknown>)]);
  });

  it("SIGINT to up in the middle of 20 device creates: a second up converges, nothing orphaned at the service", async () => {
    const devices = Array.from({ length: 20 }, (_, i) => `  d${i}:
    type: dns-account:index:Device
    properties:
      name: Bulk-${i}
      deviceType: LINUX
      dnsServerId: \${bulk.serverId}
`).join("");
    const p = await stack(
      "dns-account-engine-yaml-sigint-",
      `name: dns-account-engine-sigint
runtime: yaml
resources:
  bulk:
    type: dns-account:index:DnsServer
    properties:
      name: Bulk
${devices}`,
      { "dns-account:baseUrl": emu.url, "dns-account:apiKey": { secret: USER.key } },
    );
    const before = await inventory(user);
    const bulkDevices = async (): Promise<string[]> => (await user.devices.list()).filter((d) => d.name.startsWith("Bulk-")).map((d) => d.id).sort();

    // Device creates are slowed down at the service, two at a time; the 5th finished create triggers the SIGINT.
    emu.inject({ kind: "latency", ms: 400, path: "/oapi/v1/devices", count: 1000 });
    let creates = 0;
    const up = spawn(path.join(_engineBin(), "pulumi"), ["up", "--yes", "--non-interactive", "--parallel", "2"], { cwd: p.dir, env: p.env });
    let output = "";
    up.stdout.on("data", (b: Buffer) => void (output += b.toString()));
    up.stderr.on("data", (b: Buffer) => void (output += b.toString()));
    const exited = new Promise<number | null>((resolve) => up.on("close", (code) => resolve(code)));
    const interrupted = new Promise<void>((resolve) => {
      onRequest.push((line) => {
        if (/^POST \/oapi\/v1\/devices 2\d\d$/.test(line) && ++creates === 5) {
          up.kill("SIGINT");
          resolve();
        }
      });
    });
    await Promise.race([interrupted, exited]);
    const code = await exited;
    onRequest.length = 0;
    emu.clearFaults();
    assert.notEqual(code, 0, `the interrupted up fails:\n${output}`);
    const afterCancel = await bulkDevices();
    assert.ok(afterCancel.length >= 5 && afterCancel.length < 20, `cancelled mid-way: ${afterCancel.length} devices\n${output}`);
    console.log(`      SIGINT after the 5th create: ${afterCancel.length} of 20 devices made; pulumi exited ${code}: ${(/[^\n]*(cancel|interrupt)[^\n]*/i.exec(output) ?? ["(no word of it)"])[0]!.trim()}`);
    // What the service holds is what the state holds: nothing created and forgotten.
    const inState = (): Promise<string[]> =>
      p.pulumi("stack", "export").then((text) =>
        (JSON.parse(text) as { deployment: { resources?: { type: string; id?: string }[] } }).deployment.resources!.filter((r) => r.type === "dns-account:index:Device").map((r) => r.id!).sort(),
      );
    assert.deepEqual(await inState(), afterCancel, "the state holds every device the service made");

    await p.pulumi("up", "--yes");
    const all = await bulkDevices();
    assert.equal(all.length, 20);
    assert.ok(afterCancel.every((id) => all.includes(id)), "the devices made before the SIGINT were kept");
    assert.deepEqual(await inState(), all);
    await p.pulumi("refresh", "--yes", "--expect-no-changes");
    assert.deepEqual(await inState(), all);
    await p.pulumi("preview", "--expect-no-changes");
    await p.pulumi("destroy", "--yes");
    assert.deepEqual(await inventory(user), before);
  });
});
