import * as pulumi from "@pulumi/pulumi";
import type { Client } from "../../sdk/client/client";
import { getClient } from "../program";
import provider = require("./provider");
import type { TokenArgs } from "./types";

function secret(value: pulumi.Input<string> | undefined): pulumi.Output<string> | undefined {
  return value === undefined ? undefined : pulumi.secret(value);
}

/**
 * An access token and refresh token of the Account API, as a Pulumi resource. Rotate it by replacing it:
 * change `keepers`, or set `rotationPeriodSeconds` (password logins only; a two-factor account needs a
 * fresh `dns-account:mfaToken` for each replacement). The replacement is created before the old refresh
 * token is revoked. `pulumi up` renews the access token (an update) once it is within
 * `renewBeforeSeconds` of expiry.
 *
 * @example
 * ```ts
 * const token = new Token("ci", { keepers: { quarter: "2026-Q4" } });
 * export const accessToken = token.accessToken; // a secret
 * ```
 */
export class Token extends pulumi.dynamic.Resource {
  /** Short-lived credential for API calls (secret). */
  declare public readonly accessToken: pulumi.Output<string>;
  /** Long-lived credential of this resource (secret). */
  declare public readonly refreshToken: pulumi.Output<string>;
  /** Always `bearer`. */
  declare public readonly tokenType: pulumi.Output<string>;
  /** When the access token expires (ISO-8601). */
  declare public readonly expiresAt: pulumi.Output<string>;
  /** When this resource's credential was issued (ISO-8601). */
  declare public readonly issuedAt: pulumi.Output<string>;
  /** When the current access token was obtained (ISO-8601). */
  declare public readonly renewedAt: pulumi.Output<string>;
  /** The base URL in use. */
  declare public readonly baseUrl: pulumi.Output<string>;
  /** The account, when logged in by password. */
  declare public readonly username: pulumi.Output<string | undefined>;
  /** `password` or `refreshToken` (adopted). */
  declare public readonly mode: pulumi.Output<string>;

  constructor(name: string, args: TokenArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      {
        baseUrl: args.baseUrl,
        username: args.username,
        password: secret(args.password),
        mfaToken: secret(args.mfaToken),
        refreshToken: secret(args.refreshToken),
        profile: args.profile,
        credentialCommand: args.credentialCommand,
        keepers: args.keepers,
        rotationPeriodSeconds: args.rotationPeriodSeconds,
        renewBeforeSeconds: args.renewBeforeSeconds,
        revokeOnDelete: args.revokeOnDelete,
        accessToken: undefined,
        tokenType: undefined,
        expiresAt: undefined,
        issuedAt: undefined,
        renewedAt: undefined,
        mode: undefined,
      },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: ["accessToken", "refreshToken"] }),
      "dns-account",
      "Token",
    );
  }

  /**
   * A configured API client that uses this token's refresh token (one shared session per process).
   *
   * @example
   * ```ts
   * export const devices = token.client().apply(async (c) => (await c.devices.list()).length);
   * ```
   */
  client(): pulumi.Output<Client> {
    return pulumi
      .all([this.baseUrl, this.refreshToken])
      .apply(([baseUrl, refreshToken]) => getClient({ baseUrl, refreshToken }));
  }
}
