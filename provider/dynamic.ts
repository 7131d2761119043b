/**
 * The dynamic provider's faces of every resource, in one module: the entry of the dynamic bundle
 * (`dynamic.bundle.js`, scripts/bundle.mjs), which each resource's `provider.ts` loads on its first call
 * in the dynamic-provider host. Each face loads its lifecycle on first use; the stack config they share
 * is this bundle's (one per process).
 */
import { dynamicFace } from "./shared/dynamic-face";
import type { Lifecycle } from "./shared/lifecycle";
import type { TokenInputs, TokenOutputs } from "./token/types";
import type { DnsServerInputs, DnsServerOutputs } from "./dns-server/types";
import type { DeviceInputs, DeviceOutputs } from "./device/types";
import type { DedicatedIpv4Inputs, DedicatedIpv4Outputs } from "./dedicated-ipv4/types";

/** The Token's dynamic face. */
export const token = dynamicFace<TokenInputs, TokenOutputs>(() => require("./token/lifecycle") as Lifecycle<TokenInputs, TokenOutputs>);
/** The DnsServer's dynamic face. */
export const dnsServer = dynamicFace<DnsServerInputs, DnsServerOutputs>(() => require("./dns-server/lifecycle") as Lifecycle<DnsServerInputs, DnsServerOutputs>);
/** The Device's dynamic face. */
export const device = dynamicFace<DeviceInputs, DeviceOutputs>(() => require("./device/lifecycle") as Lifecycle<DeviceInputs, DeviceOutputs>);
/** The DedicatedIpv4's dynamic face. */
export const dedicatedIpv4 = dynamicFace<DedicatedIpv4Inputs, DedicatedIpv4Outputs>(() => require("./dedicated-ipv4/lifecycle") as Lifecycle<DedicatedIpv4Inputs, DedicatedIpv4Outputs>);

/**
 * Loads, without calling the service, what the first operation of any resource loads (every lifecycle,
 * the SDK client, the stack config): the build runs it before writing the bundle's code cache.
 *
 * @example
 * ```ts
 * warm(); // then script.createCachedData()
 * ```
 */
export function warm(): void {
  require("./shared/stack-config");
  require("./token/lifecycle");
  require("./dns-server/lifecycle");
  require("./device/lifecycle");
  require("./dedicated-ipv4/lifecycle");
}
