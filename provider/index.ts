/**
 * The Pulumi side of pulumi-dns-account: the {@link Token} resource, {@link getAccessToken} and
 * {@link getClient}.
 *
 * @example
 * ```ts
 * import { Token, getClient } from "pulumi-dns-account";
 * const token = new Token("ci", { keepers: { quarter: "2026-Q4" } });
 * export const limits = token.client().apply((c) => c.account.limits());
 * ```
 * @packageDocumentation
 */
export { Token } from "./token/token";
export type { TokenArgs, TokenOutputs, TokenMode } from "./token/types";
export { type CredentialArgs, getAccessToken, getClient } from "./program";
export { CONFIG_KEYS, ENV_KEYS } from "./credentials";
export type { Client } from "../sdk/client/client";
export { DnsAccountError } from "../sdk/errors";
