/**
 * The package's functions for TypeScript programs: the same arguments and results as the plugin's
 * functions (one implementation, `./shared/functions`), in the two forms Pulumi's generated SDKs have:
 * `getX(args?)` with plain values, giving a Promise, and `getXOutput(args?)` with Inputs, giving an
 * Output. They read and change nothing, so they are safe during preview.
 */
import * as pulumi from "@pulumi/pulumi";
import { ConfigError } from "../sdk/errors";
import { allowInsecureHttpFrom, fromConfig } from "./credentials";
import type {
  Credentials,
  CredentialsArgs,
  GetAccountLimitsResult,
  GetFilterListsResult,
  GetParentalControlCategoriesResult,
  GetWebServicesResult,
} from "./schema/types.generated";
import type { FunctionResults, FunctionToken } from "./shared/functions";
import type { ProviderContext } from "./shared/lifecycle";

/**
 * Arguments of a lookup, as the schema declares them for every function: `credentials` for this call
 * only (an `apiKey`, or a Token's `baseUrl` and `refreshToken`); without them, the program's stack config
 * (`dns-account:*`), then the environment and the CLI's profiles.
 *
 * @example
 * ```ts
 * const { filterLists } = await getFilterLists({ credentials: { apiKey: process.env.DNS_KEY } });
 * ```
 */
export interface LookupArgs {
  /** Credentials for this call only. Default: stack config, then the environment, then the CLI's default profile. */
  credentials?: Credentials | undefined;
}

/**
 * Arguments of a lookup's Output form: {@link LookupArgs} where every value may be a `pulumi.Input`.
 *
 * @example
 * ```ts
 * const args: LookupOutputArgs = { credentials: { baseUrl: token.baseUrl, refreshToken: token.refreshToken } };
 * ```
 */
export interface LookupOutputArgs {
  /** Credentials for this call only (Inputs: a Token's outputs, say). */
  credentials?: pulumi.Input<CredentialsArgs> | undefined;
}

/** The program's context: its stack config (`dns-account:*`), as the default provider would read it. */
function programContext(): ProviderContext {
  const get = (key: string): string | undefined => pulumi.runtime.getConfig(key);
  return { config: fromConfig(get), allowInsecureHttp: allowInsecureHttpFrom(get), warn: (message) => void process.stderr.write(`warning: ${message}\n`) };
}

// An Output or a Promise given to the plain form would otherwise be "no value", and the call would go
// on with other credentials (another account, maybe): refuse it, pointing to the Output form.
function refuseInputs(name: string, args: LookupArgs | undefined): void {
  const credentials = args?.credentials as Record<string, unknown> | undefined;
  const late = (v: unknown): boolean => pulumi.Output.isInstance(v) || v instanceof Promise;
  if (late(credentials)) throw new ConfigError(`credentials is an Input: give it to ${name}Output, which takes Inputs`, { field: "credentials" });
  for (const [key, value] of Object.entries(credentials ?? {})) {
    if (late(value)) throw new ConfigError(`credentials.${key} is an Input: give it to ${name}Output, which takes Inputs`, { field: `credentials.${key}` });
  }
}

// The implementation loads on the first call: a program that never looks anything up does not pay for
// the credential chain, the client or the schema.
async function call<T extends FunctionToken>(token: T, args: LookupArgs | undefined): Promise<FunctionResults[T]> {
  refuseInputs(token.split(":").pop()!, args);
  const { callFunction } = require("./shared/functions") as typeof import("./shared/functions");
  return callFunction(programContext(), token, args ?? {});
}

/** The Output form: runs once the Inputs are known; the result is secret when any argument is. */
function asOutput<T extends FunctionToken>(token: T, args: pulumi.Input<LookupOutputArgs> | undefined): pulumi.Output<FunctionResults[T]> {
  return pulumi.output(args ?? {}).apply((plain) => call(token, plain as LookupArgs)) as pulumi.Output<FunctionResults[T]>;
}

/**
 * The filter lists the service offers, for `settings.filterLists.ids` of a DnsServer.
 *
 * @example
 * ```ts
 * const { filterLists } = await getFilterLists();
 * const ids = filterLists.filter((l) => l.tags.includes("purpose:security")).map((l) => l.filterId);
 * ```
 */
export function getFilterLists(args?: LookupArgs): Promise<GetFilterListsResult> {
  return call("dns-account:index:getFilterLists", args);
}

/**
 * The web services that can be blocked, for `settings.blockedServices`.
 *
 * @example
 * ```ts
 * const ids = (await getWebServices()).webServices.map((s) => s.id);
 * ```
 */
export function getWebServices(args?: LookupArgs): Promise<GetWebServicesResult> {
  return call("dns-account:index:getWebServices", args);
}

/**
 * The parental-control categories, for `settings.blockedCategories`.
 *
 * @example
 * ```ts
 * const ids = (await getParentalControlCategories()).categories.map((c) => c.id);
 * ```
 */
export function getParentalControlCategories(args?: LookupArgs): Promise<GetParentalControlCategoriesResult> {
  return call("dns-account:index:getParentalControlCategories", args);
}

/**
 * The account's quotas and how much of each is in use (`devices`, `dnsServers`, `dedicatedIpv4`, …).
 *
 * @example
 * ```ts
 * const { devices } = await getAccountLimits();
 * if (devices.used >= devices.limit) throw new Error("raise the devices limit first");
 * ```
 */
export function getAccountLimits(args?: LookupArgs): Promise<GetAccountLimitsResult> {
  return call("dns-account:index:getAccountLimits", args);
}

/**
 * {@link getFilterLists} taking Inputs (a Token's outputs, say) and giving an Output, as Pulumi's generated
 * `getXOutput` functions do.
 *
 * @example
 * ```ts
 * const ids = getFilterListsOutput({ credentials: { baseUrl: token.baseUrl, refreshToken: token.refreshToken } })
 *   .apply((r) => r.filterLists.map((l) => l.filterId));
 * new DnsServer("home", { name: "Home", settings: { filterLists: { ids } } });
 * ```
 */
export function getFilterListsOutput(args?: pulumi.Input<LookupOutputArgs>): pulumi.Output<GetFilterListsResult> {
  return asOutput("dns-account:index:getFilterLists", args);
}

/**
 * {@link getWebServices} taking Inputs and giving an Output.
 *
 * @example
 * ```ts
 * const ids = getWebServicesOutput().webServices.apply((ss) => ss.filter((s) => s.name === "TikTok").map((s) => s.id));
 * ```
 */
export function getWebServicesOutput(args?: pulumi.Input<LookupOutputArgs>): pulumi.Output<GetWebServicesResult> {
  return asOutput("dns-account:index:getWebServices", args);
}

/**
 * {@link getParentalControlCategories} taking Inputs and giving an Output.
 *
 * @example
 * ```ts
 * const ids = getParentalControlCategoriesOutput().categories.apply((cs) => cs.map((c) => c.id));
 * ```
 */
export function getParentalControlCategoriesOutput(args?: pulumi.Input<LookupOutputArgs>): pulumi.Output<GetParentalControlCategoriesResult> {
  return asOutput("dns-account:index:getParentalControlCategories", args);
}

/**
 * {@link getAccountLimits} taking Inputs and giving an Output.
 *
 * @example
 * ```ts
 * export const devicesUsed = getAccountLimitsOutput().devices.used;
 * ```
 */
export function getAccountLimitsOutput(args?: pulumi.Input<LookupOutputArgs>): pulumi.Output<GetAccountLimitsResult> {
  return asOutput("dns-account:index:getAccountLimits", args);
}
