/**
 * From a seed to an account and back: {@link accountFromSeed} builds an account with the account
 * model's own create and update functions (so a seed is checked as the API checks the same calls), and
 * {@link seedOfAccount} writes an account as a seed (the state file's entries).
 */
import { randomBytes } from "node:crypto";
import { Account, type EmulatorLimits, type Outcome } from "../account/account";
import { ConfigError } from "../../sdk/errors";
import type { AccountExtras } from "../state";
import type { Query } from "../stats/traffic";
import { type AccountSeed, SEED_VERSION } from "./schema";

/** Moves a map entry to a new key (a seed's id), moving aside an object that holds that key already. */
function rekey<T extends { id: string }>(map: Map<string, T>, item: T, id: string | undefined): void {
  if (id === undefined || id === item.id) return;
  const holder = map.get(id);
  if (holder) {
    // Only an object made without a seed id can hold it (seed ids are unique): give it another.
    map.delete(id);
    holder.id = randomBytes(4).toString("hex");
    map.set(holder.id, holder);
  }
  map.delete(item.id);
  item.id = id;
  map.set(id, item);
}

/** Limits that win over the seed's, and how the user named them (`--limit`). */
export interface Overrides {
  limits: Partial<EmulatorLimits>;
  label: string;
}

/** A seed over one of its quotas: raise it where it was set (the seed, or the override that lowered it). */
function overLimit(label: string, path: string, limit: keyof EmulatorLimits, overrides: Overrides | undefined): ConfigError {
  if (overrides?.limits[limit] !== undefined) {
    return new ConfigError(`${label}: ${path} is over the account's ${limit} limit, which ${overrides.label} sets: raise it there`, { field: `${overrides.label}.${limit}` });
  }
  return new ConfigError(`${label}: ${path} is over the account's ${limit} limit: raise limits.${limit} in the seed`, { field: `limits.${limit}` });
}

/** The value of an outcome, or a ConfigError naming the seed's field. */
function valueOf<T>(outcome: Outcome<T>, label: string, path: string, prefix = "", overrides?: Overrides): T {
  if (outcome.ok) return outcome.value;
  if (outcome.kind === "limit") throw overLimit(label, path, outcome.limit, overrides);
  const first = "errors" in outcome ? outcome.errors[0] : undefined;
  if (first) throw new ConfigError(`${label}: ${path}.${prefix}${first.field}: ${first.message}`, { field: `${path}.${prefix}${first.field}` });
  throw new ConfigError(`${label}: ${path} is not valid${"message" in outcome && outcome.message ? ` (${outcome.message})` : ""}`, { field: path });
}

/** A seed's query-log entry as the emulator stores a query. */
function queryOf(q: AccountSeed["query_log"][number], serverOf: (q: AccountSeed["query_log"][number]) => string): Query {
  const time = q.time_millis ?? Date.parse(q.time_iso!);
  const filtering = q.filtering_info ?? { filtering_status: "NONE" };
  const parental = filtering.filtering_status === "REQUEST_BLOCKED" && filtering.filtering_type === "PARENTAL_FILTERING_CATEGORY" ? filtering.filtering_category_id : undefined;
  const optional = <K extends keyof Query>(key: K, value: Query[K] | undefined): Partial<Query> => (value === undefined ? {} : { [key]: value });
  return {
    time_millis: time,
    time_iso: q.time_iso ?? new Date(time).toISOString(),
    domain: q.domain,
    company_id: q.company_id ?? "Unknown",
    category_type: q.category_type ?? "OTHERS",
    device_id: q.device_id,
    dns_server_id: serverOf(q),
    client_country: q.client_country ?? "US",
    asn: q.asn ?? 64_496,
    network: q.network ?? "Emulator Net",
    dnssec: q.dnssec ?? false,
    dns_request_type: q.dns_request_type ?? "A",
    dns_response_type: q.dns_response_type ?? "RcodeSuccess",
    ...optional("dns_proto_type", q.dns_proto_type),
    ...optional("response_country", q.response_country),
    filtering_info: {
      filtering_status: filtering.filtering_status,
      ...(filtering.filtering_type !== undefined ? { filtering_type: filtering.filtering_type } : {}),
      ...(filtering.filter_id !== undefined ? { filter_id: filtering.filter_id } : {}),
      ...(filtering.filtering_category_id !== undefined ? { filtering_category_id: filtering.filtering_category_id } : {}),
    },
    ...(parental !== undefined ? { parental } : {}),
  };
}

/**
 * Builds an account from a validated seed. Servers, devices and settings go through the account
 * model's create and update functions, so a seed meets the API's checks and quotas; a problem is a
 * {@link ConfigError} naming the seed's field (`dns_servers[1].settings.user_rules_settings.rules[3]`).
 *
 * @example
 * ```ts
 * const { account, extras } = accountFromSeed(parseSeed(json, "--seed"), DEFAULT_LIMITS, "--seed");
 * ```
 */
export function accountFromSeed(seed: AccountSeed, baseLimits: EmulatorLimits, label: string, overrides?: Overrides): { account: Account; extras: AccountExtras } {
  const raised = Object.fromEntries(Object.entries(seed.limits ?? {}).filter(([, v]) => v !== undefined)) as Partial<EmulatorLimits>;
  // The overrides (`--limit`) win over the seed's own, and are kept with them in `extras`: a state
  // file written from this account keeps the quotas it had, so it loads again without the override.
  const kept: Partial<EmulatorLimits> = { ...raised, ...overrides?.limits };
  const limits: EmulatorLimits = { ...baseLimits, ...kept };
  const account = new Account(limits);
  const servers = seed.dns_servers.map((s, i) => ({ s, path: `dns_servers[${i}]` }));
  // The default server first: the account already has one, which the seed's takes over.
  const ordered = [...servers.filter(({ s }) => s.default), ...servers.filter(({ s }) => !s.default)];
  const defaultServer = [...account.dnsServers.values()][0]!;
  for (const { s, path } of ordered) {
    if (s.default) {
      rekey(account.dnsServers, defaultServer, s.id);
      valueOf(account.updateDnsServer(defaultServer.id, { name: s.name }), label, path, "", overrides);
      if (s.settings) valueOf(account.updateDnsServerSettings(defaultServer.id, s.settings), label, path, "settings.", overrides);
    } else {
      const server = valueOf(account.createDnsServer({ name: s.name, ...(s.settings ? { settings: s.settings } : {}) }), label, path, "", overrides);
      rekey(account.dnsServers, server, s.id);
    }
  }
  seed.devices.forEach((d, i) => {
    const path = `devices[${i}]`;
    const device = valueOf(account.createDevice({ name: d.name, device_type: d.device_type, dns_server_id: d.dns_server_id ?? defaultServer.id }), label, path, "", overrides);
    const server = account.dnsServers.get(device.dns_server_id)!;
    const before = device.id;
    rekey(account.devices, device, d.id);
    server.device_ids = server.device_ids.map((x) => (x === before ? device.id : x));
    Object.assign(device.settings, d.settings);
  });
  if (seed.dedicated_ipv4.length > limits.dedicated_ipv4) throw overLimit(label, "dedicated_ipv4", "dedicated_ipv4", overrides);
  for (const a of seed.dedicated_ipv4) account.dedicatedIpv4.set(a.ip, a.device_id);
  const serverOf = (q: AccountSeed["query_log"][number]): string => account.devices.get(q.device_id)?.dns_server_id ?? q.dns_server_id ?? defaultServer.id;
  const queries = seed.query_log.map((q) => queryOf(q, serverOf)).sort((a, b) => b.time_millis - a.time_millis);
  if (seed.query_log_cleared_at_millis !== undefined) account.queryLogClearedAt = seed.query_log_cleared_at_millis;
  return { account, extras: { queries, syntheticTraffic: seed.synthetic_traffic ?? true, ...(seed.limits || Object.keys(kept).length > 0 ? { limits: kept } : {}) } };
}

/**
 * An account as a seed (for the state file): what {@link accountFromSeed} builds the same account from.
 *
 * @example
 * ```ts
 * writeFileSync("state.json", JSON.stringify(seedOfAccount("user@example.com", account, extras)));
 * ```
 */
export function seedOfAccount(username: string, account: Account, extras: AccountExtras | undefined): AccountSeed {
  const servers = [...account.dnsServers.values()].sort((a, b) => Number(b.default) - Number(a.default));
  return {
    version: SEED_VERSION,
    username,
    ...(extras && !extras.syntheticTraffic ? { synthetic_traffic: false } : {}),
    ...(extras?.limits ? { limits: extras.limits } : {}),
    dns_servers: servers.map((s) => ({ id: s.id, name: s.name, ...(s.default ? { default: true } : {}), settings: structuredClone(s.settings) })),
    devices: [...account.devices.values()].map((d) => ({ id: d.id, name: d.name, device_type: d.device_type as AccountSeed["devices"][number]["device_type"], dns_server_id: d.dns_server_id, settings: { ...d.settings } })),
    dedicated_ipv4: [...account.dedicatedIpv4].map(([ip, deviceId]) => ({ ip, ...(deviceId !== undefined ? { device_id: deviceId } : {}) })),
    query_log: (extras?.queries ?? []).map(({ parental: _p, ...q }) => ({ ...q })),
    ...(Number.isFinite(account.queryLogClearedAt) ? { query_log_cleared_at_millis: account.queryLogClearedAt } : {}),
  };
}
