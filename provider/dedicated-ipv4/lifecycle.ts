import type { CheckResult, CreateResult, DiffResult, Failure, ProviderContext, ReadResult, UpdateResult } from "../shared/lifecycle";
import type { Client } from "../../sdk/client/client";
import { accountClient, serviceChecks } from "../shared/account-client";
import { explain, explainWithQuota, initFailed, isNotFound } from "../shared/explain";
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
  failures.push(...(await serviceChecks(ctx, news, failures.length > 0, { what: "dedicated IPv4 address", exists: async (client, ip) => Boolean(await find(client, ip)) })));
  return failures.length ? { inputs: news, failures } : { inputs: news };
}

/** A change of `deviceId` links or unlinks in place; only a change of `adopt` replaces. */
export async function diff(_ctx: ProviderContext, _id: string, olds: DedicatedIpv4Outputs, news: DedicatedIpv4Inputs): Promise<DiffResult> {
  const replaces = (news.adopt ?? undefined) !== (olds.adopt ?? undefined) ? ["adopt"] : [];
  const changes = replaces.length > 0 || (news.deviceId ?? undefined) !== (olds.deviceId ?? undefined);
  return { changes, replaces, deleteBeforeReplace: false };
}

/** Allocates an address (or adopts one) and links it to `deviceId`. */
export async function create(ctx: ProviderContext, inputs: DedicatedIpv4Inputs): Promise<CreateResult<DedicatedIpv4Outputs>> {
  let client: Client;
  let ip: string;
  let linked: string | undefined;
  try {
    client = await accountClient(ctx, inputs.credentials);
  } catch (err) {
    throw explain("Allocating a dedicated IPv4 address failed", err);
  }
  try {
    if (inputs.adopt !== undefined) {
      const found = await find(client, inputs.adopt);
      if (!found) throw new Error("adopt names no dedicated IPv4 address of this account");
      ip = found.ip;
      linked = found.device_id || undefined;
    } else {
      ip = (await client.dedicatedIpv4.allocate()).ip;
    }
  } catch (err) {
    throw await explainWithQuota(inputs.adopt !== undefined ? "Adopting the dedicated IPv4 address failed" : "Allocating a dedicated IPv4 address failed", err, client);
  }
  const base = { ip, ...(inputs.adopt !== undefined ? { adopt: inputs.adopt } : {}), ...(inputs.credentials !== undefined ? { credentials: inputs.credentials } : {}) };
  try {
    linked = await relink(client, ip, linked, inputs.deviceId);
  } catch (err) {
    // The address exists and cannot be released: record it, unlinked, so the next `up` links it.
    throw initFailed("Linking the dedicated IPv4 address failed", err, ip, { ...base, ...(linked ? { deviceId: linked } : {}) });
  }
  return { id: ip, outs: { ...base, ...(linked ? { deviceId: linked } : {}) } };
}

/** Refresh: the address and the device it is linked to now; an address the account no longer has is gone. */
export async function read(ctx: ProviderContext, id: string, props: DedicatedIpv4Outputs): Promise<ReadResult<DedicatedIpv4Outputs, DedicatedIpv4Inputs>> {
  try {
    const client = await accountClient(ctx, props.credentials);
    const found = await find(client, props.ip ?? id);
    if (!found) return {};
    const { deviceId: _d, ...rest } = props;
    return { id, props: { ...rest, ip: found.ip, ...(found.device_id ? { deviceId: found.device_id } : {}) } };
  } catch (err) {
    throw explain("Reading the dedicated IPv4 address failed", err);
  }
}

/** Links to the new device, unlinking from the old one first. */
export async function update(ctx: ProviderContext, _id: string, olds: DedicatedIpv4Outputs, news: DedicatedIpv4Inputs): Promise<UpdateResult<DedicatedIpv4Outputs>> {
  try {
    const client = await accountClient(ctx, news.credentials ?? olds.credentials);
    const linked = await relink(client, olds.ip, olds.deviceId, news.deviceId);
    const { deviceId: _d, credentials: _c, ...rest } = olds;
    return { outs: { ...rest, ...(linked ? { deviceId: linked } : {}), ...(news.credentials !== undefined ? { credentials: news.credentials } : {}) } };
  } catch (err) {
    throw explain("Linking the dedicated IPv4 address failed", err);
  }
}

/** Unlinks the address and leaves it allocated: the service cannot release it. */
export async function remove(ctx: ProviderContext, _id: string, props: DedicatedIpv4Outputs): Promise<void> {
  try {
    if (props.deviceId) {
      const client = await accountClient(ctx, props.credentials);
      await client.devices.unlinkDedicatedIpv4(props.deviceId, props.ip).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    }
    ctx.warn(KEPT_WARNING);
  } catch (err) {
    throw explain("Unlinking the dedicated IPv4 address failed", err);
  }
}

async function find(client: Client, ip: string): Promise<{ ip: string; device_id?: string } | undefined> {
  return (await client.dedicatedIpv4.list()).find((a) => a.ip === ip);
}

async function relink(client: Client, ip: string, from: string | undefined, to: string | undefined): Promise<string | undefined> {
  if (from === to) return to;
  if (from) {
    await client.devices.unlinkDedicatedIpv4(from, ip).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }
  if (to) await client.devices.linkDedicatedIpv4(to, ip);
  return to;
}
