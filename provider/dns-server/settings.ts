/**
 * The DNS server's settings as the program declares them (camelCase, every field optional) and their
 * mapping to and from the service's settings model. Only what a program declares is managed: every
 * function here walks the *declared* fields, so an unset setting is never sent, never projected and
 * never shows a diff.
 */
import { isIPv4, isIPv6 } from "node:net";
import { isDeepStrictEqual } from "node:util";

import type { DnsServerSettings, Schedule } from "../schema/types.generated";

/** Days of the week, lower case. */
export const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type Day = (typeof DAYS)[number];

type Json = Record<string, unknown>;

/** How one declared leaf reads from and writes to the service's settings object. */
interface Leaf {
  /** Path of the declared value under `settings`, e.g. `["safeBrowsing", "homoglyph"]`. */
  path: readonly string[];
  /** Service path, e.g. `["safebrowsing_settings", "homoglyph_protection_enabled"]`. */
  service: readonly string[];
  /** Compared as a set (order and duplicates do not matter). */
  set?: boolean;
  /** Service value → declared shape; `undefined` when the service does not report it. */
  read?: (live: Json) => unknown;
  /** Declared value → the service update (merged at `service`); `live` is what the service has now. */
  write?: (value: unknown, live: Json | undefined) => unknown;
}

const SIMPLE: [string[], string[]][] = [
  [["protectionEnabled"], ["protection_enabled"]],
  [["ipLogEnabled"], ["ip_log_enabled"]],
  [["blockTtlSeconds"], ["block_ttl_seconds"]],
  [["blockPrivateRelay"], ["block_private_relay"]],
  [["blockFirefoxCanary"], ["block_firefox_canary"]],
  [["blockChromePrefetch"], ["block_chrome_prefetch"]],
  [["autoConnectDevicesEnabled"], ["auto_connect_devices_enabled"]],
  [["blockingMode", "mode"], ["blocking_mode_settings", "blocking_mode"]],
  [["blockingMode", "ipv4"], ["blocking_mode_settings", "ipv4_blocking_address"]],
  [["blockingMode", "ipv6"], ["blocking_mode_settings", "ipv6_blocking_address"]],
  [["userRules", "enabled"], ["user_rules_settings", "enabled"]],
  [["userRules", "rules"], ["user_rules_settings", "rules"]],
  [["filterLists", "enabled"], ["filter_lists_settings", "enabled"]],
  [["parentalControl", "enabled"], ["parental_control_settings", "enabled"]],
  [["parentalControl", "blockAdultWebsites"], ["parental_control_settings", "block_adult_websites_enabled"]],
  [["parentalControl", "safeSearch"], ["parental_control_settings", "engines_safe_search_enabled"]],
  [["parentalControl", "youtubeSafeSearch"], ["parental_control_settings", "youtube_safe_search_enabled"]],
  [["safeBrowsing", "enabled"], ["safebrowsing_settings", "enabled"]],
  [["safeBrowsing", "blockDangerousDomains"], ["safebrowsing_settings", "block_dangerous_domains"]],
  [["safeBrowsing", "blockNewlyRegisteredDomains"], ["safebrowsing_settings", "block_nrd"]],
  [["safeBrowsing", "typosquatting"], ["safebrowsing_settings", "typosquatting_protection_enabled"]],
  [["safeBrowsing", "homoglyph"], ["safebrowsing_settings", "homoglyph_protection_enabled"]],
  [["safeBrowsing", "blockingMode", "mode"], ["safebrowsing_settings", "blocking_mode_settings", "blocking_mode"]],
  [["safeBrowsing", "blockingMode", "ipv4"], ["safebrowsing_settings", "blocking_mode_settings", "ipv4_blocking_address"]],
  [["safeBrowsing", "blockingMode", "ipv6"], ["safebrowsing_settings", "blocking_mode_settings", "ipv6_blocking_address"]],
  [["access", "enabled"], ["access_settings", "enabled"]],
  [["access", "blockKnownScanners"], ["access_settings", "block_known_scanners"]],
];

/** Where the settings hold a blocking mode: the server's own, and safe browsing's (program path, service path). */
const BLOCKING_MODES: [readonly string[], readonly string[]][] = [
  [["blockingMode"], ["blocking_mode_settings"]],
  [["safeBrowsing", "blockingMode"], ["safebrowsing_settings", "blocking_mode_settings"]],
];

const SETS: [string[], string[]][] = [
  [["access", "allowedClients"], ["access_settings", "allowed_clients"]],
  [["access", "blockedClients"], ["access_settings", "blocked_clients"]],
  [["access", "blockedDomainRules"], ["access_settings", "blocked_domain_rules"]],
];

/** A list of `{ <idKey>, enabled }` entries on the service, declared as the ids that are enabled. */
function enabledIds(service: readonly string[], idKey: string): Pick<Leaf, "read" | "write" | "set"> {
  return {
    set: true,
    read: (live) => {
      const list = at(live, service);
      if (!Array.isArray(list)) return undefined;
      return list.filter((e) => isObject(e) && e.enabled === true).map((e) => String((e as Json)[idKey]));
    },
    write: (value, live) => {
      const wanted = new Set(value as string[]);
      const entries = [...wanted].map((id) => ({ [idKey]: id, enabled: true }));
      const current = live ? at(live, service) : undefined;
      if (Array.isArray(current)) {
        for (const e of current) {
          if (isObject(e) && typeof e[idKey] === "string" && e.enabled === true && !wanted.has(e[idKey] as string)) {
            entries.push({ [idKey]: e[idKey] as string, enabled: false });
          }
        }
      }
      return entries;
    },
  };
}

const LEAVES: readonly Leaf[] = [
  ...SIMPLE.map(([path, service]) => ({ path, service })),
  ...SETS.map(([path, service]) => ({ path, service, set: true })),
  { path: ["filterLists", "ids"], service: ["filter_lists_settings", "filter_list"], ...enabledIds(["filter_lists_settings", "filter_list"], "filter_id") },
  { path: ["blockedServices"], service: ["parental_control_settings", "blocked_services"], ...enabledIds(["parental_control_settings", "blocked_services"], "id") },
  {
    path: ["blockedCategories"],
    service: ["parental_control_settings", "blocked_filtering_categories"],
    ...enabledIds(["parental_control_settings", "blocked_filtering_categories"], "id"),
  },
  {
    path: ["parentalControl", "schedule"],
    service: ["parental_control_settings", "screen_time_schedule"],
    read: (live) => readSchedule(at(live, ["parental_control_settings", "screen_time_schedule"])),
    write: (value) => writeSchedule(value as Schedule),
  },
];

/** The names of every declared leaf, for messages: `settings.safeBrowsing.homoglyph`. */
export function leafName(leaf: { path: readonly string[] }): string {
  return ["settings", ...leaf.path].join(".");
}

/** The service's settings update (`DNSServerSettingsUpdate`) for what is declared; `live` fills list entries to disable. */
export function toServiceUpdate(declared: DnsServerSettings, live?: Json): Json {
  const update: Json = {};
  for (const leaf of declaredLeaves(declared)) {
    const value = at(declared as Json, leaf.path);
    setAt(update, leaf.service, leaf.write ? leaf.write(value, live) : value);
  }
  // The service requires `blocking_mode` whenever a `blocking_mode_settings` is sent.
  for (const [, service] of BLOCKING_MODES) {
    const bm = at(update, service) as Json | undefined;
    if (bm && bm.blocking_mode === undefined && live) bm.blocking_mode = at(live, [...service, "blocking_mode"]);
  }
  return update;
}

/**
 * The settings of a create body (`DNSServerCreate.settings`) for what is declared, so a new server
 * takes them in its one `POST`. Without the server's live settings, a blocking mode declared without
 * its `mode` cannot be sent (the service requires `blocking_mode` with it): it is left out, and the
 * create's caller applies what the new server still lacks. Undefined when nothing can be sent.
 */
export function toServiceCreate(declared: DnsServerSettings | undefined): Json | undefined {
  const update = toServiceUpdate(declared ?? {});
  for (const [, service] of BLOCKING_MODES) {
    const bm = at(update, service) as Json | undefined;
    if (!bm || bm.blocking_mode !== undefined) continue;
    const parent = service.length === 1 ? update : (at(update, service.slice(0, -1)) as Json);
    delete parent[service[service.length - 1] as string];
    if (service.length > 1 && Object.keys(parent).length === 0) delete update[service[0] as string];
  }
  return Object.keys(update).length > 0 ? update : undefined;
}

/**
 * What the service has for each declared setting, in the declared shape; a setting the service does not
 * report keeps its declared value (it cannot drift as far as anyone can see).
 */
export function project(declared: DnsServerSettings, live: Json): DnsServerSettings {
  const out: Json = {};
  for (const leaf of declaredLeaves(declared)) {
    const wanted = at(declared as Json, leaf.path);
    let value = leaf.read ? leaf.read(live) : at(live, leaf.service);
    if (value === undefined) value = wanted;
    if (leaf.set && Array.isArray(value) && Array.isArray(wanted) && sameSet(value, wanted)) value = wanted;
    setAt(out, leaf.path, value);
  }
  return out as DnsServerSettings;
}

/** Declared settings whose live value differs: `settings.<path>` names, sorted. */
export function drift(declared: DnsServerSettings, projected: DnsServerSettings): string[] {
  const changed: string[] = [];
  for (const leaf of declaredLeaves(declared)) {
    const a = at(declared as Json, leaf.path);
    const b = at(projected as Json, leaf.path);
    const same = leaf.set && Array.isArray(a) && Array.isArray(b) ? sameSet(a, b) : isDeepStrictEqual(a, b);
    if (!same) changed.push(leafName(leaf));
  }
  return changed.sort();
}

/** The service's full settings, camelCased, for the `effectiveSettings` output. */
export function effective(live: Json): DnsServerSettings {
  const out: Json = {};
  for (const leaf of LEAVES) {
    const value = leaf.read ? leaf.read(live) : at(live, leaf.service);
    if (value !== undefined) setAt(out, leaf.path, value);
  }
  return out as DnsServerSettings;
}

/** Checks declared settings; returns `[property, reason]` pairs without values. */
export function checkSettings(declared: unknown, isUnknown: (v: unknown) => boolean): [string, string][] {
  const problems: [string, string][] = [];
  if (declared === undefined || isUnknown(declared)) return problems;
  if (!isObject(declared)) return [["settings", "settings must be an object"]];
  const known = new Set(LEAVES.map((l) => l.path[0]));
  for (const key of Object.keys(declared)) {
    if (!known.has(key)) problems.push([`settings.${key}`, `settings.${key} is not a DNS server setting`]);
  }
  for (const leaf of declaredLeaves(declared as DnsServerSettings)) {
    const value = at(declared, leaf.path);
    if (isUnknown(value)) continue;
    const name = leafName(leaf);
    const reason = checkLeaf(leaf, value, isUnknown);
    if (reason) problems.push([name, `${name} ${reason}`]);
  }
  const ttl = (declared as Json).blockTtlSeconds;
  if (typeof ttl === "number" && !isUnknown(ttl) && (!Number.isInteger(ttl) || ttl < 0 || ttl > 3600)) {
    problems.push(["settings.blockTtlSeconds", "settings.blockTtlSeconds must be a whole number from 0 to 3600"]);
  }
  for (const [path] of BLOCKING_MODES) {
    const mode = at(declared, path);
    const name = ["settings", ...path].join(".");
    if (!isObject(mode) || isUnknown(mode)) continue;
    // The custom answers are addresses: an IPv4 for ipv4, an IPv6 for ipv6.
    for (const [key, valid, what] of [["ipv4", isIPv4, "an IPv4 address"], ["ipv6", isIPv6, "an IPv6 address"]] as const) {
      const v = mode[key];
      if (typeof v === "string" && !isUnknown(v) && !valid(v)) problems.push([`${name}.${key}`, `${name}.${key} must be ${what}`]);
    }
    if (!isUnknown(mode.mode) && !["NONE", "NULL_IP", "REFUSED", "NXDOMAIN", "CUSTOM_IP"].includes(mode.mode as string)) {
      problems.push([`${name}.mode`, `${name}.mode must be one of NONE, NULL_IP, REFUSED, NXDOMAIN, CUSTOM_IP`]);
    }
  }
  return problems;
}

function checkLeaf(leaf: Leaf, value: unknown, isUnknown: (v: unknown) => boolean): string | undefined {
  if (leaf.path.at(-1) === "schedule") return checkSchedule(value, isUnknown);
  if (leaf.path.at(-1) === "mode") return typeof value === "string" ? undefined : "must be a string";
  if (leaf.set || leaf.path.at(-1) === "rules" || leaf.path.at(-1) === "ids") {
    if (!Array.isArray(value)) return "must be a list of strings";
    return value.every((v) => typeof v === "string" || isUnknown(v)) ? undefined : "must be a list of strings";
  }
  if (leaf.path.at(-1) === "ipv4" || leaf.path.at(-1) === "ipv6") return typeof value === "string" ? undefined : "must be a string";
  if (leaf.path[0] === "blockTtlSeconds") return typeof value === "number" ? undefined : "must be a number";
  return typeof value === "boolean" ? undefined : "must be true or false";
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

function checkSchedule(value: unknown, isUnknown: (v: unknown) => boolean): string | undefined {
  if (!isObject(value)) return "must map days (monday…sunday) to { from, to }";
  for (const [day, window] of Object.entries(value)) {
    if (!(DAYS as readonly string[]).includes(day)) return "must map days (monday…sunday) to { from, to }";
    if (isUnknown(window)) continue;
    if (!isObject(window)) return `must give ${day} a { from, to } window`;
    for (const end of ["from", "to"] as const) {
      const t = window[end];
      if (!isUnknown(t) && (typeof t !== "string" || !TIME.test(t))) return `must give ${day}.${end} as HH:MM`;
    }
  }
  return undefined;
}

function readSchedule(week: unknown): Schedule | undefined {
  if (!isObject(week) || !Array.isArray(week.daily_schedule)) return undefined;
  const out: Schedule = {};
  for (const d of week.daily_schedule) {
    if (!isObject(d) || d.enabled !== true || typeof d.day_of_week !== "string") continue;
    const day = d.day_of_week.toLowerCase() as Day;
    if (!DAYS.includes(day)) continue;
    out[day] = { from: formatTime(d.from_time), to: formatTime(d.to_time) };
  }
  return out;
}

function writeSchedule(schedule: Schedule): Json {
  return {
    daily_schedule: DAYS.map((day) => {
      const w = schedule[day];
      if (!w) return { day_of_week: day.toUpperCase(), enabled: false };
      return { day_of_week: day.toUpperCase(), enabled: true, from_time: parseTime(w.from), to_time: parseTime(w.to) };
    }),
  };
}

function formatTime(t: unknown): string {
  const { hours, minutes } = isObject(t) ? t : {};
  const pad = (n: unknown) => String(typeof n === "number" ? n : 0).padStart(2, "0");
  return `${pad(hours)}:${pad(minutes)}`;
}

function parseTime(t: string): { hours: number; minutes: number } {
  const [h, m] = t.split(":");
  return { hours: Number(h), minutes: Number(m) };
}

function declaredLeaves(declared: DnsServerSettings | undefined): Leaf[] {
  if (!isObject(declared)) return [];
  return LEAVES.filter((leaf) => at(declared as Json, leaf.path) !== undefined);
}

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function at(obj: unknown, path: readonly string[]): unknown {
  let cur = obj;
  for (const key of path) {
    if (!isObject(cur) || !Object.prototype.hasOwnProperty.call(cur, key)) return undefined;
    cur = cur[key];
  }
  return cur;
}

function setAt(obj: Json, path: readonly string[], value: unknown): void {
  let cur = obj;
  for (const key of path.slice(0, -1)) {
    if (!isObject(cur[key])) cur[key] = {};
    cur = cur[key] as Json;
  }
  cur[path[path.length - 1] as string] = value;
}

function sameSet(a: unknown[], b: unknown[]): boolean {
  const x = new Set(a.map(String));
  const y = new Set(b.map(String));
  return x.size === y.size && [...x].every((v) => y.has(v));
}

/**
 * The program's name of a field of the service's settings model, as an error names it:
 * `blocking_mode_settings.ipv4_blocking_address` → `settings.blockingMode.ipv4`,
 * `user_rules_settings.rules[2]` → `settings.userRules.rules[2]`; `name` stays `name`. Undefined for a
 * field the program cannot declare.
 *
 * @example
 * ```ts
 * programField("settings.block_ttl_seconds"); // "settings.blockTtlSeconds"
 * ```
 */
export function programField(serviceField: string): string | undefined {
  if (serviceField === "name") return "name";
  const index = serviceField.search(/\[/);
  const base = (index < 0 ? serviceField : serviceField.slice(0, index)).replace(/^settings\./, "");
  const suffix = index < 0 ? "" : serviceField.slice(index);
  const parts = base.split(".");
  // The longest leading run of the path that is a declared setting (or a group of them); the rest stays.
  for (let n = parts.length; n > 0; n--) {
    const key = parts.slice(0, n).join(".");
    const rest = parts.slice(n).map((p) => `.${p}`).join("");
    const leaf = LEAVES.find((l) => l.service.join(".") === key);
    if (leaf) return `settings.${leaf.path.join(".")}${rest}${suffix}`;
    const group = n === 1 ? LEAVES.find((l) => l.service.length > 1 && l.service[0] === key) : undefined;
    if (group) return `settings.${group.path[0]}${rest}${suffix}`;
  }
  return undefined;
}
