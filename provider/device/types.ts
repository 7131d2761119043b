/**
 * A Device's arguments, inputs and state: generated from the package schema
 * (`provider/schema/schema.json`), which the plugin serves, so both faces agree.
 *
 * @example
 * ```ts
 * const args: DeviceArgs = { name: "Laptop", deviceType: "MAC", dnsServerId: home.serverId };
 * ```
 */
export type { DeviceArgs, DeviceInputs, DeviceOutputs, DeviceSettings, DeviceSettingsArgs, DeviceType } from "../schema/types.generated";
export { DeviceTypeValues as DEVICE_TYPES } from "../schema/types.generated";
