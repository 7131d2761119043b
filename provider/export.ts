/**
 * From dashboard to code (`dns-account export`): every DNS server, device and dedicated IPv4 address of
 * an account, with readable unique names, as a Pulumi bulk-import file (for `pulumi import --file`, which
 * writes the program in any language through the plugin) or as a TypeScript program of the dynamic
 * resources that adopts them. The inputs are the ones an import's `read` returns, so both describe the
 * account exactly and the next `up` changes nothing.
 */
import type { Client } from "../sdk/client/client";
import { importInputs as addressInputs } from "./dedicated-ipv4/lifecycle";
import { importInputs as deviceInputs } from "./device/lifecycle";
import { importInputs as serverInputs } from "./dns-server/lifecycle";
import type { DedicatedIpv4Inputs, DeviceInputs, DnsServerInputs } from "./schema/types.generated";

/** One object of the account, ready to import. */
export type ExportedResource =
  | { kind: "DnsServer"; name: string; id: string; isDefault: boolean; inputs: DnsServerInputs }
  | { kind: "Device"; name: string; id: string; inputs: DeviceInputs }
  | { kind: "DedicatedIpv4"; name: string; id: string; inputs: DedicatedIpv4Inputs };

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

/** Names unique across the whole export: a second `phone` becomes `phone-2`. */
function uniqueNamer(): (name: string) => string {
  const used = new Set<string>();
  return (name) => {
    let candidate = name;
    for (let i = 2; used.has(candidate); i++) candidate = `${name}-${i}`;
    used.add(candidate);
    return candidate;
  };
}

/**
 * Reads the account: DNS servers (the default one first), devices, dedicated IPv4 addresses.
 *
 * @example
 * ```ts
 * const resources = await exportAccount(client);
 * console.log(bulkImportFile(resources));
 * ```
 */
export async function exportAccount(client: Client): Promise<ExportedResource[]> {
  const [servers, devices, addresses] = await Promise.all([client.dnsServers.list(), client.devices.list(), client.dedicatedIpv4.list()]);
  const unique = uniqueNamer();
  const out: ExportedResource[] = [];
  const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const sortedServers = byId(servers).sort((a, b) => Number(b.default) - Number(a.default));
  for (const s of sortedServers) {
    out.push({ kind: "DnsServer", name: unique(resourceName(s.name, "dns-server")), id: s.id, isDefault: s.default, inputs: serverInputs(s) });
  }
  for (const d of byId(devices)) out.push({ kind: "Device", name: unique(resourceName(d.name, "device")), id: d.id, inputs: deviceInputs(d) });
  for (const a of [...addresses].sort((x, y) => (x.ip < y.ip ? -1 : 1))) {
    out.push({ kind: "DedicatedIpv4", name: unique(resourceName(`ip-${a.ip}`, "dedicated-ipv4")), id: a.ip, inputs: addressInputs(a) });
  }
  return out;
}

/**
 * The Pulumi bulk-import file of an export (`pulumi import --file`).
 *
 * @example
 * ```ts
 * bulkImportFile(resources); // '{"resources":[{"type":"dns-account:index:DnsServer","name":"home","id":"…"}]}'
 * ```
 */
export function bulkImportFile(resources: readonly ExportedResource[]): string {
  return `${JSON.stringify({ resources: resources.map((r) => ({ type: `dns-account:index:${r.kind}`, name: r.name, id: r.id })) }, null, 2)}\n`;
}

const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await".split(" "),
);

/** A TypeScript variable name for a resource name and kind: `kids-room` Device → `kidsRoomDevice`. */
function variableName(name: string, kind: string): string {
  const camel = name.replace(/[-_.]+([a-z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, "");
  const suffix = kind === "DnsServer" ? "Server" : kind === "Device" ? "Device" : "Address";
  const v = `${camel}${camel.endsWith(suffix) ? "" : suffix}`;
  return /^[0-9]/.test(v) || RESERVED.has(v) ? `_${v}` : v;
}

/** A value as TypeScript source, indented. */
function literal(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`).replace(/"([A-Za-z_$][A-Za-z0-9_$]*)":/g, "$1:");
}

/**
 * A TypeScript program of the dynamic resources that adopts every exported object with the inputs that
 * describe it, references between them as Outputs (a device's `dnsServerId` is its server's `serverId`).
 *
 * @example
 * ```ts
 * writeFileSync("index.ts", typescriptProgram(await exportAccount(client)));
 * ```
 */
export function typescriptProgram(resources: readonly ExportedResource[]): string {
  const servers = new Map<string, string>();
  const devices = new Map<string, string>();
  const lines: string[] = [];
  const kinds = new Set(resources.map((r) => r.kind));
  lines.push(`// Made by dns-account export --format typescript: the account as it was, adopted by the program.`);
  lines.push(`// The next pulumi up changes nothing; change a value here and up applies it.`);
  lines.push(`import { ${["DnsServer", "Device", "DedicatedIpv4"].filter((k) => kinds.has(k as ExportedResource["kind"])).join(", ")} } from "pulumi-dns-account";`);
  lines.push("");
  for (const r of resources) {
    const v = variableName(r.name, r.kind);
    if (r.kind === "DnsServer") {
      servers.set(r.id, v);
      lines.push(`export const ${v} = new DnsServer(${JSON.stringify(r.name)}, {`);
      lines.push(`  adopt: ${JSON.stringify(r.isDefault ? "default" : r.id)},`);
      lines.push(`  name: ${JSON.stringify(r.inputs.name)},`);
      lines.push(`  settings: ${literal(r.inputs.settings ?? {}, "  ")},`);
      lines.push(`});`);
    } else if (r.kind === "Device") {
      devices.set(r.id, v);
      const server = r.inputs.dnsServerId !== undefined ? servers.get(r.inputs.dnsServerId) : undefined;
      lines.push(`export const ${v} = new Device(${JSON.stringify(r.name)}, {`);
      lines.push(`  adopt: ${JSON.stringify(r.id)},`);
      lines.push(`  name: ${JSON.stringify(r.inputs.name)},`);
      lines.push(`  deviceType: ${JSON.stringify(r.inputs.deviceType)},`);
      lines.push(`  dnsServerId: ${server ? `${server}.serverId` : JSON.stringify(r.inputs.dnsServerId)},`);
      lines.push(`  settings: ${literal(r.inputs.settings ?? {}, "  ")},`);
      lines.push(`});`);
    } else {
      const device = r.inputs.deviceId !== undefined ? devices.get(r.inputs.deviceId) : undefined;
      lines.push(`export const ${v} = new DedicatedIpv4(${JSON.stringify(r.name)}, {`);
      lines.push(`  adopt: ${JSON.stringify(r.id)},`);
      if (r.inputs.deviceId !== undefined) lines.push(`  deviceId: ${device ? `${device}.deviceId` : JSON.stringify(r.inputs.deviceId)},`);
      lines.push(`});`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
