import * as pulumi from "@pulumi/pulumi";
import provider = require("./provider");
import type { DnsServerArgs, DnsServerSettings } from "./types";

/**
 * A DNS server of the account with its filtering settings. Only the settings you set are managed: an
 * unset one stays as the service has it; a managed one changed in the dashboard shows as drift on
 * `pulumi refresh` and is put back by `pulumi up`. Name and settings change in place. Deleting it makes
 * the service move its devices to the default server.
 *
 * @example
 * ```ts
 * const home = new DnsServer("home", {
 *   name: "Home",
 *   settings: { blockedServices: ["tiktok"], userRules: { rules: ["||ads.example^"] } },
 * });
 * export const serverId = home.serverId;
 * ```
 */
export class DnsServer extends pulumi.dynamic.Resource {
  /** The service's id of the server. */
  declare public readonly serverId: pulumi.Output<string>;
  /** The server's name. */
  declare public readonly name: pulumi.Output<string>;
  /** True for the account's default server. */
  declare public readonly isDefault: pulumi.Output<boolean>;
  /** How many devices use the server. */
  declare public readonly devicesCount: pulumi.Output<number>;
  /** The managed settings as the service has them. */
  declare public readonly settings: pulumi.Output<DnsServerSettings | undefined>;
  /** Every setting as the service reports it. */
  declare public readonly effectiveSettings: pulumi.Output<DnsServerSettings>;
  /** Whether destroy keeps the server at the service: `deleteOnDestroy: false`, or adopted without `deleteOnDestroy: true`. */
  declare public readonly retainOnDestroy: pulumi.Output<boolean>;

  constructor(name: string, args: DnsServerArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      {
        name: args.name,
        settings: args.settings,
        adopt: args.adopt,
        deleteOnDestroy: args.deleteOnDestroy,
        credentials: args.credentials === undefined ? undefined : pulumi.secret(args.credentials),
        serverId: undefined,
        isDefault: undefined,
        devicesCount: undefined,
        effectiveSettings: undefined,
        retainOnDestroy: undefined,
      },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: ["credentials"] }),
      "dns-account",
      "DnsServer",
    );
  }
}
