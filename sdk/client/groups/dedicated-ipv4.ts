import { type DedicatedIPv4Address, dedicatedIPv4AddressListSchema, dedicatedIPv4AddressSchema } from "../model";
import { type ApiCore, withQuota } from "./shared";

/**
 * Dedicated IPv4 addresses of the account: list and allocate (link one to a device with
 * `client.devices.linkDedicatedIpv4`).
 *
 * @example
 * ```ts
 * const { ip } = await client.dedicatedIpv4.allocate();
 * await client.devices.linkDedicatedIpv4(deviceId, ip);
 * ```
 */
export interface DedicatedIpv4Api {
  list(): Promise<DedicatedIPv4Address[]>;
  /** Allocates a new address; a used-up quota is a `QuotaError` with `limit: "dedicated_ipv4"`. */
  allocate(): Promise<DedicatedIPv4Address>;
}

/** Builds the dedicated IPv4 group on a client core, e.g. `dedicatedIpv4Api(client).list()`. */
export function dedicatedIpv4Api(core: ApiCore): DedicatedIpv4Api {
  return {
    list: () => core.request({ path: "/dedicated_addresses/ipv4", schema: dedicatedIPv4AddressListSchema() }),
    allocate: () => withQuota("dedicated_ipv4", core.request({ method: "POST", path: "/dedicated_addresses/ipv4", schema: dedicatedIPv4AddressSchema() })),
  };
}
