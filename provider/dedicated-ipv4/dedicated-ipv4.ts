import * as pulumi from "@pulumi/pulumi";
import provider = require("./provider");
import type { DedicatedIpv4Args } from "./types";

/**
 * A dedicated IPv4 address of the account, optionally linked to a device. The service has no release
 * operation: destroying the resource unlinks the address and leaves it allocated to the account (it
 * still counts against the `dedicated_ipv4` limit); adopt it again with `adopt: "<ip>"`.
 *
 * @example
 * ```ts
 * const ip = new DedicatedIpv4("router", { deviceId: router.deviceId });
 * export const address = ip.ip;
 * ```
 */
export class DedicatedIpv4 extends pulumi.dynamic.Resource {
  /** The address. */
  declare public readonly ip: pulumi.Output<string>;
  /** The device it is linked to, if any. */
  declare public readonly deviceId: pulumi.Output<string | undefined>;

  constructor(name: string, args: DedicatedIpv4Args = {}, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      {
        deviceId: args.deviceId,
        adopt: args.adopt,
        credentials: args.credentials === undefined ? undefined : pulumi.secret(args.credentials),
        ip: undefined,
      },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: ["credentials"] }),
      "dns-account",
      "DedicatedIpv4",
    );
  }
}
