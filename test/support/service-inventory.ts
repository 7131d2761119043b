import type { Client } from "../../sdk";
import type { PulumiProject } from "./pulumi-cli";
import type { ProxiedRequest } from "./release";

/**
 * Every DNS server, device and dedicated address of the account, with ids (`server Home:<id>`, `device
 * Laptop:<id> on <server>`, `address <ip> of <device>`), sorted: what a move or an upgrade must leave as it was.
 *
 * @example
 * ```ts
 * const before = await _inventory(dashboard);
 * await project.apply("up");
 * assert.deepEqual(await _inventory(dashboard), before);
 * ```
 */
export async function _inventory(client: Client): Promise<string[]> {
  const out = (await client.dnsServers.list()).map((s) => `server ${s.name}:${s.id}`);
  for (const d of await client.devices.list()) {
    out.push(`device ${d.name}:${d.id} on ${d.dns_server_id}`);
    for (const ip of (await client.devices.dedicatedAddresses(d.id)).ipv4) out.push(`address ${ip} of ${d.id}`);
  }
  return out.sort();
}

/**
 * The requests recorded after the first `since` that changed something at the service: anything but
 * reads and token grants, as `METHOD /path`.
 *
 * @example
 * ```ts
 * const since = proxy.requests.length;
 * await project.apply("up");
 * assert.deepEqual(_writes(proxy.requests, since), []);
 * ```
 */
export function _writes(requests: readonly ProxiedRequest[], since: number): string[] {
  return requests.slice(since).filter((r) => r.method !== "GET" && r.path !== "/oapi/v1/oauth_token").map((r) => `${r.method} ${r.path}`);
}

/**
 * The custom resources of a stack's state other than providers, as `type name id`, sorted.
 *
 * @example
 * ```ts
 * assert.deepEqual(await _stateIds(project), [`dns-account:index:DnsServer home ${serverId}`]);
 * ```
 */
export async function _stateIds(project: PulumiProject): Promise<string[]> {
  const state = JSON.parse(await project.pulumi("stack", "export")) as { deployment: { resources: { type: string; urn: string; id?: string; custom?: boolean }[] } };
  return state.deployment.resources
    .filter((r) => r.custom && !r.type.startsWith("pulumi:providers:"))
    .map((r) => `${r.type} ${r.urn.split("::").pop()} ${r.id}`)
    .sort();
}

/**
 * The refresh token a dynamic `Token` (`pulumi-nodejs:dynamic/dns-account:Token`) holds in the stack's
 * state, read with `pulumi stack export --show-secrets`; fails when there is none.
 *
 * @example
 * ```ts
 * const old = await _dynamicTokenRefreshToken(project);
 * assert.ok(await _refreshTokenAlive(emu.url, old));
 * ```
 */
export async function _dynamicTokenRefreshToken(project: PulumiProject): Promise<string> {
  type Secret = { plaintext?: string };
  const shown = JSON.parse(await project.pulumi("stack", "export", "--show-secrets")) as { deployment: { resources: { type: string; outputs?: { refreshToken?: Secret } }[] } };
  const held = shown.deployment.resources.find((r) => r.type === "pulumi-nodejs:dynamic/dns-account:Token")?.outputs?.refreshToken?.plaintext;
  if (!held) throw new Error("no dynamic Token's refresh token in the state");
  return JSON.parse(held) as string;
}
