import { randomBytes } from "node:crypto";
import { type FieldError, required, wrong } from "../http/errors";
import { applyServerSettings, defaultDeviceSettings, defaultServerSettings, ruleCounts, settingsView } from "../settings/model";

export type { FieldError } from "../http/errors";

/** Device types the service knows (`ConnectDeviceType`). */
export const DEVICE_TYPES = ["WINDOWS", "ANDROID", "MAC", "IOS", "LINUX", "ROUTER", "SMART_TV", "GAME_CONSOLE", "UNKNOWN"] as const;

/** Per-account quotas of the emulator (`GET /account/limits`). */
export interface EmulatorLimits {
  devices: number;
  dns_servers: number;
  access_rules: number;
  dedicated_ipv4: number;
  /** API calls per account before 429 `TOO_MANY_REQUESTS`. */
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

/** A device as stored. */
export interface Device {
  id: string;
  name: string;
  device_type: string;
  dns_server_id: string;
  settings: { protection_enabled: boolean; detect_doh_auth_only: boolean };
  /** Never shown by the API (a secret); only its resets are counted. */
  dohPassword: string;
  dohPasswordResets: number;
}

/** A DNS server as stored. */
export interface DnsServer {
  id: string;
  name: string;
  default: boolean;
  device_ids: string[];
  settings: Record<string, unknown>;
}

/** Result of an account operation: a value, a validation failure, a missing object or a quota hit. */
export type Outcome<T> =
  | { ok: true; value: T }
  | { ok: false; kind: "invalid"; errors: FieldError[]; message?: string }
  | { ok: false; kind: "not_found" }
  | { ok: false; kind: "exists"; errors: FieldError[]; message: string }
  | { ok: false; kind: "limit"; limit: keyof EmulatorLimits };

const notFound = { ok: false, kind: "not_found" } as const;

function newId(): string {
  return randomBytes(4).toString("hex");
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function checkName(body: Record<string, unknown>, isRequired: boolean, errors: FieldError[]): void {
  if (!("name" in body)) {
    if (isRequired) errors.push(required("name"));
  } else if (typeof body.name !== "string" || body.name.length < 1 || body.name.length > 64) {
    errors.push(wrong("name", "Must be a string of 1 to 64 characters"));
  }
}

/**
 * The business data of one user: DNS servers (one default), devices and dedicated IPv4 addresses,
 * with the quotas of {@link EmulatorLimits}.
 *
 * @example
 * ```ts
 * const account = new Account(DEFAULT_LIMITS);
 * const server = [...account.dnsServers.values()][0];
 * ```
 */
export class Account {
  readonly devices = new Map<string, Device>();
  readonly dnsServers = new Map<string, DnsServer>();
  /** Allocated dedicated IPv4 addresses and the device each is linked to. */
  readonly dedicatedIpv4 = new Map<string, string | undefined>();
  apiCalls = 0;
  /** Query-log entries at or before this time were cleared. */
  queryLogClearedAt = Number.NEGATIVE_INFINITY;
  private nextIp = 1;

  constructor(private readonly limits: EmulatorLimits) {
    const id = newId();
    this.dnsServers.set(id, { id, name: "Default server", default: true, device_ids: [], settings: defaultServerSettings() });
  }

  private ruleUse(except?: string): { userRules: number; accessRules: number } {
    let userRules = 0;
    let accessRules = 0;
    for (const s of this.dnsServers.values()) {
      if (s.id === except) continue;
      const c = ruleCounts(s.settings);
      userRules += c.userRules;
      accessRules += c.accessRules;
    }
    return { userRules, accessRules };
  }

  limitsView(): Record<keyof EmulatorLimits, { limit: number; used: number }> {
    const use = this.ruleUse();
    return {
      access_rules: { limit: this.limits.access_rules, used: use.accessRules },
      dedicated_ipv4: { limit: this.limits.dedicated_ipv4, used: this.dedicatedIpv4.size },
      devices: { limit: this.limits.devices, used: this.devices.size },
      dns_servers: { limit: this.limits.dns_servers, used: this.dnsServers.size },
      requests: { limit: this.limits.requests, used: this.apiCalls },
      user_rules: { limit: this.limits.user_rules, used: use.userRules },
    };
  }

  /** Whether the account has used up its API calls. */
  overRequestQuota(): boolean {
    return this.apiCalls > this.limits.requests;
  }

  deviceView(d: Device): Record<string, unknown> {
    const host = `${d.id}.dns.emulator.invalid`;
    const adguard = (scheme: string, app: string): string => `${app}:add_dns_server?address=${encodeURIComponent(`${scheme}://${host}/dns-query`)}`;
    const withAuth = `https://${d.id}:${encodeURIComponent(d.dohPassword)}@${host}/dns-query`;
    const ips = [{ ip_address: "192.0.2.53", type: "V4" }, { ip_address: "2001:db8::53", type: "V6" }];
    for (const [ip, device] of this.dedicatedIpv4) if (device === d.id) ips.push({ ip_address: ip, type: "V4" });
    return {
      id: d.id,
      name: d.name,
      device_type: d.device_type,
      dns_server_id: d.dns_server_id,
      dns_addresses: {
        dns_over_https_url: `https://${host}/dns-query`,
        // The with-auth addresses embed the device's DoH password, as the service's do: they are secrets.
        dns_over_https_with_auth_url: withAuth,
        dns_over_tls_url: `tls://${host}`,
        dns_over_quic_url: `quic://${host}`,
        adguard_dns_over_https_url: adguard("https", "adguard"),
        adguard_dns_over_https_with_auth_url: `adguard:add_dns_server?address=${encodeURIComponent(withAuth)}`,
        adguard_dns_over_tls_url: adguard("tls", "adguard"),
        adguard_dns_over_quic_url: adguard("quic", "adguard"),
        adguard_vpn_dns_over_https_url: adguard("https", "adguardvpn"),
        adguard_vpn_dns_over_https_with_auth_url: `adguardvpn:add_dns_server?address=${encodeURIComponent(withAuth)}`,
        adguard_vpn_dns_over_tls_url: adguard("tls", "adguardvpn"),
        adguard_vpn_dns_over_quic_url: adguard("quic", "adguardvpn"),
        ip_addresses: ips,
      },
      settings: { ...d.settings },
    };
  }

  serverView(s: DnsServer): Record<string, unknown> {
    return { id: s.id, name: s.name, default: s.default, device_ids: [...s.device_ids], devices_count: s.device_ids.length, settings: settingsView(s.settings) };
  }

  private checkDevice(body: Record<string, unknown>, isRequired: boolean): FieldError[] {
    const errors: FieldError[] = [];
    checkName(body, isRequired, errors);
    if (!("device_type" in body)) {
      if (isRequired) errors.push(required("device_type"));
    } else if (!DEVICE_TYPES.includes(body.device_type as (typeof DEVICE_TYPES)[number])) {
      errors.push(wrong("device_type", "Unknown device type"));
    }
    if (!("dns_server_id" in body)) {
      if (isRequired) errors.push(required("dns_server_id"));
    } else if (typeof body.dns_server_id !== "string" || !this.dnsServers.has(body.dns_server_id)) {
      errors.push(wrong("dns_server_id", "No such DNS server"));
    }
    return errors;
  }

  createDevice(body: unknown): Outcome<Device> {
    if (!isObject(body)) return { ok: false, kind: "invalid", errors: [], message: "Body must be a JSON object" };
    const errors = this.checkDevice(body, true);
    if (errors.length) return { ok: false, kind: "invalid", errors };
    if (this.devices.size >= this.limits.devices) return { ok: false, kind: "limit", limit: "devices" };
    const id = newId();
    const device: Device = {
      id,
      name: body.name as string,
      device_type: body.device_type as string,
      dns_server_id: body.dns_server_id as string,
      settings: defaultDeviceSettings(),
      dohPassword: randomBytes(12).toString("base64url"),
      dohPasswordResets: 0,
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
    for (const [ip, linked] of this.dedicatedIpv4) if (linked === id) this.dedicatedIpv4.set(ip, undefined);
    this.devices.delete(id);
    return { ok: true, value: null };
  }

  private detach(device: Device): void {
    const server = this.dnsServers.get(device.dns_server_id);
    if (server) server.device_ids = server.device_ids.filter((d) => d !== device.id);
  }

  /** Checks the account-wide rule quotas for a server's new settings. */
  private ruleLimits(serverId: string | undefined, settings: Record<string, unknown>): FieldError[] {
    const others = this.ruleUse(serverId);
    const mine = ruleCounts(settings);
    const errors: FieldError[] = [];
    if (others.userRules + mine.userRules > this.limits.user_rules) {
      errors.push({ field: "user_rules_settings.rules", error_code: "FIELD_REACHED_LIMIT", message: "The user_rules limit is reached" });
    }
    if (others.accessRules + mine.accessRules > this.limits.access_rules) {
      errors.push({ field: "access_settings", error_code: "FIELD_REACHED_LIMIT", message: "The access_rules limit is reached" });
    }
    return errors;
  }

  createDnsServer(body: unknown): Outcome<DnsServer> {
    if (!isObject(body)) return { ok: false, kind: "invalid", errors: [], message: "Body must be a JSON object" };
    const errors: FieldError[] = [];
    checkName(body, true, errors);
    if ("settings" in body && !isObject(body.settings)) errors.push(wrong("settings", "Must be an object"));
    if (errors.length) return { ok: false, kind: "invalid", errors };
    const applied = applyServerSettings(defaultServerSettings(), body.settings ?? {});
    if (!applied.ok) return { ok: false, kind: "invalid", errors: applied.errors.map((e) => ({ ...e, field: `settings.${e.field}` })) };
    const over = this.ruleLimits(undefined, applied.settings);
    if (over.length) return { ok: false, kind: "invalid", errors: over.map((e) => ({ ...e, field: `settings.${e.field}` })) };
    if (this.dnsServers.size >= this.limits.dns_servers) return { ok: false, kind: "limit", limit: "dns_servers" };
    const id = newId();
    const server: DnsServer = { id, name: body.name as string, default: false, device_ids: [], settings: applied.settings };
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

  updateDnsServerSettings(id: string, body: unknown): Outcome<DnsServer> {
    const server = this.dnsServers.get(id);
    if (!server) return notFound;
    const applied = applyServerSettings(server.settings, body);
    if (!applied.ok) return { ok: false, kind: "invalid", errors: applied.errors, ...(applied.message ? { message: applied.message } : {}) };
    const over = this.ruleLimits(id, applied.settings);
    if (over.length) return { ok: false, kind: "invalid", errors: over };
    server.settings = applied.settings;
    return { ok: true, value: server };
  }

  removeDnsServer(id: string): Outcome<null> {
    const server = this.dnsServers.get(id);
    if (!server) return notFound;
    if (server.default) return { ok: false, kind: "invalid", errors: [], message: "The default DNS server cannot be removed" };
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

  /** Allocates the next dedicated IPv4 address (from 203.0.113.0/24, a documentation range). */
  allocateIpv4(): Outcome<{ ip: string }> {
    // Addresses a seed gave are skipped.
    while (this.nextIp <= 254 && this.dedicatedIpv4.has(`203.0.113.${this.nextIp}`)) this.nextIp++;
    if (this.dedicatedIpv4.size >= this.limits.dedicated_ipv4 || this.nextIp > 254) return { ok: false, kind: "limit", limit: "dedicated_ipv4" };
    const ip = `203.0.113.${this.nextIp++}`;
    this.dedicatedIpv4.set(ip, undefined);
    return { ok: true, value: { ip } };
  }

  linkIpv4(deviceId: string, body: unknown): Outcome<null> {
    if (!this.devices.has(deviceId)) return notFound;
    if (!isObject(body) || body.ip === undefined) return { ok: false, kind: "invalid", errors: [required("ip")] };
    if (typeof body.ip !== "string") return { ok: false, kind: "invalid", errors: [wrong("ip", "Not an address")] };
    // An address this account never allocated is not found, as on the service.
    if (!this.dedicatedIpv4.has(body.ip)) return notFound;
    const linked = this.dedicatedIpv4.get(body.ip);
    if (linked === deviceId) return { ok: true, value: null };
    if (linked !== undefined) {
      return { ok: false, kind: "exists", errors: [{ field: "ip", error_code: "ALREADY_EXISTS", message: "Linked to another device" }], message: "The address is linked to another device" };
    }
    this.dedicatedIpv4.set(body.ip, deviceId);
    return { ok: true, value: null };
  }

  unlinkIpv4(deviceId: string, ip: string | null): Outcome<null> {
    if (!this.devices.has(deviceId)) return notFound;
    if (ip === null) return { ok: false, kind: "invalid", errors: [required("ip")] };
    if (this.dedicatedIpv4.get(ip) !== deviceId) return notFound;
    this.dedicatedIpv4.set(ip, undefined);
    return { ok: true, value: null };
  }
}
