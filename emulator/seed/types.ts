/**
 * The seed format's types, declared without zod (no public declaration of the package names zod);
 * `schema.ts` checks at compile time that its zod schema produces exactly these.
 */
import type { DEVICE_TYPES, EmulatorLimits } from "../account/account";

/** A DNS server of a seed: the service's `DNSServer` fields a seed keeps. */
export interface SeedDnsServer {
  /** The server's id (a DNS label); default: a new one. */
  id?: string | undefined;
  /** 1 to 64 characters. */
  name: string;
  /** The account's default server (at most one; without one the emulator makes its own). */
  default?: boolean | undefined;
  /** `DNSServerSettings` (or any part of it, user rules included), checked as the API checks a settings update. */
  settings?: Record<string, unknown> | undefined;
}

/** A device of a seed. */
export interface SeedDevice {
  id?: string | undefined;
  name: string;
  device_type: (typeof DEVICE_TYPES)[number];
  /** A server of the seed (by id); default: the default server. */
  dns_server_id?: string | undefined;
  settings?: { protection_enabled?: boolean | undefined; detect_doh_auth_only?: boolean | undefined } | undefined;
}

/** A dedicated IPv4 address, linked to a device of the seed or not. */
export interface SeedDedicatedIpv4 {
  ip: string;
  device_id?: string | undefined;
}

/** A query-log entry: the service's `QueryLogItem`, as `dns-account logs --json` prints it. `time_millis` or `time_iso` is required. */
export interface SeedQueryLogItem {
  time_millis?: number | undefined;
  time_iso?: string | undefined;
  domain: string;
  device_id: string;
  /** Used when the device is not in the seed (a device that is gone); else the device's server. */
  dns_server_id?: string | undefined;
  company_id?: string | undefined;
  category_type?: string | undefined;
  client_country?: string | undefined;
  asn?: number | undefined;
  network?: string | undefined;
  dnssec?: boolean | undefined;
  dns_request_type?: string | undefined;
  dns_response_type?: string | undefined;
  dns_proto_type?: string | undefined;
  response_country?: string | undefined;
  filtering_info?: { filtering_status: string; filtering_type?: string | undefined; filter_id?: string | undefined; filtering_category_id?: string | undefined; [extra: string]: unknown } | undefined;
  [extra: string]: unknown;
}

/** An account seed as written (`dns-account export --format seed` writes one): lists may be left out. */
export interface AccountSeedInput {
  /** The format's version: 1. */
  version: 1;
  /** The emulator user whose account this is; default: the first user. */
  username?: string | undefined;
  /** Synthetic traffic in the query log and statistics besides `query_log`; default true. */
  synthetic_traffic?: boolean | undefined;
  /** Quotas this account has (a real account may have more than the emulator's defaults). */
  limits?: { [K in keyof EmulatorLimits]?: number | undefined } | undefined;
  dns_servers?: SeedDnsServer[] | undefined;
  devices?: SeedDevice[] | undefined;
  dedicated_ipv4?: SeedDedicatedIpv4[] | undefined;
  query_log?: SeedQueryLogItem[] | undefined;
  /** State only: query-log entries at or before this time were cleared. */
  query_log_cleared_at_millis?: number | undefined;
}

/** An account seed as validated: every list present. */
export interface AccountSeed extends AccountSeedInput {
  dns_servers: SeedDnsServer[];
  devices: SeedDevice[];
  dedicated_ipv4: SeedDedicatedIpv4[];
  query_log: SeedQueryLogItem[];
}

/** The `--state` file: every account the emulator holds, each with its `username`. */
export interface EmulatorStateFile {
  version: 1;
  accounts: AccountSeed[];
}
