import * as pulumi from "@pulumi/pulumi";
import provider = require("./provider");
import type { DeviceArgs, DeviceSettings } from "./types";
import type { DnsAddresses, DnsAddressesWithAuth } from "../schema/types.generated";

/**
 * A device of the account. Renaming it, changing its type or moving it to another DNS server is an update,
 * never a replacement; a change of `dohPasswordKeepers` resets its DoH password in place.
 * `dnsAddressesWithAuth` embeds the DoH password and is a secret.
 *
 * @example
 * ```ts
 * const laptop = new Device("laptop", { name: "Laptop", deviceType: "MAC", dnsServerId: home.serverId });
 * export const doh = laptop.dnsAddresses.apply((a) => a.dnsOverHttpsUrl);
 * ```
 */
export class Device extends pulumi.dynamic.Resource {
  /** The service's id of the device. */
  declare public readonly deviceId: pulumi.Output<string>;
  declare public readonly name: pulumi.Output<string>;
  declare public readonly deviceType: pulumi.Output<string>;
  declare public readonly dnsServerId: pulumi.Output<string>;
  /** The managed settings as the service has them. */
  declare public readonly settings: pulumi.Output<DeviceSettings | undefined>;
  /** Plain DNS addresses by kind, camelCase (`dnsOverHttpsUrl`, `dnsOverTlsUrl`, `dnsOverQuicUrl`). */
  declare public readonly dnsAddresses: pulumi.Output<DnsAddresses>;
  /** The addresses that embed the DoH password (`dnsOverHttpsWithAuthUrl`, …; secret). */
  declare public readonly dnsAddressesWithAuth: pulumi.Output<DnsAddressesWithAuth>;
  /** Dedicated IPv4 addresses linked to the device. */
  declare public readonly linkedIpv4: pulumi.Output<string[]>;
  /** Whether destroy keeps the device at the service: `deleteOnDestroy: false`, or adopted without `deleteOnDestroy: true`. */
  declare public readonly retainOnDestroy: pulumi.Output<boolean>;

  constructor(name: string, args: DeviceArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      {
        name: args.name,
        deviceType: args.deviceType,
        dnsServerId: args.dnsServerId,
        settings: args.settings,
        dohPasswordKeepers: args.dohPasswordKeepers,
        adopt: args.adopt,
        deleteOnDestroy: args.deleteOnDestroy,
        credentials: args.credentials === undefined ? undefined : pulumi.secret(args.credentials),
        deviceId: undefined,
        dnsAddresses: undefined,
        dnsAddressesWithAuth: undefined,
        linkedIpv4: undefined,
        retainOnDestroy: undefined,
      },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: ["dnsAddressesWithAuth", "credentials"] }),
      "dns-account",
      "Device",
    );
  }
}
