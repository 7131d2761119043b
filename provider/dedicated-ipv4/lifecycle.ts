import { isIPv4 } from "node:net";
import type { CheckResult, CreateResult, DiffResult, Failure, ProviderContext, ReadResult, UpdateResult } from "../shared/lifecycle";
import type { Client } from "../../sdk/client/client";
import { accountClient, credentialsChanged, serviceChecks, withCredentials } from "../shared/account-client";
import { explain, explainWithQuota, initFailed, isNotFound } from "../shared/explain";
import { KeptError, provenGone } from "../shared/gone";
import { isUnknown } from "../shared/unknown";
import type { DedicatedIpv4Inputs, DedicatedIpv4Outputs } from "./types";

/** Printed on delete: the service cannot release an address, so the quota does not come back. */
export const KEPT_WARNING =
  "DedicatedIpv4: the service has no release operation; the address was unlinked and stays allocated to the account (and counts against the dedicated_ipv4 limit)";

/** Validates inputs; an adopted address must be one the account has (when the service is reachable). */
export async function check(ctx: ProviderContext, _olds: DedicatedIpv4Inputs, news: DedicatedIpv4Inputs): Promise<CheckResult<DedicatedIpv4Inputs>> {
  const failures: Failure[] = [];
  for (const key of ["deviceId", "adopt"] as const) {
    const v = news[key];
    if (v !== undefined && !isUnknown(v) && (typeof v !== "string" || v === "")) failures.push({ property: key, reason: `${key} must be a non-empty string` });
  }
  if (typeof news.adopt === "string" && news.adopt !== "" && !isUnknown(news.adopt) && !isIPv4(news.adopt)) {
    failures.push({ property: "adopt", reason: "adopt must be the IPv4 address to take over (e.g. 203.0.113.7)" });
  }
  failures.push(...(await serviceChecks(ctx, news, failures.length > 0, { what: "dedicated IPv4 address", exists: async (client, ip) => Boolean(await find(client, ip)) })));
  return failures.length ? { inputs: news, failures } : { inputs: news };
}

/**
 * A change of `deviceId` links or unlinks in place; only a change of `adopt` replaces. An adopted address
 * whose `deviceId` is not declared keeps whatever link it has: it is not managed.
 */
export async function diff(_ctx: ProviderContext, _id: string, olds: DedicatedIpv4Outputs, news: DedicatedIpv4Inputs): Promise<DiffResult> {
  const replaces = (news.adopt ?? undefined) !== (olds.adopt ?? undefined) ? ["adopt"] : [];
  const changes = replaces.length > 0 || linkChanged(olds, news) || credentialsChanged(olds, news);
  return { changes, replaces, deleteBeforeReplace: false };
}

/** Whether the program manages the link and it differs from the state's. */
function linkChanged(olds: DedicatedIpv4Outputs, news: DedicatedIpv4Inputs): boolean {
  return linkManaged(news) && (news.deviceId ?? undefined) !== (olds.deviceId ?? undefined);
}

/** Whether the resource manages the address's link: always, except for an adopted address without `deviceId`. */
function linkManaged(inputs: DedicatedIpv4Inputs): boolean {
  return inputs.deviceId !== undefined || inputs.adopt === undefined;
}

/** Allocates an address (or adopts one) and links it to `deviceId`. */
export async function create(ctx: ProviderContext, inputs: DedicatedIpv4Inputs): Promise<CreateResult<DedicatedIpv4Outputs>> {
  let client: Client;
  let ip: string;
  let linked: string | undefined;
  let found: Address | undefined;
  try {
    client = await accountClient(ctx, inputs.credentials);
  } catch (err) {
    throw explain("Allocating a dedicated IPv4 address failed", err);
  }
  try {
    if (inputs.adopt !== undefined) {
      found = await find(client, inputs.adopt);
      if (!found) throw new Error("adopt names no dedicated IPv4 address of this account");
      ip = found.ip;
      linked = found.device_id || undefined;
    } else {
      ip = (await client.dedicatedIpv4.allocate()).ip;
    }
  } catch (err) {
    throw await explainWithQuota(inputs.adopt !== undefined ? "Adopting the dedicated IPv4 address failed" : "Allocating a dedicated IPv4 address failed", err, client);
  }
  const base = {
    ip,
    ...(inputs.adopt !== undefined ? { adopt: inputs.adopt } : {}),
    // Where an adopted address was linked when it was taken over: destroy puts it back, if the program
    // manages the link at all.
    ...(found?.device_id ? { adoptedDeviceId: found.device_id } : {}),
    linkManaged: linkManaged(inputs),
    ...(inputs.credentials !== undefined ? { credentials: inputs.credentials } : {}),
  };
  try {
    if (linkManaged(inputs)) linked = await relink(client, ip, linked, inputs.deviceId);
  } catch (err) {
    // The address exists and cannot be released: record it, as it is now, so the next `up` links it.
    throw initFailed("Linking the dedicated IPv4 address failed", err, ip, { ...base, ...(linked ? { deviceId: linked } : {}) });
  }
  return { id: ip, outs: { ...base, ...(linked ? { deviceId: linked } : {}) } };
}

/**
 * The inputs that describe an address as the service has it (an import, `dns-account export`): its link.
 *
 * @example
 * ```ts
 * importInputs({ ip: "203.0.113.7", device_id: "d1" }); // { deviceId: "d1" }
 * ```
 */
export function importInputs(address: { ip: string; device_id?: string | null }): DedicatedIpv4Inputs {
  return address.device_id ? { deviceId: address.device_id } : {};
}

/**
 * Refresh: the address and the device it is linked to now; an address the account's listing no longer
 * has is gone. With no state (an import), also the inputs that describe it (its link).
 */
export async function read(ctx: ProviderContext, id: string, props: DedicatedIpv4Outputs): Promise<ReadResult<DedicatedIpv4Outputs, DedicatedIpv4Inputs>> {
  try {
    const client = await accountClient(ctx, props.credentials);
    const found = await find(client, props.ip ?? id).catch((err: unknown) => {
      // The listing is the proof either way: a 404 for it (a wrong base URL, a gateway) proves nothing.
      if (isNotFound(err)) throw new KeptError(`the service at ${client.host} answered 404 for the account's dedicated addresses: this is no proof the address is gone; the state was kept`);
      throw err;
    });
    if (!found) return {};
    const { deviceId: _d, ...rest } = props;
    const outs = { ...rest, ip: found.ip, ...(found.device_id ? { deviceId: found.device_id } : {}) };
    if (props.ip === undefined) return { id: found.ip, props: outs, inputs: importInputs(found) };
    return { id, props: outs };
  } catch (err) {
    throw explain("Reading the dedicated IPv4 address failed", err);
  }
}

/** Links to the new device, unlinking from the old one first. */
export async function update(ctx: ProviderContext, _id: string, olds: DedicatedIpv4Outputs, news: DedicatedIpv4Inputs): Promise<UpdateResult<DedicatedIpv4Outputs>> {
  // Only the credentials changed (a rotated Token): record them; the service has nothing to change.
  if (!linkChanged(olds, news) && linkManaged(news) === (olds.linkManaged ?? true)) return { outs: withCredentials(olds, news) };
  try {
    const client = await accountClient(ctx, news.credentials ?? olds.credentials);
    const linked = linkManaged(news) ? await relink(client, olds.ip, olds.deviceId, news.deviceId) : olds.deviceId;
    const { deviceId: _d, credentials: _c, ...rest } = olds;
    return { outs: { ...rest, linkManaged: linkManaged(news), ...(linked ? { deviceId: linked } : {}), ...(news.credentials !== undefined ? { credentials: news.credentials } : {}) } };
  } catch (err) {
    throw explain("Linking the dedicated IPv4 address failed", err);
  }
}

/**
 * An address the program allocated is unlinked and stays allocated (the service cannot release it). An
 * adopted one is left as it was found: linked back to the device it had (or to none) when the program
 * managed its link, untouched when it did not.
 */
export async function remove(ctx: ProviderContext, _id: string, props: DedicatedIpv4Outputs): Promise<void> {
  const adopted = props.adopt !== undefined;
  const target = adopted ? props.adoptedDeviceId : undefined;
  try {
    if ((!adopted || props.linkManaged !== false) && (props.deviceId ?? undefined) !== target) {
      const client = await accountClient(ctx, props.credentials);
      const now = await relink(client, props.ip, props.deviceId, target, true);
      if (now !== target) ctx.warn(`DedicatedIpv4: the device the address was linked to when it was adopted no longer exists; the address was left unlinked`);
    }
    if (props.adopt === undefined) ctx.warn(KEPT_WARNING);
  } catch (err) {
    throw explain(props.adopt !== undefined ? "Restoring the adopted dedicated IPv4 address failed" : "Unlinking the dedicated IPv4 address failed", err);
  }
}

type Address = { ip: string; device_id?: string };

async function find(client: Client, ip: string): Promise<Address | undefined> {
  return (await client.dedicatedIpv4.list()).find((a) => a.ip === ip);
}

/**
 * Moves the address's link from `from` to `to`. A 404 from the unlink counts only when the address's
 * listing shows it is no longer linked to `from`; with `tolerateGoneTarget`, a 404 from linking to a
 * device the account provably no longer has leaves the address unlinked. Returns the link now.
 */
async function relink(client: Client, ip: string, from: string | undefined, to: string | undefined, tolerateGoneTarget = false): Promise<string | undefined> {
  if (from === to) return to;
  if (from) {
    try {
      await client.devices.unlinkDedicatedIpv4(from, ip);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const live = await find(client, ip).catch(() => {
        throw new KeptError(`the service at ${client.host} answered 404 for unlinking the address, and the account's addresses could not be read to confirm it is unlinked: a wrong base URL, a gateway or a proxy answers like that; the state was kept`);
      });
      if (live?.device_id === from) throw new KeptError(`the service at ${client.host} answered 404 for unlinking the address but still lists it as linked; the state was kept`);
    }
  }
  if (to) {
    try {
      await client.devices.linkDedicatedIpv4(to, ip);
    } catch (err) {
      if (tolerateGoneTarget && (await provenGone(client, err, "device", to, async () => (await client.devices.list()).map((d) => d.id)))) return undefined;
      throw err;
    }
  }
  return to;
}
