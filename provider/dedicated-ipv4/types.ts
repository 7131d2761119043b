/**
 * A DedicatedIpv4's arguments, inputs and state: generated from the package schema
 * (`provider/schema/schema.json`), which the plugin serves, so both faces agree.
 *
 * @example
 * ```ts
 * const args: DedicatedIpv4Args = { deviceId: router.deviceId };
 * ```
 */
export type { DedicatedIpv4Args, DedicatedIpv4Inputs, DedicatedIpv4Outputs } from "../schema/types.generated";
