import { isDeepStrictEqual } from "node:util";
import { type CheckResult, type CreateResult, type DiffResult, type Failure, ID_IN_YAML, type ProviderContext, type ReadResult, type UpdateResult } from "../shared/lifecycle";
import { type Client, writesSoFar } from "../../sdk/client/client";
import { accountClient, credentialsChanged, serviceChecks, withCredentials } from "../shared/account-client";
import { explain as explainAs, explainWithQuota, initFailed } from "../shared/explain";
import { provenGone } from "../shared/gone";
import { destroyFields, destroyFieldsOf, destroyRuleChanged, keptWords, retainedBy } from "../shared/retain";
import { isUnknown } from "../shared/unknown";
import type { DnsAddresses, DnsAddressesWithAuth } from "../schema/types.generated";
import { DEVICE_TYPES, type DeviceInputs, type DeviceOutputs, type DeviceSettings, type DeviceType } from "./types";

type Json = Record<string, unknown>;

/** The program's name of a service field of a device, as errors name it (`device_type` → `deviceType`). */
function programField(serviceField: string): string | undefined {
  const top: Record<string, string> = { name: "name", device_type: "deviceType", dns_server_id: "dnsServerId" };
  if (top[serviceField]) return top[serviceField];
  const setting = SETTINGS.find(([, field]) => serviceField === field || serviceField === `settings.${field}`);
  return setting ? `settings.${setting[0]}` : undefined;
}

/** Errors in the program's names. */
const explain = (action: string, err: unknown, hint?: string): Error => explainAs(action, err, hint, programField);

const SETTINGS: [keyof DeviceSettings, string][] = [
  ["protectionEnabled", "protection_enabled"],
  ["detectDohAuthOnly", "detect_doh_auth_only"],
];

/** Validates inputs; values unknown during preview are accepted. */
export async function check(ctx: ProviderContext, _olds: DeviceInputs, news: DeviceInputs): Promise<CheckResult<DeviceInputs>> {
  const failures: Failure[] = [];
  const adopting = news.adopt !== undefined;
  const required = (property: "name" | "deviceType" | "dnsServerId") => {
    if (news[property] === undefined && !adopting) failures.push({ property, reason: `${property} is required (or adopt an existing device)` });
  };
  required("name");
  required("deviceType");
  required("dnsServerId");
  const { name, deviceType, dnsServerId, settings, dohPasswordKeepers } = news;
  if (name !== undefined && !isUnknown(name) && (typeof name !== "string" || name.length < 1 || name.length > 64)) {
    failures.push({ property: "name", reason: "name must be 1 to 64 characters" });
  }
  if (deviceType !== undefined && !isUnknown(deviceType) && !(DEVICE_TYPES as readonly unknown[]).includes(deviceType)) {
    failures.push({ property: "deviceType", reason: `deviceType must be one of ${DEVICE_TYPES.join(", ")}` });
  }
  if (news.adopt !== undefined && !isUnknown(news.adopt) && (typeof news.adopt !== "string" || news.adopt === "")) {
    failures.push({ property: "adopt", reason: `adopt must be a device id, a string${ID_IN_YAML}` });
  }
  if (dnsServerId !== undefined && !isUnknown(dnsServerId) && (typeof dnsServerId !== "string" || dnsServerId === "")) {
    failures.push({ property: "dnsServerId", reason: "dnsServerId must be a DNS server id" });
  }
  if (settings !== undefined && !isUnknown(settings)) {
    if (typeof settings !== "object" || settings === null || Array.isArray(settings)) failures.push({ property: "settings", reason: "settings must be an object" });
    else {
      for (const key of Object.keys(settings)) {
        const v = (settings as Json)[key];
        if (!SETTINGS.some(([k]) => k === key)) failures.push({ property: `settings.${key}`, reason: `settings.${key} is not a device setting` });
        else if (!isUnknown(v) && typeof v !== "boolean") failures.push({ property: `settings.${key}`, reason: `settings.${key} must be true or false` });
      }
    }
  }
  if (news.deleteOnDestroy !== undefined && !isUnknown(news.deleteOnDestroy) && typeof news.deleteOnDestroy !== "boolean") {
    failures.push({ property: "deleteOnDestroy", reason: "deleteOnDestroy must be true or false" });
  }
  if (dohPasswordKeepers !== undefined && !isUnknown(dohPasswordKeepers) && (typeof dohPasswordKeepers !== "object" || dohPasswordKeepers === null || Array.isArray(dohPasswordKeepers))) {
    failures.push({ property: "dohPasswordKeepers", reason: "dohPasswordKeepers must be a map of strings" });
  }
  const exists = async (client: Client, id: string): Promise<boolean> => {
    try {
      await client.devices.get(id);
      return true;
    } catch (err) {
      if (await provenGone(client, err, "device", id, async () => (await client.devices.list()).map((d) => d.id))) return false;
      throw err;
    }
  };
  failures.push(...(await serviceChecks(ctx, news, failures.length > 0, { what: "device", exists })));
  return failures.length ? { inputs: news, failures } : { inputs: news };
}

/**
 * Name, type, server, settings and DoH password keepers change in place; only a change of `adopt`
 * replaces. New `credentials` (a rotated Token's) are an update too, one that calls nothing.
 */
export async function diff(_ctx: ProviderContext, _id: string, olds: DeviceOutputs, news: DeviceInputs): Promise<DiffResult> {
  const replaces = (news.adopt ?? undefined) !== (olds.adopt ?? undefined) ? ["adopt"] : [];
  const changed = changedFields(olds, news);
  if (credentialsChanged(olds, news)) changed.push("credentials");
  return { changes: replaces.length > 0 || changed.length > 0, replaces, deleteBeforeReplace: false };
}

/** The declared fields that differ from the state (`credentials` apart). */
function changedFields(olds: DeviceOutputs, news: DeviceInputs): string[] {
  const changed: string[] = [];
  for (const key of ["name", "deviceType", "dnsServerId"] as const) {
    if (news[key] !== undefined && news[key] !== olds[key]) changed.push(key);
  }
  if (news.settings !== undefined && settingsDrift(news.settings, olds.settings ?? {})) changed.push("settings");
  if (!isDeepStrictEqual(news.dohPasswordKeepers ?? {}, olds.dohPasswordKeepers ?? {})) changed.push("dohPasswordKeepers");
  if (destroyRuleChanged(olds, news)) changed.push("deleteOnDestroy");
  return changed;
}

/** Creates the device (or adopts one) and applies the declared fields and settings. */
export async function create(ctx: ProviderContext, inputs: DeviceInputs): Promise<CreateResult<DeviceOutputs>> {
  let client: Client;
  try {
    client = await accountClient(ctx, inputs.credentials);
  } catch (err) {
    throw explain("Creating the device failed", err);
  }
  if (inputs.adopt !== undefined) {
    try {
      const found = await client.devices.get(inputs.adopt);
      await apply(client, found.id, asOutputs(found), inputs);
      return { id: found.id, outs: await state(client, found.id, inputs) };
    } catch (err) {
      throw explain("Adopting the device failed", err);
    }
  }
  let created: LiveDevice;
  try {
    created = await client.devices.create({ name: inputs.name as string, device_type: inputs.deviceType as never, dns_server_id: inputs.dnsServerId as string });
  } catch (err) {
    throw await explainWithQuota("Creating the device failed", err, client, programField);
  }
  try {
    // A new device's state is the create response (it has no dedicated addresses yet), with the declared
    // settings once they are applied: nothing needs reading again.
    if (inputs.settings !== undefined && Object.keys(inputs.settings).length > 0) {
      await client.devices.updateSettings(created.id, toService(inputs.settings) as never);
      created = { ...created, settings: { ...created.settings, ...toService(inputs.settings) } };
    }
    return { id: created.id, outs: outputs(created, [], inputs), allSettings: { ...asOutputs(created).settings } };
  } catch (err) {
    // The engine records nothing for a failed create: do not leave a device no state knows about. If it
    // cannot be removed either, it is recorded (partial state) so the next `up` finishes the job.
    const removed = await client.devices.remove(created.id).then(
      () => true,
      () => false,
    );
    if (removed) throw explain("Configuring the new device failed", err);
    throw initFailed("Configuring the new device failed (and removing it failed too, so it is kept in state)", err, created.id, outputs(created, [], inputs), programField);
  }
}

/** A listing of the account's dedicated addresses, shared by the reads that follow it closely. */
interface Listing {
  /** {@link writesSoFar} when the listing began: any write of this process since makes it stale. */
  writes: number;
  /** When it began, and when a read last used it (ms). */
  startedAt: number;
  usedAt: number;
  /** Linked addresses by device id, in the order the service lists them. */
  byDevice: Promise<Map<string, string[]>>;
}

/** A listing serves reads that each follow the last within this many ms… */
export const LISTING_IDLE_MS = 2_000;
/** …for at most this long after it began. */
export const LISTING_MAX_MS = 30_000;

const listings = new WeakMap<Client, Listing>();

/**
 * The dedicated IPv4 addresses linked to a device, as `GET /devices/{id}/dedicated_addresses` gives
 * them, from one listing of the account's addresses (`GET /dedicated_addresses/ipv4`) shared by the
 * reads of a refresh: a refresh of N devices lists them once, not N times. A listing serves only reads
 * that follow it closely ({@link LISTING_IDLE_MS}, {@link LISTING_MAX_MS}) and none after any write
 * this process made (a link, an unlink, a delete…), so it never hides this process's own changes.
 * Without a usable listing (it failed, or writes kept finishing while two listings were on their way),
 * the device's own addresses are asked for.
 */
async function linkedAddresses(client: Client, id: string, again = false): Promise<{ ipv4: string[] }> {
  const now = Date.now();
  const writes = writesSoFar();
  let listing = listings.get(client);
  if (!listing || listing.writes !== writes || now - listing.usedAt > LISTING_IDLE_MS || now - listing.startedAt > LISTING_MAX_MS) {
    const byDevice = client.dedicatedIpv4.list().then((all) => {
      const map = new Map<string, string[]>();
      for (const a of all) if (a.device_id !== undefined && a.device_id !== null) map.set(a.device_id, [...(map.get(a.device_id) ?? []), a.ip]);
      return map;
    });
    listing = { writes, startedAt: now, usedAt: now, byDevice };
    listings.set(client, listing);
    const mine = listing;
    byDevice.catch(() => {
      if (listings.get(client) === mine) listings.delete(client);
    });
  }
  listing.usedAt = now;
  const byDevice = await listing.byDevice.catch(() => undefined);
  if (byDevice !== undefined) {
    // A write finished while the listing was on its way: it may predate the write, so list once more;
    // if writes keep coming, ask for the device's own addresses instead of listing for ever.
    if (writesSoFar() === listing.writes) return { ipv4: [...(byDevice.get(id) ?? [])] };
    if (!again) return linkedAddresses(client, id, true);
  }
  return (await client.devices.dedicatedAddresses(id)) as { ipv4: string[] };
}

/**
 * Refresh: what the service has now (a GET of the device, and the account's dedicated addresses listed
 * once for all the devices a refresh reads); a device deleted out of band is gone once the
 * account's listing proves it. With no state (an import), also the inputs that describe the device.
 */
export async function read(ctx: ProviderContext, id: string, props: DeviceOutputs): Promise<ReadResult<DeviceOutputs, DeviceInputs>> {
  try {
    const client = await accountClient(ctx, props.credentials);
    // The account's dedicated addresses are listed once for the reads of a refresh, alongside this GET.
    const addresses = linkedAddresses(client, id);
    addresses.catch(() => undefined); // awaited below, unless the device is gone
    let device: LiveDevice;
    try {
      device = await client.devices.get(id);
    } catch (err) {
      if (await provenGone(client, err, "device", id, async () => (await client.devices.list()).map((d) => d.id))) return {};
      throw err;
    }
    const dedicated = await addresses;
    if (props.deviceId === undefined) {
      // An import: the device's name, type, server and settings, as a program would declare them.
      const inputs = importInputs(device);
      return { id, props: outputs(device, linked(dedicated), inputs), inputs };
    }
    return { id, props: { ...outputs(device, linked(dedicated), props), ...destroyFieldsOf(props) } };
  } catch (err) {
    throw explain("Reading the device failed", err);
  }
}

/** Renames, retypes, moves, re-applies settings and resets the DoH password when its keepers change. */
export async function update(ctx: ProviderContext, id: string, olds: DeviceOutputs, news: DeviceInputs): Promise<UpdateResult<DeviceOutputs>> {
  // Only the credentials or what destroy does changed (a rotated Token, `deleteOnDestroy`): record them;
  // the service has nothing to change.
  if (changedFields(olds, news).every((f) => f === "deleteOnDestroy")) return { outs: { ...withCredentials(olds, news), ...destroyFields(news) } };
  try {
    const client = await accountClient(ctx, news.credentials ?? olds.credentials);
    await apply(client, id, olds, news);
    if (!isDeepStrictEqual(news.dohPasswordKeepers ?? {}, olds.dohPasswordKeepers ?? {})) await client.devices.resetDohPassword(id);
    return { outs: await state(client, id, news) };
  } catch (err) {
    throw explain("Updating the device failed", err);
  }
}

/**
 * Deletes the device, unless the state keeps it ({@link retainedBy}: `deleteOnDestroy: false`, or adopted
 * without `deleteOnDestroy: true`). Keeping a device the program created is said, never silent.
 */
export async function remove(ctx: ProviderContext, id: string, props: DeviceOutputs): Promise<void> {
  if (retainedBy(props)) {
    if (props.adopt === undefined) ctx.warn(keptWords("Device", id, ctx.words));
    return;
  }
  let client: Client | undefined;
  try {
    client = await accountClient(ctx, props.credentials);
    await client.devices.remove(id);
  } catch (err) {
    try {
      if (client && (await provenGone(client, err, "device", id, async () => (await client!.devices.list()).map((d) => d.id)))) return;
    } catch (kept) {
      throw explain("Deleting the device failed", kept);
    }
    throw explain("Deleting the device failed", err);
  }
}

async function apply(client: Client, id: string, current: Pick<DeviceOutputs, "name" | "deviceType" | "dnsServerId" | "settings">, inputs: DeviceInputs): Promise<void> {
  const body: Json = {};
  if (inputs.name !== undefined && inputs.name !== current.name) body.name = inputs.name;
  if (inputs.deviceType !== undefined && inputs.deviceType !== current.deviceType) body.device_type = inputs.deviceType;
  if (inputs.dnsServerId !== undefined && inputs.dnsServerId !== current.dnsServerId) body.dns_server_id = inputs.dnsServerId;
  if (Object.keys(body).length) await client.devices.update(id, body as never);
  if (inputs.settings !== undefined && settingsDrift(inputs.settings, current.settings ?? {})) {
    await client.devices.updateSettings(id, toService(inputs.settings) as never);
  }
}

function settingsDrift(declared: DeviceSettings, seen: DeviceSettings): boolean {
  return SETTINGS.some(([k]) => declared[k] !== undefined && declared[k] !== seen[k]);
}

function toService(declared: DeviceSettings): Json {
  const out: Json = {};
  for (const [k, field] of SETTINGS) if (declared[k] !== undefined) out[field] = declared[k];
  return out;
}

type LiveDevice = Awaited<ReturnType<Client["devices"]["get"]>>;

/**
 * The inputs that describe a device as the service has it (an import, `dns-account export`): its name,
 * type, DNS server and settings, as a program would declare them.
 *
 * @example
 * ```ts
 * const inputs = importInputs(await client.devices.get(id)); // { name, deviceType, dnsServerId, settings }
 * ```
 */
export function importInputs(device: LiveDevice): DeviceInputs {
  const base = asOutputs(device);
  return { name: base.name, deviceType: base.deviceType as DeviceType, dnsServerId: base.dnsServerId, settings: base.settings! };
}

function asOutputs(d: LiveDevice): Pick<DeviceOutputs, "name" | "deviceType" | "dnsServerId" | "settings"> {
  const s = (d.settings ?? {}) as Json;
  return {
    name: d.name,
    deviceType: d.device_type as DeviceOutputs["deviceType"],
    dnsServerId: d.dns_server_id,
    settings: { protectionEnabled: s.protection_enabled === true, detectDohAuthOnly: s.detect_doh_auth_only === true },
  };
}

/** The resource's state as the service has it now: the device and its linked dedicated IPv4s. */
async function state(client: Client, id: string, inputs: Omit<DeviceInputs, "deviceType">): Promise<DeviceOutputs> {
  const [device, dedicated] = await Promise.all([client.devices.get(id), client.devices.dedicatedAddresses(id)]);
  return outputs(device, linked(dedicated), inputs);
}

function linked(dedicated: unknown): string[] {
  return [...((dedicated as { ipv4?: string[] }).ipv4 ?? [])];
}

/** The fields of the schema's DnsAddresses (the compiler holds this list to the generated type). */
const ADDRESS_FIELDS: Record<keyof DnsAddresses, true> = {
  dnsOverHttpsUrl: true,
  dnsOverTlsUrl: true,
  dnsOverQuicUrl: true,
  adguardDnsOverHttpsUrl: true,
  adguardDnsOverTlsUrl: true,
  adguardDnsOverQuicUrl: true,
  adguardVpnDnsOverHttpsUrl: true,
  adguardVpnDnsOverTlsUrl: true,
  adguardVpnDnsOverQuicUrl: true,
};

/** The fields of the schema's DnsAddressesWithAuth (secret: they embed the DoH password). */
const WITH_AUTH_FIELDS: Record<keyof DnsAddressesWithAuth, true> = {
  dnsOverHttpsWithAuthUrl: true,
  adguardDnsOverHttpsWithAuthUrl: true,
  adguardVpnDnsOverHttpsWithAuthUrl: true,
};

const CAMEL = new Map<string, string>();
/**
 * An address's camelCase key, like every other output's: dns_over_https_url → dnsOverHttpsUrl. Kept per
 * process (a device read or written converts the same few keys again).
 */
function camelKey(k: string): string {
  let key = CAMEL.get(k);
  if (key === undefined) {
    key = k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    // Only the schema's fields are worth keeping: a key the service adds later is converted each time.
    if (Object.hasOwn(ADDRESS_FIELDS, key) || Object.hasOwn(WITH_AUTH_FIELDS, key)) CAMEL.set(k, key);
  }
  return key;
}

/** The resource's state from a device object: its addresses (with-auth ones apart) and its linked IPv4s. */
function outputs(device: LiveDevice, linkedIpv4: string[], inputs: Omit<DeviceInputs, "deviceType">): DeviceOutputs {
  const base = asOutputs(device);
  const plain: Record<string, string> = {};
  const withAuth: Record<string, string> = {};
  for (const [k, v] of Object.entries((device.dns_addresses ?? {}) as Json)) {
    if (typeof v !== "string") continue;
    // camelCase keys (camelKey). Only the schema's fields (DnsAddresses, DnsAddressesWithAuth): a kind of
    // address the service adds later is not kept.
    const key = camelKey(k);
    if (Object.hasOwn(ADDRESS_FIELDS, key)) plain[key] = v;
    else if (Object.hasOwn(WITH_AUTH_FIELDS, key)) withAuth[key] = v;
  }
  const managed: DeviceSettings = {};
  if (inputs.settings !== undefined) for (const [k] of SETTINGS) if (inputs.settings[k] !== undefined) managed[k] = base.settings?.[k] as boolean;
  return {
    deviceId: device.id,
    name: base.name,
    deviceType: base.deviceType,
    dnsServerId: base.dnsServerId,
    ...(inputs.settings !== undefined ? { settings: managed } : {}),
    dnsAddresses: plain,
    dnsAddressesWithAuth: withAuth,
    linkedIpv4,
    ...(inputs.dohPasswordKeepers !== undefined ? { dohPasswordKeepers: inputs.dohPasswordKeepers } : {}),
    ...(inputs.adopt !== undefined ? { adopt: inputs.adopt } : {}),
    ...destroyFields(inputs),
    ...(inputs.credentials !== undefined ? { credentials: inputs.credentials } : {}),
  };
}
