import type * as pulumi from "@pulumi/pulumi";

/**
 * Arguments of a {@link Token}. All optional: credentials also come from stack config
 * (`dns-account:*`) and the environment (`DNS_ACCOUNT_*`), in that order after these.
 *
 * @example
 * ```ts
 * new Token("ci", { keepers: { rotation: "2026-Q4" }, rotationPeriodSeconds: 30 * 86400 });
 * ```
 */
export interface TokenArgs {
  /** Base address of the service; default `https://api.adguard-dns.io`. A change replaces the token. */
  baseUrl?: pulumi.Input<string>;
  /** Account e-mail for the password grant. A change replaces the token. */
  username?: pulumi.Input<string>;
  /** Account password. Stored as a secret; a change alone changes nothing. */
  password?: pulumi.Input<string>;
  /** Current MFA code (single-use). Stored as a secret; a change alone changes nothing. */
  mfaToken?: pulumi.Input<string>;
  /**
   * Adopt an existing refresh token instead of logging in. Stored as a secret; a change replaces. An
   * adopted token is not revoked on delete unless `revokeOnDelete: true`, and cannot rotate.
   */
  refreshToken?: pulumi.Input<string>;
  /**
   * Adopt the refresh token of this profile of the CLI's token store (`dns-account login --profile P`),
   * so one program can use several accounts without raw passwords. Not revoked on delete by default.
   */
  profile?: pulumi.Input<string>;
  /**
   * Adopt the refresh token printed by this command (run by the shell, JSON on stdout, like
   * `dns-account token --json`). Stored in state as given: put no secret in the command line itself.
   */
  credentialCommand?: pulumi.Input<string>;
  /**
   * Arbitrary values: any change replaces the token (the rotation trigger). Needs a password login: a
   * Token that adopts a refresh token cannot rotate, and `check` says so.
   */
  keepers?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Replace the token once it is older than this many seconds. Needs a password login, like `keepers`. */
  rotationPeriodSeconds?: pulumi.Input<number>;
  /**
   * Renew the access token (an update, not a replacement) when it is within this many seconds of
   * expiry. Default: a day or half the token's lifetime, whichever is smaller.
   */
  renewBeforeSeconds?: pulumi.Input<number>;
  /**
   * Revoke the refresh token when the resource is deleted (or replaced). Default: true for a password
   * login, false for an adopted refresh token (it belongs to whoever gave it). Changing only this (or the
   * other settings) needs no server while the access token is outside its renewal window.
   */
  revokeOnDelete?: pulumi.Input<boolean>;
}

/** Inputs as the provider receives them (resolved values). */
export interface TokenInputs {
  baseUrl?: string;
  username?: string;
  password?: string;
  mfaToken?: string;
  refreshToken?: string;
  profile?: string;
  credentialCommand?: string;
  keepers?: Record<string, string>;
  rotationPeriodSeconds?: number;
  renewBeforeSeconds?: number;
  revokeOnDelete?: boolean;
}

/** How a token was obtained. */
export type TokenMode = "password" | "refreshToken";

/** State of a Token (the provider's outputs). `accessToken` and `refreshToken` are secrets. */
export interface TokenOutputs {
  /** Short-lived credential for API calls (secret). */
  accessToken: string;
  /** Long-lived credential of this resource (secret). */
  refreshToken: string;
  /** Always `bearer`. */
  tokenType: "bearer";
  /** When the access token expires (ISO-8601). */
  expiresAt: string;
  /** When this resource's credential was issued (ISO-8601); the rotation period counts from here. */
  issuedAt: string;
  /** When the current access token was obtained (ISO-8601); renewal counts its lifetime from here. */
  renewedAt: string;
  /** The base URL in use. */
  baseUrl: string;
  /** The account, when logged in by password. */
  username?: string;
  /** `password` (logged in) or `refreshToken` (adopted). */
  mode: TokenMode;
  keepers?: Record<string, string>;
  rotationPeriodSeconds?: number;
  renewBeforeSeconds?: number;
  revokeOnDelete: boolean;
}
