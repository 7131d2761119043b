/**
 * `dns-account export --format seed`: an account read through the SDK client, as an emulator seed, so
 * `dns-account emulator --seed FILE` serves a copy of it offline.
 */
import type { Client } from "../../sdk/client/client";
import type { EmulatorLimits } from "../account/account";
import { type AccountSeedInput, SEED_VERSION } from "./schema";

const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Reads an account as a seed: its quotas, every DNS server with its settings (each read from the
 * server itself, so user rules are never taken from a listing), devices with their settings, and
 * dedicated IPv4 addresses with their links. The query log is not read (`logs --json` items can be
 * added as `query_log`).
 *
 * @example
 * ```ts
 * writeFileSync("account.json", JSON.stringify(await accountSeedOf(client), null, 2));
 * ```
 */
export async function accountSeedOf(client: Client): Promise<AccountSeedInput> {
  const [limits, servers, devices, addresses] = await Promise.all([client.account.limits(), client.dnsServers.list(), client.devices.list(), client.dedicatedIpv4.list()]);
  const full = await Promise.all(servers.map((s) => client.dnsServers.get(s.id)));
  const quota = (key: keyof EmulatorLimits): Partial<EmulatorLimits> => {
    const value = (limits as Partial<Record<keyof EmulatorLimits, { limit?: number }>>)[key]?.limit;
    return typeof value === "number" && Number.isInteger(value) && value > 0 ? { [key]: value } : {};
  };
  return {
    version: SEED_VERSION,
    limits: { ...quota("devices"), ...quota("dns_servers"), ...quota("dedicated_ipv4"), ...quota("user_rules"), ...quota("access_rules") },
    // Sorted (the default server first, then by id), so exporting the same account twice gives the same file.
    dns_servers: [...full]
      .sort((a, b) => Number(b.default) - Number(a.default) || byId(a, b))
      .map((s) => ({ id: s.id, name: s.name, ...(s.default ? { default: true } : {}), settings: s.settings as unknown as Record<string, unknown> })),
    devices: [...devices].sort(byId).map((d) => ({
      id: d.id,
      name: d.name,
      device_type: d.device_type as NonNullable<AccountSeedInput["devices"]>[number]["device_type"],
      dns_server_id: d.dns_server_id,
      settings: { protection_enabled: d.settings.protection_enabled, detect_doh_auth_only: d.settings.detect_doh_auth_only },
    })),
    dedicated_ipv4: [...addresses].sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0)).map((a) => ({ ip: a.ip, ...(a.device_id ? { device_id: a.device_id } : {}) })),
  };
}
