import type * as pulumi from "@pulumi/pulumi";
import type { ResourceCredentials } from "../shared/account-client";
import type { DnsServerSettingsArgs } from "./settings";

export type { DnsServerSettingsArgs } from "./settings";

/**
 * Arguments of a {@link DnsServer}. Only the settings you set are managed; the rest stay as the service
 * has them.
 *
 * @example
 * ```ts
 * new DnsServer("home", { name: "Home", settings: { userRules: { rules: ["||ads.example^"] } } });
 * ```
 */
export interface DnsServerArgs {
  /** `name` (1–64 characters). Required unless adopting; a change is an update. */
  name?: pulumi.Input<string>;
  /** Settings to manage (`settings` of the service); a change is an update. */
  settings?: pulumi.Input<DnsServerSettingsArgs>;
  /** Take over an existing server by id, or `"default"` for the account's default server. */
  adopt?: pulumi.Input<string>;
  /** Delete an adopted server on destroy (default false: the program forgets it). Never the default server. */
  deleteOnDestroy?: pulumi.Input<boolean>;
  /** Credentials for this resource (a Token's `{ baseUrl, refreshToken }` or `{ apiKey }`); kept as a secret. */
  credentials?: pulumi.Input<ResourceCredentials>;
}

/** Inputs as the provider receives them. */
export interface DnsServerInputs {
  name?: string;
  settings?: DnsServerSettingsArgs;
  adopt?: string;
  deleteOnDestroy?: boolean;
  credentials?: ResourceCredentials;
}

/** State of a DnsServer. */
export interface DnsServerOutputs {
  /** The service's `id`. */
  serverId: string;
  /** `name`. */
  name: string;
  /** `default`: the account's default server (never deleted). */
  isDefault: boolean;
  /** `devices_count`. */
  devicesCount: number;
  /** The managed settings as the service has them (the declared fields only). */
  settings?: DnsServerSettingsArgs;
  /** Every setting as the service reports it. */
  effectiveSettings: DnsServerSettingsArgs;
  /** The id or `"default"` this resource adopted, if it did. */
  adopt?: string;
  /** Whether destroy deletes an adopted server. */
  deleteOnDestroy: boolean;
  /** Credentials given to the resource (secret). */
  credentials?: ResourceCredentials;
}
