import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Client } from "../../sdk";
import { _assertNoSecrets, _repoRoot } from "./helpers";
import { _engineBin, _grpcCalls, type PulumiProject, _pulumiProject, _summaryCounts } from "./pulumi-cli";
import { _dohSecrets } from "./secrets";

const run = promisify(execFile);

/**
 * The plugin as a user gets it: `npm run package:plugin`'s linux-amd64 tarball, written into `outDir`.
 * Returns the tarball's path (named as `pulumi plugin install --file` expects, at package.json's version).
 */
export async function _pluginTarball(outDir: string): Promise<string> {
  const root = _repoRoot();
  const version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
  await promisify(execFile)(process.execPath, [path.join(root, "scripts", "package-plugin.mjs"), "--platform", "linux-amd64", "--out", outDir], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  const tarball = path.join(outDir, `pulumi-resource-dns-account-v${version}-linux-amd64.tar.gz`);
  assert.ok(existsSync(tarball), "package:plugin wrote the linux-amd64 tarball");
  return tarball;
}

/**
 * A Pulumi project whose commands see no Node.js: PATH is `dirs` followed by the engine's folder, nothing
 * else (asserted, with `command -v node` failing under it). The engine's folder holds every language host
 * (`npm run engine`), as a Pulumi install does. It is added to `projects` (before anything is asserted)
 * for the caller to remove.
 */
export async function _nodelessProject(prefix: string, dirs: string[], projects: PulumiProject[]): Promise<PulumiProject> {
  const p = _pulumiProject(prefix);
  projects.push(p);
  p.env.PATH = [...dirs, _engineBin()].join(path.delimiter);
  delete p.env.NODE_OPTIONS;
  delete p.env.PULUMI_ENGINE_BIN;
  for (const dir of p.env.PATH.split(path.delimiter)) assert.ok(!existsSync(path.join(dir, "node")), `no node in ${dir}`);
  await assert.rejects(run("/bin/sh", ["-c", "command -v node"], { env: p.env }), "command -v node finds nothing");
  return p;
}

/** What {@link _homeNetworkLife} needs: the project, the account, the plugin. */
export interface HomeNetworkLife {
  /** A project holding one of the examples/<lang>-home-network programs as its folder, from {@link _nodelessProject}. */
  project: PulumiProject;
  /** The `runtime` the project's Pulumi.yaml must name (the language host `pulumi up` starts). */
  runtime: string;
  /** The plugin tarball (`npm run package:plugin`) and its version. */
  tarball: string;
  version: string;
  /** The emulator's address, an API key of its account, and a client of that account (the "dashboard"). */
  baseUrl: string;
  apiKey: string;
  dashboard: Client;
}

/** Names and ids of an account's servers and devices. */
async function inventory(client: Client): Promise<{ servers: string[]; devices: string[] }> {
  return {
    servers: (await client.dnsServers.list()).map((s) => `${s.name}:${s.id}`).sort(),
    devices: (await client.devices.list()).map((d) => `${d.name}:${d.id}`).sort(),
  };
}

/**
 * The whole life of an examples/<lang>-home-network program under the real engine, run as users run it:
 * `pulumi up` of the project folder, which starts the `runtime`'s language host (`npm run engine`
 * builds them all), each step checked at the emulator: the plugin installed from the tarball with
 * `pulumi plugin install --file`, `up` (the server's settings, the laptop, the look-ups reaching the
 * installed plugin), `preview --expect-no-changes`, a dashboard edit found by `refresh`, an update from
 * changed stack configuration (which repairs the edit too), `destroy` (the account as before). The API
 * key and the laptop's DoH password must appear in the state only as ciphertext, and nowhere in what
 * `pulumi` printed.
 */
export async function _homeNetworkLife(life: HomeNetworkLife): Promise<void> {
  const { project: p, dashboard } = life;
  const grpcLog = path.join(path.dirname(p.dir), "grpc.jsonl");
  p.env.PULUMI_DEBUG_GRPC = grpcLog;
  await p.pulumi("plugin", "install", "resource", "dns-account", life.version, "--file", life.tarball);
  await p.pulumi("stack", "init", "dev");
  await p.pulumi("config", "set", "dns-account:baseUrl", life.baseUrl);
  await p.pulumi("config", "set", "--secret", "dns-account:apiKey", life.apiKey);
  assert.match(readFileSync(path.join(p.dir, "Pulumi.yaml"), "utf8"), new RegExp(`^runtime: ${life.runtime}$`, "m"), "the project names its runtime");
  const before = await inventory(dashboard);
  const logs: string[] = [];

  // up: the server with its settings, the laptop on it; the look-ups picked the security list and TikTok.
  const up = await p.pulumi("up", "--yes", "--skip-preview");
  logs.push(up);
  assert.equal(_summaryCounts(up).create, 3, up);
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
  const outputs = JSON.parse(await p.pulumi("stack", "output", "--json")) as Record<string, unknown>;
  assert.equal(outputs.laptopAddressesWithAuth, "[secret]", "the addresses with the DoH password are a secret output");
  assert.deepEqual(outputs.blockedServices, ["tiktok"]);
  assert.equal(outputs.serverId, serverId);
  // An object output keeps the language's own property names: dnsOverHttpsUrl, dns_over_https_url (Python).
  const addresses = outputs.laptopAddresses as Record<string, unknown>;
  assert.match(String(addresses.dnsOverHttpsUrl ?? addresses.dns_over_https_url), /^https:\/\/[0-9a-f]+\.dns\./, JSON.stringify(addresses));
  assert.match(up, /Outputs:[\s\S]*laptopAddressesWithAuth: \[secret\]/, "up prints the secret output as [secret]");
  const calls = _grpcCalls(grpcLog);
  const info = calls.find((c) => c.method === "/pulumirpc.ResourceProvider/GetPluginInfo" && c.response.version);
  assert.equal(info?.response.version, life.version, "the engine ran the installed plugin");
  const invoked = calls.filter((c) => c.method === "/pulumirpc.ResourceProvider/Invoke").map((c) => String(c.request.tok));
  assert.deepEqual(
    [...new Set(invoked)].sort(),
    ["dns-account:index:getAccountLimits", "dns-account:index:getFilterLists", "dns-account:index:getWebServices"],
    "the program's look-ups reached the plugin",
  );
  const methods = [...new Set(calls.filter((c) => c.method.startsWith("/pulumirpc.ResourceProvider/")).map((c) => c.method.split("/").pop()))];
  console.log(`      the engine called: ${methods.join(", ")}`);

  const preview = await p.pulumi("preview", "--expect-no-changes");
  logs.push(preview);
  assert.equal(_summaryCounts(preview).same, 3, preview);

  // A dashboard edit: the laptop renamed and the server's TTL changed through the API; refresh finds both.
  await dashboard.devices.update(deviceId, { name: "Laptop (dashboard)" });
  await dashboard.dnsServers.updateSettings(serverId, { block_ttl_seconds: 300 });
  const refresh = await p.pulumi("refresh", "--yes", "--skip-preview");
  logs.push(refresh);
  assert.equal(_summaryCounts(refresh).update, 2, refresh);
  const afterRefresh = await p.pulumi("stack", "export");
  assert.match(afterRefresh, /"name": "Laptop \(dashboard\)"/, "the state holds the name refresh read");
  assert.match(afterRefresh, /"blockTtlSeconds": 300/, "the state holds the TTL refresh read");

  // An update from changed stack configuration; the same up puts the laptop's name back.
  await p.pulumi("config", "set", "serverName", "Home office");
  await p.pulumi("config", "set", "blockTtlSeconds", "120");
  const update = await p.pulumi("up", "--yes", "--skip-preview");
  logs.push(update);
  assert.equal(_summaryCounts(update).update, 2, update);
  const updated = await dashboard.dnsServers.get(serverId);
  assert.equal(updated.name, "Home office");
  assert.equal(updated.settings.block_ttl_seconds, 120);
  assert.equal((await dashboard.devices.get(deviceId)).name, "Laptop");
  const settled = await p.pulumi("preview", "--expect-no-changes");
  logs.push(settled);
  assert.equal(_summaryCounts(settled).same, 3, settled);

  // Every secret in the state is ciphertext: the API key and the laptop's DoH password.
  const state = await p.pulumi("stack", "export");
  assert.match(state, /"ciphertext"/);
  const secrets = [life.apiKey, ..._dohSecrets((await dashboard.devices.get(deviceId)).dns_addresses as Record<string, unknown>)];
  _assertNoSecrets(state + afterRefresh, secrets);

  const destroy = await p.pulumi("destroy", "--yes", "--skip-preview");
  logs.push(destroy);
  assert.equal(_summaryCounts(destroy).delete, 3, destroy);
  await assert.rejects(dashboard.devices.get(deviceId), (e: { status?: number }) => e.status === 404);
  await assert.rejects(dashboard.dnsServers.get(serverId), (e: { status?: number }) => e.status === 404);
  assert.deepEqual(await inventory(dashboard), before, "the account is as it was before up");
  _assertNoSecrets(logs.join("\n") + (await p.pulumi("stack", "export")), secrets);
}
