/**
 * From dashboard to code (`dns-account export`): every DNS server, device and dedicated IPv4 address of
 * an account, with readable unique names, as a Pulumi bulk-import file (for `pulumi import --file`, which
 * writes the program in any language through the plugin) or as a TypeScript program of the dynamic
 * resources that adopts them. The inputs are the ones an import's `read` returns, so both describe every
 * managed property of the account exactly and the next `up` changes nothing. What the resources do not
 * manage is listed in {@link UNMANAGED}.
 */
import type { Client } from "../sdk/client/client";
import { importInputs as addressInputs } from "./dedicated-ipv4/lifecycle";
import { importInputs as deviceInputs } from "./device/lifecycle";
import { importInputs as serverInputs } from "./dns-server/lifecycle";
import type { DedicatedIpv4Inputs, DeviceInputs, DnsServerInputs } from "./schema/types.generated";

/**
 * One object of the account, ready to import: `name` is its Pulumi resource name, `variable` the
 * identifier code refers to it by (unique, valid in every Pulumi language, never a keyword or an import).
 */
export type ExportedResource =
  | { kind: "DnsServer"; name: string; variable: string; id: string; isDefault: boolean; inputs: DnsServerInputs }
  | { kind: "Device"; name: string; variable: string; id: string; inputs: DeviceInputs }
  | { kind: "DedicatedIpv4"; name: string; variable: string; id: string; inputs: DedicatedIpv4Inputs };

/**
 * The settable properties of API 1.15's DNS servers, devices and dedicated addresses that the resources
 * deliberately do not manage (so neither `export` nor an import carries them), each with the reason.
 * Service field paths; `[]` marks the entries of a list.
 */
export const UNMANAGED: readonly { field: string; reason: string }[] = [
  {
    field: "dns_servers.settings.parental_control_settings.blocked_filtering_categories",
    reason: "write-only: the service never reports it back, so it cannot be exported, imported or shown as drift (a program may still declare it: settings.blockedCategories)",
  },
  {
    field: "dns_servers.settings.filter_lists_settings.filter_list[].enabled",
    reason: "an entry with enabled false is the same as no entry: settings.filterLists.ids holds the enabled lists, and every other one is disabled",
  },
  {
    field: "dns_servers.settings.parental_control_settings.blocked_services[].enabled",
    reason: "an entry with enabled false is the same as no entry: settings.blockedServices holds the blocked services, and every other one is unblocked",
  },
  {
    field: "dns_servers.settings.parental_control_settings.screen_time_schedule.daily_schedule[].from_time/to_time of a disabled day",
    reason: "they have no effect: settings.parentalControl.schedule holds the enabled days with their windows, and every other day is disabled",
  },
  { field: "devices.doh_password", reason: "the service can only reset it, never set it: dohPasswordKeepers resets it" },
  {
    field: "dedicated_addresses.ipv4 of an adopted, unlinked address",
    reason: "adopting without deviceId leaves the link alone, so an exported unlinked address is adopted as is; a program declares a link with deviceId",
  },
];

/**
 * A Pulumi resource name made of an object's name: letters, digits, `_`, `.` and `-` only, lower case,
 * not starting with `.` or `-`; `fallback` when nothing is left.
 *
 * @example
 * ```ts
 * resourceName("Kids' room", "device"); // "kids-room"
 * ```
 */
export function resourceName(name: string, fallback: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’`]/g, "")
    .replace(/[^a-z0-9_.-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[.-]+/, "")
    .replace(/[.-]+$/, "")
    .slice(0, 60);
  return base === "" ? fallback : base;
}

/**
 * Names unique across the whole export (compared by `key`): a second `phone` becomes `phone-2`. It
 * remembers the next suffix to try per `key(name)`, which gives the same names as trying from 2 each time
 * only when `key(join(a, i))` depends on `key(a)` alone (true of an identity key, and of lower-casing
 * with a suffix that keeps its case).
 *
 * @example
 * ```ts
 * const unique = uniqueNamer((name, i) => `${name}-${i}`);
 * [unique("phone"), unique("phone"), unique("phone-2"), unique("phone")]; // ["phone", "phone-2", "phone-2-2", "phone-3"]
 * ```
 */
export function uniqueNamer(join: (name: string, n: number) => string, key: (name: string) => string = (n) => n): (name: string) => string {
  const used = new Set<string>();
  // The next suffix to try for a name: every one below it is taken (used only grows), so n objects of one
  // name cost n steps in all, not n² (a hostile account may hold 100,000 devices called "Phone").
  const next = new Map<string, number>();
  return (name) => {
    let candidate = name;
    let i = next.get(key(name)) ?? 2;
    if (used.has(key(candidate))) {
      for (; used.has(key((candidate = join(name, i)))); i++);
      next.set(key(name), i + 1);
    }
    used.add(key(candidate));
    return candidate;
  };
}

const SUFFIX: Record<ExportedResource["kind"], string> = { DnsServer: "Server", Device: "Device", DedicatedIpv4: "Address" };

/**
 * A code identifier for a resource name and kind: `kids-room` Device → `kidsRoomDevice`, `home-server`
 * DnsServer → `homeServer`, `_` Device → `unnamedDevice`, `2nd-floor` → `_2ndFloorDevice`. It is
 * camelCase ASCII ending in the kind's word (so it always holds a capital letter and is never a keyword,
 * a global or one of the imported classes), with `_` only between digits or before a leading digit.
 */
function identifier(name: string, kind: ExportedResource["kind"]): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((w) => w !== "");
  let camel = "";
  for (const [i, w] of words.entries()) {
    if (i === 0) camel = w.toLowerCase();
    else if (/[0-9]$/.test(camel) && /^[0-9]/.test(w)) camel += `_${w.toLowerCase()}`;
    else camel += w[0]!.toUpperCase() + w.slice(1).toLowerCase();
  }
  if (camel === "") camel = "unnamed";
  const suffix = SUFFIX[kind];
  // `home-server` → `homeServer`, not `homeServerServer`; `device` alone → `deviceDevice`.
  if (camel.length > suffix.length && camel.toLowerCase().endsWith(suffix.toLowerCase())) camel = camel.slice(0, -suffix.length);
  const v = `${camel}${suffix}`;
  return /^[0-9]/.test(v) ? `_${v}` : v;
}

/**
 * Reads the account: DNS servers (the default one first, each read by itself: the service lists servers
 * with their user rules empty), devices, dedicated IPv4 addresses.
 *
 * @example
 * ```ts
 * const resources = await exportAccount(client);
 * console.log(bulkImportFile(resources));
 * ```
 */
export async function exportAccount(client: Client): Promise<ExportedResource[]> {
  const [listedAll, devicesAll, addressesAll] = await Promise.all([client.dnsServers.list(), client.devices.list(), client.dedicatedIpv4.list()]);
  // An object listed twice (pages that overlap while the account changes, or a hostile service) is
  // exported once: two resources managing one object would undo each other's changes.
  const listed = once(listedAll, (s) => s.id);
  const devices = once(devicesAll, (d) => d.id);
  const addresses = once(addressesAll, (a) => a.ip);
  const servers = await mapLimited(listed, 4, (s) => client.dnsServers.get(s.id));
  const uniqueName = uniqueNamer((name, i) => `${name}-${i}`);
  // Identifiers are unique ignoring case: a language that changes case (Python's snake_case) keeps them apart.
  const uniqueVariable = uniqueNamer((v, i) => `${v}${i}`, (v) => v.toLowerCase());
  const named = (raw: string, fallback: string, kind: ExportedResource["kind"]) => {
    const name = uniqueName(resourceName(raw, fallback));
    return { name, variable: uniqueVariable(identifier(name, kind)) };
  };
  const out: ExportedResource[] = [];
  const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const s of byId(servers).sort((a, b) => Number(b.default) - Number(a.default))) {
    out.push({ kind: "DnsServer", ...named(s.name, "dns-server", "DnsServer"), id: s.id, isDefault: s.default, inputs: serverInputs(s) });
  }
  for (const d of byId(devices)) out.push({ kind: "Device", ...named(d.name, "device", "Device"), id: d.id, inputs: deviceInputs(d) });
  for (const a of [...addresses].sort((x, y) => (x.ip < y.ip ? -1 : 1))) {
    out.push({ kind: "DedicatedIpv4", ...named(`ip-${a.ip}`, "dedicated-ipv4", "DedicatedIpv4"), id: a.ip, inputs: addressInputs(a) });
  }
  return out;
}

/** The first item of each key, in order. */
function once<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
  }
  return out;
}

/** `fn` over `items`, at most `limit` at a time, results in order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The Pulumi bulk-import file of an export (`pulumi import --file`): `logicalName` is the resource name,
 * `name` the identifier Pulumi's code generator names the variable after (unique in every language).
 *
 * @example
 * ```ts
 * bulkImportFile(resources); // '{"resources":[{"type":"dns-account:index:DnsServer","name":"homeServer","logicalName":"home","id":"…"}]}'
 * ```
 */
export function bulkImportFile(resources: readonly ExportedResource[]): string {
  const entries = resources.map((r) => ({ type: `dns-account:index:${r.kind}`, name: r.variable, logicalName: r.name, id: r.id }));
  return `${JSON.stringify({ resources: entries }, null, 2)}\n`;
}

/** A value as TypeScript source (object keys unquoted where they are identifiers), indented. */
function literal(value: unknown, indent: string): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${literal(v, inner)},`).join("\n")}\n${indent}]`;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const key = (k: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : JSON.stringify(k));
    return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${literal(v, inner)},`).join("\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/**
 * A TypeScript program of the dynamic resources that adopts every exported object with the inputs that
 * describe it, as a hand-written program would: a resource another one refers to is a `const` (a
 * device's `dnsServerId` is its server's `serverId`), the others are plain statements, and nothing is a
 * stack output.
 *
 * @example
 * ```ts
 * writeFileSync("index.ts", typescriptProgram(await exportAccount(client)));
 * ```
 */
export function typescriptProgram(resources: readonly ExportedResource[]): string {
  const variables = new Map<string, string>();
  const referenced = new Set<string>();
  for (const r of resources) {
    if (r.kind === "Device" && r.inputs.dnsServerId !== undefined) referenced.add(`DnsServer:${r.inputs.dnsServerId}`);
    if (r.kind === "DedicatedIpv4" && r.inputs.deviceId !== undefined) referenced.add(`Device:${r.inputs.deviceId}`);
  }
  /** A reference to another exported resource's output, or the plain id when it is not exported. */
  const ref = (kind: string, id: string, output: string) => {
    const v = variables.get(`${kind}:${id}`);
    return v ? `${v}.${output}` : JSON.stringify(id);
  };
  const kinds = new Set(resources.map((r) => r.kind));
  const lines: string[] = [
    `// Made by dns-account export --format typescript: the account as it was, adopted by the program.`,
    `// The next pulumi up changes nothing; change a value here and up applies it.`,
  ];
  if (kinds.size > 0) lines.push(`import { ${(["DnsServer", "Device", "DedicatedIpv4"] as const).filter((k) => kinds.has(k)).join(", ")} } from "pulumi-dns-account";`);
  lines.push("");
  for (const r of resources) {
    const key = `${r.kind}:${r.id}`;
    const declare = referenced.has(key) ? `const ${r.variable} = ` : "";
    if (declare) variables.set(key, r.variable);
    const args: string[] = [`  adopt: ${JSON.stringify(r.kind === "DnsServer" && r.isDefault ? "default" : r.id)},`];
    if (r.kind === "DnsServer") {
      args.push(`  name: ${JSON.stringify(r.inputs.name)},`);
      args.push(`  settings: ${literal(r.inputs.settings ?? {}, "  ")},`);
    } else if (r.kind === "Device") {
      args.push(`  name: ${JSON.stringify(r.inputs.name)},`);
      args.push(`  deviceType: ${JSON.stringify(r.inputs.deviceType)},`);
      if (r.inputs.dnsServerId !== undefined) args.push(`  dnsServerId: ${ref("DnsServer", r.inputs.dnsServerId, "serverId")},`);
      args.push(`  settings: ${literal(r.inputs.settings ?? {}, "  ")},`);
    } else if (r.inputs.deviceId !== undefined) {
      args.push(`  deviceId: ${ref("Device", r.inputs.deviceId, "deviceId")},`);
    }
    lines.push(`${declare}new ${r.kind}(${JSON.stringify(r.name)}, {`, ...args, `});`, "");
  }
  return lines.join("\n");
}
