import type * as pulumi from "@pulumi/pulumi";
import type { ResourceCredentials } from "../shared/account-client";

/**
 * Arguments of a {@link DedicatedIpv4}.
 *
 * @example
 * ```ts
 * new DedicatedIpv4("office", { deviceId: router.deviceId });
 * ```
 */
export interface DedicatedIpv4Args {
  /** Link the address to this device (`device_id`); a change links or unlinks in place. */
  deviceId?: pulumi.Input<string>;
  /** Take over an address the account already has, by its IP. */
  adopt?: pulumi.Input<string>;
  /** Credentials for this resource (a Token's `{ baseUrl, refreshToken }` or `{ apiKey }`); kept as a secret. */
  credentials?: pulumi.Input<ResourceCredentials>;
}

/** Inputs as the provider receives them. */
export interface DedicatedIpv4Inputs {
  deviceId?: string;
  adopt?: string;
  credentials?: ResourceCredentials;
}

/** State of a DedicatedIpv4. */
export interface DedicatedIpv4Outputs {
  /** The address (`ip`). */
  ip: string;
  /** The device it is linked to, if any. */
  deviceId?: string;
  adopt?: string;
  /** For an adopted address: the device it was linked to when adopted (destroy links it back). */
  adoptedDeviceId?: string;
  /** Whether the resource manages the link: false only for an adopted address without `deviceId`. */
  linkManaged?: boolean;
  credentials?: ResourceCredentials;
}
