import { isIP } from "node:net";
import { type FieldError, wrong } from "../http/errors";
import { known, validate } from "../http/validate";
import { FILTER_LISTS, PARENTAL_CATEGORIES, WEB_SERVICES } from "../reference-data/data";

/** The days of a schedule week, in the service's order. */
export const DAYS = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"] as const;

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A DNS server's settings as a new server gets them (`DNSServerSettings`). */
export function defaultServerSettings(): Obj {
  return {
    protection_enabled: true,
    auto_connect_devices_enabled: false,
    block_chrome_prefetch: false,
    block_firefox_canary: true,
    block_private_relay: false,
    block_ttl_seconds: 10,
    ip_log_enabled: true,
    access_settings: { enabled: false, allowed_clients: [], blocked_clients: [], blocked_domain_rules: [], block_known_scanners: true },
    blocking_mode_settings: { blocking_mode: "NULL_IP" },
    filter_lists_settings: { enabled: true, filter_list: [{ filter_id: "adguard_dns_filter", enabled: true }] },
    parental_control_settings: {
      enabled: false,
      block_adult_websites_enabled: false,
      engines_safe_search_enabled: false,
      youtube_safe_search_enabled: false,
      blocked_services: [],
      screen_time_schedule: {
        daily_schedule: DAYS.map((day_of_week) => ({ day_of_week, enabled: false, from_time: { hours: 0, minutes: 0 }, to_time: { hours: 23, minutes: 59 } })),
      },
    },
    safebrowsing_settings: {
      enabled: true,
      block_dangerous_domains: true,
      block_nrd: false,
      homoglyph_protection_enabled: false,
      typosquatting_protection_enabled: false,
      blocking_mode_settings: { blocking_mode: "NULL_IP" },
    },
    user_rules_settings: { enabled: true, rules: [], rules_count: 0 },
  };
}

/** A device's settings as a new device gets them (`DeviceSettings`). */
export function defaultDeviceSettings(): { protection_enabled: boolean; detect_doh_auth_only: boolean } {
  return { protection_enabled: true, detect_doh_auth_only: false };
}

/** How many user rules and access rules a settings object holds (both count against account limits). */
export function ruleCounts(settings: Obj): { userRules: number; accessRules: number } {
  const rules = (settings.user_rules_settings as Obj | undefined)?.rules;
  const access = (settings.access_settings as Obj | undefined) ?? {};
  const len = (v: unknown): number => (Array.isArray(v) ? v.length : 0);
  return { userRules: len(rules), accessRules: len(access.allowed_clients) + len(access.blocked_clients) + len(access.blocked_domain_rules) };
}

function checkBlockingMode(value: unknown, field: string, errors: FieldError[]): void {
  if (!isObject(value) || value.blocking_mode !== "CUSTOM_IP") return;
  const v4 = value.ipv4_blocking_address;
  const v6 = value.ipv6_blocking_address;
  if (v4 === undefined && v6 === undefined) errors.push(wrong(`${field}.ipv4_blocking_address`, "CUSTOM_IP needs an address"));
  if (typeof v4 === "string" && isIP(v4) !== 4) errors.push(wrong(`${field}.ipv4_blocking_address`, "Must be an IPv4 address"));
  if (typeof v6 === "string" && isIP(v6) !== 6) errors.push(wrong(`${field}.ipv6_blocking_address`, "Must be an IPv6 address"));
}

/** Checks that need more than the schema: references to reference data, addresses, schedule order. */
function semanticChecks(update: Obj): FieldError[] {
  const errors: FieldError[] = [];
  const filters = (update.filter_lists_settings as Obj | undefined)?.filter_list;
  if (Array.isArray(filters)) {
    filters.forEach((f: Obj, i) => {
      if (!FILTER_LISTS.some((l) => l.filter_id === f.filter_id)) errors.push(wrong(`filter_lists_settings.filter_list[${i}].filter_id`, "Unknown filter list"));
    });
  }
  const parental = update.parental_control_settings as Obj | undefined;
  if (isObject(parental)) {
    (Array.isArray(parental.blocked_services) ? parental.blocked_services : []).forEach((s: Obj, i) => {
      if (!WEB_SERVICES.some((w) => w.id === s.id)) errors.push(wrong(`parental_control_settings.blocked_services[${i}].id`, "Unknown web service"));
    });
    (Array.isArray(parental.blocked_filtering_categories) ? parental.blocked_filtering_categories : []).forEach((c: Obj, i) => {
      if (!PARENTAL_CATEGORIES.some((p) => p.id === c.id)) errors.push(wrong(`parental_control_settings.blocked_filtering_categories[${i}].id`, "Unknown category"));
    });
    const days = (parental.screen_time_schedule as Obj | undefined)?.daily_schedule;
    if (Array.isArray(days)) {
      const seen = new Set<unknown>();
      days.forEach((d: Obj, i) => {
        if (seen.has(d.day_of_week)) errors.push(wrong(`parental_control_settings.screen_time_schedule.daily_schedule[${i}].day_of_week`, "Day given twice"));
        seen.add(d.day_of_week);
      });
    }
  }
  checkBlockingMode(update.blocking_mode_settings, "blocking_mode_settings", errors);
  checkBlockingMode((update.safebrowsing_settings as Obj | undefined)?.blocking_mode_settings, "safebrowsing_settings.blocking_mode_settings", errors);
  const clients = (update.access_settings as Obj | undefined) ?? {};
  for (const key of ["allowed_clients", "blocked_clients"] as const) {
    const list = clients[key];
    if (Array.isArray(list)) list.forEach((c, i) => {
      if (typeof c !== "string" || c.length === 0 || c.length > 256) errors.push(wrong(`access_settings.${key}[${i}]`, "Must be a client id, IP or CIDR"));
    });
  }
  return errors;
}

/** Merges a validated update into settings: objects merge, arrays replace, days merge by weekday. */
function merge(base: Obj, update: Obj): Obj {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(update)) {
    if (k === "daily_schedule" && Array.isArray(v) && Array.isArray(base[k])) {
      out[k] = (base[k] as Obj[]).map((day) => {
        const u = (v as Obj[]).find((d) => d.day_of_week === day.day_of_week);
        return u ? merge(day, u) : day;
      });
    } else if (isObject(v) && isObject(base[k])) {
      out[k] = merge(base[k] as Obj, v);
    } else {
      out[k] = v;
    }
  }
  return out;
}

/** Fills defaults the Update schemas leave optional (`enabled` of list items). */
function normalise(settings: Obj): Obj {
  const fl = settings.filter_lists_settings as Obj;
  fl.filter_list = (fl.filter_list as Obj[]).map((f) => ({ filter_id: f.filter_id, enabled: f.enabled ?? true }));
  const pc = settings.parental_control_settings as Obj;
  pc.blocked_services = (pc.blocked_services as Obj[]).map((s) => ({ id: s.id, enabled: s.enabled ?? true }));
  if (Array.isArray(pc.blocked_filtering_categories)) {
    pc.blocked_filtering_categories = (pc.blocked_filtering_categories as Obj[]).map((c) => ({ id: c.id, enabled: c.enabled ?? true }));
  }
  const ur = settings.user_rules_settings as Obj;
  ur.rules_count = (ur.rules as unknown[]).length;
  return settings;
}

/** Outcome of applying a settings update. */
export type SettingsResult = { ok: true; settings: Obj } | { ok: false; errors: FieldError[]; message?: string };

/**
 * Validates a `DNSServerSettingsUpdate` (schema, then references and addresses) and returns the merged
 * settings, or the field errors.
 *
 * @example
 * ```ts
 * const r = applyServerSettings(defaultServerSettings(), { block_ttl_seconds: 60 });
 * ```
 */
export function applyServerSettings(current: Obj, update: unknown): SettingsResult {
  if (!isObject(update)) return { ok: false, errors: [], message: "Body must be a JSON object" };
  const errors = validate("DNSServerSettingsUpdate", update);
  if (errors.length) return { ok: false, errors };
  const clean = known("DNSServerSettingsUpdate", update) as Obj;
  const semantic = semanticChecks(clean);
  if (semantic.length) return { ok: false, errors: semantic };
  return { ok: true, settings: normalise(merge(current, structuredClone(clean))) };
}

/**
 * The settings as the API shows them (`DNSServerSettings`): the update-only
 * `blocked_filtering_categories` is kept but not shown.
 *
 * @example
 * ```ts
 * sendJson(res, 200, settingsView(server.settings));
 * ```
 */
export function settingsView(settings: Obj): Obj {
  const { blocked_filtering_categories: _hidden, ...parental } = settings.parental_control_settings as Obj;
  return { ...settings, parental_control_settings: parental };
}
