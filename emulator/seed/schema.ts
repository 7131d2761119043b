/**
 * The seed of an emulator account: DNS servers (with their settings, user rules included), devices,
 * dedicated IPv4 addresses and query-log entries, in the service's own field names. `dns-account export
 * --format seed` writes one; `dns-account emulator --seed FILE` (or `startEmulator({ seed })`) starts
 * with it; the `--state` file holds one per account. Validated with zod; every problem names its field
 * path (`dns_servers[1].name`), never the value.
 */
import { isIP } from "node:net";
import { z } from "zod";
import { DEVICE_TYPES } from "../account/account";
import { ConfigError } from "../../sdk/errors";
import type { AccountSeed, AccountSeedInput, EmulatorStateFile } from "./types";

export type { AccountSeed, AccountSeedInput, EmulatorStateFile, SeedDedicatedIpv4, SeedDevice, SeedDnsServer, SeedQueryLogItem } from "./types";

/** The seed format's version; a file of another version is refused. */
export const SEED_VERSION = 1 as const;

// A DNS label, as the service's ids are (they name the device's DNS host).
const id = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/, "must be letters, digits and inner hyphens, at most 63");
const name = z.string().min(1, "must be 1 to 64 characters").max(64, "must be 1 to 64 characters");
const ipv4 = z.string().refine((v) => isIP(v) === 4, "must be an IPv4 address");
/** A quota: the API's `Limit.limit`, an int32 (0 included: an account without dedicated addresses). */
const count = z.number().int().min(0).max(2 ** 31 - 1);

/** A DNS server of a seed: the service's `DNSServer` fields a seed keeps. */
const dnsServer = z.strictObject({
  id: id.optional(),
  name,
  /** The account's default server (at most one; without one the emulator makes its own). */
  default: z.boolean().optional(),
  /** `DNSServerSettings` (or any part of it), checked as the API checks a settings update. */
  settings: z.record(z.string(), z.unknown()).optional(),
});

/** A device of a seed. */
const device = z.strictObject({
  id: id.optional(),
  name,
  device_type: z.enum(DEVICE_TYPES),
  /** A server of the seed (by id); default: the default server. */
  dns_server_id: id.optional(),
  settings: z.strictObject({ protection_enabled: z.boolean().optional(), detect_doh_auth_only: z.boolean().optional() }).optional(),
});

/** A dedicated IPv4 address, linked to a device of the seed or not. */
const dedicatedIpv4 = z.strictObject({ ip: ipv4, device_id: id.optional() });

/**
 * A query-log entry: the service's `QueryLogItem` (what `dns-account logs --json` prints). Fields the
 * emulator does not know are dropped; `dns_server_id` is the device's when the device is in the seed.
 */
const queryLogItem = z
  .looseObject({
    time_millis: z.number().int().nonnegative().optional(),
    time_iso: z.iso.datetime({ offset: true }).optional(),
    domain: z.string().min(1).max(253),
    device_id: id,
    dns_server_id: id.optional(),
    company_id: z.string().optional(),
    category_type: z.string().optional(),
    client_country: z.string().optional(),
    asn: z.number().int().optional(),
    network: z.string().optional(),
    dnssec: z.boolean().optional(),
    dns_request_type: z.string().optional(),
    dns_response_type: z.string().optional(),
    dns_proto_type: z.string().optional(),
    response_country: z.string().optional(),
    filtering_info: z
      .looseObject({
        filtering_status: z.string(),
        filtering_type: z.string().optional(),
        filter_id: z.string().optional(),
        filtering_category_id: z.string().optional(),
      })
      .optional(),
  })
  .refine((q) => q.time_millis !== undefined || q.time_iso !== undefined, { message: "needs time_millis or time_iso", path: ["time_millis"] });

/** Per-account quotas a seed may raise (a real account exported may have more than the defaults). */
const limits = z.strictObject({
  devices: count.optional(),
  dns_servers: count.optional(),
  access_rules: count.optional(),
  dedicated_ipv4: count.optional(),
  requests: count.optional(),
  user_rules: count.optional(),
});

/** Checks that references stay inside the seed and ids are unique. */
function references(seed: z.infer<typeof accountShape>, ctx: z.RefinementCtx): void {
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
  const serverIds = new Set<string>();
  seed.dns_servers.forEach((s, i) => {
    if (s.id === undefined) return;
    if (serverIds.has(s.id)) issue(["dns_servers", i, "id"], "is the id of another server");
    serverIds.add(s.id);
  });
  if (seed.dns_servers.filter((s) => s.default).length > 1) issue(["dns_servers"], "has more than one default server");
  const deviceIds = new Set<string>();
  seed.devices.forEach((d, i) => {
    if (d.dns_server_id !== undefined && !serverIds.has(d.dns_server_id)) issue(["devices", i, "dns_server_id"], "is not the id of a server of the seed");
    if (d.id === undefined) return;
    if (deviceIds.has(d.id)) issue(["devices", i, "id"], "is the id of another device");
    deviceIds.add(d.id);
  });
  const ips = new Set<string>();
  seed.dedicated_ipv4.forEach((a, i) => {
    if (ips.has(a.ip)) issue(["dedicated_ipv4", i, "ip"], "is given twice");
    ips.add(a.ip);
    if (a.device_id !== undefined && !deviceIds.has(a.device_id)) issue(["dedicated_ipv4", i, "device_id"], "is not the id of a device of the seed");
  });
  // A query-log entry may name a device that is gone (the service's log keeps them too).
}

const accountShape = z.strictObject({
  version: z.literal(SEED_VERSION),
  /** The emulator user whose account this is; default: the first user. */
  username: z.string().min(1).optional(),
  /** Synthetic traffic in the query log and statistics besides `query_log`; default true. */
  synthetic_traffic: z.boolean().optional(),
  limits: limits.optional(),
  dns_servers: z.array(dnsServer).default([]),
  devices: z.array(device).default([]),
  dedicated_ipv4: z.array(dedicatedIpv4).default([]),
  query_log: z.array(queryLogItem).max(1_000_000).default([]),
  /** State only: query-log entries at or before this time were cleared. */
  query_log_cleared_at_millis: z.number().optional(),
});

// The declared types are what the schema produces and takes (checked here, at compile time).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _output: Same<z.output<typeof accountShape>, AccountSeed> = true;
const _input: [AccountSeedInput] extends [z.input<typeof accountShape>] ? true : false = true;
void _output;
void _input;

const accountSeed = accountShape.superRefine(references);

/** The `--state` file: every account the emulator holds. */
const stateShape = z.strictObject({ version: z.literal(SEED_VERSION), accounts: z.array(accountSeed) }).superRefine((state, ctx) => {
  const seen = new Set<string>();
  state.accounts.forEach((a, i) => {
    if (a.username === undefined) ctx.addIssue({ code: "custom", path: ["accounts", i, "username"], message: "is required" });
    else if (seen.has(a.username)) ctx.addIssue({ code: "custom", path: ["accounts", i, "username"], message: "is the user of another account" });
    else seen.add(a.username);
  });
});


/** `a.b[2].c` from a zod path. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out === "" ? String(key) : `${out}.${String(key)}`), "");
}

/** The field a zod issue is about and what is wrong, in words that never quote the value. */
function problem(issue: z.core.$ZodIssue): { field: string; words: string } {
  const field = fieldPath(issue.path);
  switch (issue.code) {
    case "invalid_type":
      if (issue.message.endsWith("received undefined")) return { field, words: "is required" };
      return { field, words: issue.expected === "int" ? "must be an integer" : `must be of type ${issue.expected}` };
    case "unrecognized_keys":
      return { field: fieldPath([...issue.path, issue.keys[0]!]), words: "is not a field of the seed format" };
    case "invalid_value":
      return { field, words: issue.values.length === 1 ? `must be ${JSON.stringify(issue.values[0])}` : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}` };
    default:
      // Our own messages ("must be …", "is …") and zod's size and format messages name no value.
      return { field, words: /^(must|is|has|needs) /.test(issue.message) ? issue.message : issue.message.replace(/^[A-Z]/, (c) => c.toLowerCase()) };
  }
}

/**
 * Validates a seed (or a state file, `kind: "state"`) and returns it with defaults filled in. Throws a
 * {@link ConfigError} whose `field` is the path of the first problem, e.g. `dns_servers[1].name`,
 * and whose message starts with `label` (the flag or option the user gave the file with).
 *
 * @example
 * ```ts
 * const seed = parseSeed(JSON.parse(readFileSync("account.json", "utf8")), "--seed");
 * ```
 */
export function parseSeed(value: unknown, label: string): AccountSeed;
export function parseSeed(value: unknown, label: string, kind: "state"): EmulatorStateFile;
export function parseSeed(value: unknown, label: string, kind: "seed" | "state" = "seed"): AccountSeed | EmulatorStateFile {
  const result = (kind === "state" ? stateShape : accountSeed).safeParse(value);
  if (result.success) return result.data;
  const { field, words } = problem(result.error.issues[0]!);
  if (field === "") throw new ConfigError(`${label}: the file must hold a JSON object`, { field: label });
  throw new ConfigError(`${label}: ${field} ${words}`, { field });
}
