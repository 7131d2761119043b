/**
 * The Pulumi side of pulumi-dns-account: the {@link Token} resource, the account resources
 * ({@link DnsServer}, {@link Device}, {@link DedicatedIpv4}), lookups, {@link getAccessToken} and
 * {@link getClient}.
 *
 * @example
 * ```ts
 * import { DnsServer, Token } from "pulumi-dns-account";
 * const token = new Token("ci", { keepers: { quarter: "2026-Q4" } });
 * new DnsServer("home", { name: "Home", settings: { blockedServices: ["tiktok"] } });
 * ```
 * @packageDocumentation
 */
import { ConfigError } from "../sdk/errors";

// Without this, a program that installed only this package gets MODULE_NOT_FOUND from deep inside
// token.ts; the peer dependency is optional so that SDK and CLI users need not install Pulumi.
try {
  require.resolve("@pulumi/pulumi");
} catch {
  throw new ConfigError(
    'pulumi-dns-account needs @pulumi/pulumi for its Pulumi side: run "npm install @pulumi/pulumi" (the SDK alone is "pulumi-dns-account/sdk")',
    { field: "@pulumi/pulumi" },
  );
}

export { Token } from "./token/token";
export { DnsServer } from "./dns-server/dns-server";
export { rulesFromFile } from "./dns-server/rules";
export { Device } from "./device/device";
export { DedicatedIpv4 } from "./dedicated-ipv4/dedicated-ipv4";
// Every argument, state and nested type, and the enums' values, generated from the package schema.
export * from "./schema/types.generated";
export type { ResourceCredentials } from "./shared/account-client";
export {
  getAccountLimits,
  getAccountLimitsOutput,
  getFilterLists,
  getFilterListsOutput,
  getParentalControlCategories,
  getParentalControlCategoriesOutput,
  getWebServices,
  getWebServicesOutput,
  type LookupArgs,
  type LookupOutputArgs,
} from "./lookups";
export { type CredentialArgs, getAccessToken, getClient } from "./program";
export { CONFIG_KEYS, ENV_KEYS } from "./credentials";
export type { Client } from "../sdk/client/client";
export { DnsAccountError } from "../sdk/errors";
