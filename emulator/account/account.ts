import { randomBytes } from "node:crypto";

/** Device types the service knows. */
export const DEVICE_TYPES = [
  "WINDOWS", "ANDROID", "MAC", "IOS", "LINUX", "ROUTER", "SMART_TV", "GAME_CONSOLE", "UNKNOWN",
] as const;

/** Per-account quotas of the emulator (`GET /account/limits`). */
export interface EmulatorLimits {
  devices: number;
  dns_servers: number;
  access_rules: number;
  dedicated_ipv4: number;
  requests: number;
  user_rules: number;
}

/** Default quotas. */
export const DEFAULT_LIMITS: EmulatorLimits = {
  devices: 10,
  dns_servers: 5,
  access_rules: 1000,
  dedicated_ipv4: 1,
  requests: 1_000_000,
  user_rules: 1000,
};

export interface Device {
  id: string;
  name: string;
  device_type: string;
  dns_server_id: string;
  dns_addresses: Record<string, unknown>;
  settings: { protection_enabled: boolean; detect_doh_auth_only: boolean };
}

export interface DnsServer {
  id: string;
  name: string;
  default: boolean;
  device_ids: string[];
  settings: Record<string, unknown>;
}

/** One field's complaint in a validation error body. */
export interface FieldError {
  field: string;
  error_code: "FIELD_REQUIRED" | "FIELD_WRONG_VALUE" | "FIELD_REACHED_LIMIT";
  message: string;
}

function newId(): string {
  return randomBytes(4).toString("hex");
}

function dnsAddresses(id: string): Record<string, unknown> {
  const host = `${id}.dns.emulator.invalid`;
  const adguard = (scheme: string, app: string): string =>
    `${app}:add_dns_server?address=${encodeURIComponent(`${scheme}://${host}/dns-query`)}`;
  return {
    dns_over_https_url: `https://${host}/dns-query`,
    dns_over_tls_url: `tls://${host}`,
    dns_over_quic_url: `quic://${host}`,
    adguard_dns_over_https_url: adguard("https", "adguard"),
    adguard_dns_over_tls_url: adguard("tls", "adguard"),
    adguard_dns_over_quic_url: adguard("quic", "adguard"),
    adguard_vpn_dns_over_https_url: adguard("https", "adguardvpn"),
    adguard_vpn_dns_over_tls_url: adguard("tls", "adguardvpn"),
    adguard_vpn_dns_over_quic_url: adguard("quic", "adguardvpn"),
    ip_addresses: [{ ip_address: "192.0.2.53", type: "V4" }],
  };
}

const DAYS = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"];

function defaultServerSettings(): Record<string, unknown> {
  return {
    protection_enabled: true,
    auto_connect_devices_enabled: false,
    block_chrome_prefetch: false,
    block_firefox_canary: true,
    block_private_relay: false,
    block_ttl_seconds: 10,
    ip_log_enabled: true,
    access_settings: {
      enabled: false,
      allowed_clients: [],
      blocked_clients: [],
      blocked_domain_rules: [],
      block_known_scanners: true,
    },
    blocking_mode_settings: { blocking_mode: "NULL_IP" },
    filter_lists_settings: { enabled: true, filter_list: [{ filter_id: "adguard_dns_filter", enabled: true }] },
    parental_control_settings: {
      enabled: false,
      block_adult_websites_enabled: false,
      engines_safe_search_enabled: false,
      youtube_safe_search_enabled: false,
      blocked_services: [],
      screen_time_schedule: {
        daily_schedule: DAYS.map((day_of_week) => ({
          day_of_week,
          enabled: false,
          from_time: { hours: 0, minutes: 0 },
          to_time: { hours: 23, minutes: 59 },
        })),
      },
    },
    safebrowsing_settings: { enabled: true, block_dangerous_domains: true, block_nrd: false },
    user_rules_settings: { enabled: true, rules: [], rules_count: 0 },
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function mergeSettings(base: Record<string, unknown>, update: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(update)) {
    out[k] = isObject(v) && isObject(base[k]) ? mergeSettings(base[k] as Record<string, unknown>, v) : v;
  }
  if (isObject(out.user_rules_settings) && Array.isArray(out.user_rules_settings.rules)) {
    out.user_rules_settings.rules_count = out.user_rules_settings.rules.length;
  }
  return out;
}

/** Field checks shared by create and update: required names, types, lengths, references. */
function checkName(body: Record<string, unknown>, required: boolean, errors: FieldError[]): void {
  if (!("name" in body)) {
    if (required) errors.push({ field: "name", error_code: "FIELD_REQUIRED", message: "Field is required" });
  } else if (typeof body.name !== "string" || body.name.length < 1 || body.name.length > 64) {
    errors.push({ field: "name", error_code: "FIELD_WRONG_VALUE", message: "Must be a string of 1 to 64 characters" });
  }
}

/** Result of an account operation: a value, a validation failure, a missing object or a quota hit. */
export type Outcome<T> =
  | { ok: true; value: T }
  | { ok: false; kind: "invalid"; errors: FieldError[]; message?: string }
  | { ok: false; kind: "not_found" }
  | { ok: false; kind: "limit" };

const notFound = { ok: false, kind: "not_found" } as const;

/** The business data of one user: DNS servers (one default) and devices. */
export class Account {
  readonly devices = new Map<string, Device>();
  readonly dnsServers = new Map<string, DnsServer>();
  apiCalls = 0;

  constructor(private readonly limits: EmulatorLimits) {
    const id = newId();
    this.dnsServers.set(id, { id, name: "Default server", default: true, device_ids: [], settings: defaultServerSettings() });
  }

  limitsView(): Record<string, { limit: number; used: number }> {
    return {
      access_rules: { limit: this.limits.access_rules, used: 0 },
      dedicated_ipv4: { limit: this.limits.dedicated_ipv4, used: 0 },
      devices: { limit: this.limits.devices, used: this.devices.size },
      dns_servers: { limit: this.limits.dns_servers, used: this.dnsServers.size },
      requests: { limit: this.limits.requests, used: this.apiCalls },
      user_rules: { limit: this.limits.user_rules, used: 0 },
    };
  }

  private checkDevice(body: Record<string, unknown>, required: boolean): FieldError[] {
    const errors: FieldError[] = [];
    checkName(body, required, errors);
    if (!("device_type" in body)) {
      if (required) errors.push({ field: "device_type", error_code: "FIELD_REQUIRED", message: "Field is required" });
    } else if (!DEVICE_TYPES.includes(body.device_type as (typeof DEVICE_TYPES)[number])) {
      errors.push({ field: "device_type", error_code: "FIELD_WRONG_VALUE", message: "Unknown device type" });
    }
    if (!("dns_server_id" in body)) {
      if (required) errors.push({ field: "dns_server_id", error_code: "FIELD_REQUIRED", message: "Field is required" });
    } else if (typeof body.dns_server_id !== "string" || !this.dnsServers.has(body.dns_server_id)) {
      errors.push({ field: "dns_server_id", error_code: "FIELD_WRONG_VALUE", message: "No such DNS server" });
    }
    return errors;
  }

  createDevice(body: unknown): Outcome<Device> {
    if (!isObject(body)) return { ok: false, kind: "invalid", errors: [], message: "Body must be a JSON object" };
    const errors = this.checkDevice(body, true);
    if (errors.length) return { ok: false, kind: "invalid", errors };
    if (this.devices.size >= this.limits.devices) return { ok: false, kind: "limit" };
    const id = newId();
    const device: Device = {
      id,
      name: body.name as string,
      device_type: body.device_type as string,
      dns_server_id: body.dns_server_id as string,
      dns_addresses: dnsAddresses(id),
      settings: { protection_enabled: true, detect_doh_auth_only: false },
    };
    this.devices.set(id, device);
    this.dnsServers.get(device.dns_server_id)?.device_ids.push(id);
    return { ok: true, value: device };
  }

  updateDevice(id: string, body: unknown): Outcome<Device> {
    const device = this.devices.get(id);
    if (!device) return notFound;
    if (!isObject(body)) return { ok: false, kind: "invalid", errors: [], message: "Body must be a JSON object" };
    const errors = this.checkDevice(body, false);
    if (errors.length) return { ok: false, kind: "invalid", errors };
    if (typeof body.name === "string") device.name = body.name;
    if (typeof body.device_type === "string") device.device_type = body.device_type;
    if (typeof body.dns_server_id === "string" && body.dns_server_id !== device.dns_server_id) {
      this.detach(device);
      device.dns_server_id = body.dns_server_id;
      this.dnsServers.get(device.dns_server_id)?.device_ids.push(id);
    }
    return { ok: true, value: device };
  }

  removeDevice(id: string): Outcome<null> {
    const device = this.devices.get(id);
    if (!device) return notFound;
    this.detach(device);
    this.devices.delete(id);
    return { ok: true, value: null };
  }

  private detach(device: Device): void {
    const server = this.dnsServers.get(device.dns_server_id);
    if (server) server.device_ids = server.device_ids.filter((d) => d !== device.id);
  }

  createDnsServer(body: unknown): Outcome<DnsServer> {
    if (!isObject(body)) return { ok: false, kind: "invalid", errors: [], message: "Body must be a JSON object" };
    const errors: FieldError[] = [];
    checkName(body, true, errors);
    if ("settings" in body && !isObject(body.settings)) {
      errors.push({ field: "settings", error_code: "FIELD_WRONG_VALUE", message: "Must be an object" });
    }
    if (errors.length) return { ok: false, kind: "invalid", errors };
    if (this.dnsServers.size >= this.limits.dns_servers) return { ok: false, kind: "limit" };
    const id = newId();
    const settings = mergeSettings(defaultServerSettings(), isObject(body.settings) ? body.settings : {});
    const server: DnsServer = { id, name: body.name as string, default: false, device_ids: [], settings };
    this.dnsServers.set(id, server);
    return { ok: true, value: server };
  }

  updateDnsServer(id: string, body: unknown): Outcome<DnsServer> {
    const server = this.dnsServers.get(id);
    if (!server) return notFound;
    if (!isObject(body)) return { ok: false, kind: "invalid", errors: [], message: "Body must be a JSON object" };
    const errors: FieldError[] = [];
    checkName(body, false, errors);
    if (errors.length) return { ok: false, kind: "invalid", errors };
    if (typeof body.name === "string") server.name = body.name;
    return { ok: true, value: server };
  }

  removeDnsServer(id: string): Outcome<null> {
    const server = this.dnsServers.get(id);
    if (!server) return notFound;
    if (server.default) {
      return { ok: false, kind: "invalid", errors: [], message: "The default DNS server cannot be removed" };
    }
    const fallback = [...this.dnsServers.values()].find((s) => s.default);
    for (const deviceId of server.device_ids) {
      const device = this.devices.get(deviceId);
      if (device && fallback) {
        device.dns_server_id = fallback.id;
        fallback.device_ids.push(deviceId);
      }
    }
    this.dnsServers.delete(id);
    return { ok: true, value: null };
  }
}
