import type * as pulumi from "@pulumi/pulumi";
import type { ResourceCredentials } from "../shared/account-client";

/** The service's device types (`device_type`). */
export const DEVICE_TYPES = ["WINDOWS", "ANDROID", "MAC", "IOS", "LINUX", "ROUTER", "SMART_TV", "GAME_CONSOLE", "UNKNOWN"] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** Declared device settings (`settings` of the service); only what is set is managed. */
export interface DeviceSettingsArgs {
  /** `protection_enabled`. */
  protectionEnabled?: boolean;
  /** `detect_doh_auth_only`. */
  detectDohAuthOnly?: boolean;
}

/**
 * Arguments of a {@link Device}.
 *
 * @example
 * ```ts
 * new Device("laptop", { name: "Laptop", deviceType: "MAC", dnsServerId: home.serverId });
 * ```
 */
export interface DeviceArgs {
  /** `name` (1–64 characters). Required unless adopting; a change is an update. */
  name?: pulumi.Input<string>;
  /** `device_type`. Required unless adopting; a change is an update. */
  deviceType?: pulumi.Input<DeviceType>;
  /** `dns_server_id`: the DNS server the device uses. Required unless adopting; a change moves the device (an update). */
  dnsServerId?: pulumi.Input<string>;
  /** Device settings to manage. */
  settings?: pulumi.Input<DeviceSettingsArgs>;
  /** Any change resets the device's DoH password (in place). */
  dohPasswordKeepers?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Take over an existing device by id. */
  adopt?: pulumi.Input<string>;
  /** Delete an adopted device on destroy (default false: the program forgets it). */
  deleteOnDestroy?: pulumi.Input<boolean>;
  /** Credentials for this resource (a Token's `{ baseUrl, refreshToken }` or `{ apiKey }`); kept as a secret. */
  credentials?: pulumi.Input<ResourceCredentials>;
}

/** Inputs as the provider receives them. */
export interface DeviceInputs {
  name?: string;
  deviceType?: DeviceType;
  dnsServerId?: string;
  settings?: DeviceSettingsArgs;
  dohPasswordKeepers?: Record<string, string>;
  adopt?: string;
  deleteOnDestroy?: boolean;
  credentials?: ResourceCredentials;
}

/** State of a Device. `dnsAddressesWithAuth` and `credentials` are secrets. */
export interface DeviceOutputs {
  /** The service's `id`. */
  deviceId: string;
  name: string;
  deviceType: DeviceType;
  dnsServerId: string;
  /** The managed settings as the service has them. */
  settings?: DeviceSettingsArgs;
  /** The device's plain addresses (`dns_addresses` without the `*_with_auth_url` ones), by service field name. */
  dnsAddresses: Record<string, string>;
  /** The `*_with_auth_url` addresses: they embed the DoH password (secret). */
  dnsAddressesWithAuth: Record<string, string>;
  /** Dedicated IPv4 addresses linked to the device. */
  linkedIpv4: string[];
  dohPasswordKeepers?: Record<string, string>;
  adopt?: string;
  deleteOnDestroy: boolean;
  credentials?: ResourceCredentials;
}
