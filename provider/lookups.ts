import type { AccountLimits, FilterList, ParentalControlFilteringCategory, WebService } from "../sdk/client/model";
import * as pulumi from "@pulumi/pulumi";
import { type CredentialArgs, getClient } from "./program";

/**
 * The service's filter lists (reference data), for choosing `settings.filterLists.ids` of a DnsServer.
 * A plain async function: it reads, it changes nothing, so it is safe during preview.
 *
 * @example
 * ```ts
 * const lists = await getFilterLists();
 * new DnsServer("home", { name: "Home", settings: { filterLists: { ids: lists.filter((l) => l.tags.includes("purpose:security")).map((l) => l.filter_id) } } });
 * ```
 */
export async function getFilterLists(args?: CredentialArgs): Promise<FilterList[]> {
  return (await getClient(args)).filterLists.list();
}

/**
 * The web services that can be blocked (`settings.blockedServices` ids).
 *
 * @example
 * ```ts
 * const ids = (await getWebServices()).map((s) => s.id);
 * ```
 */
export async function getWebServices(args?: CredentialArgs): Promise<WebService[]> {
  return (await getClient(args)).webServices.list();
}

/**
 * The parental-control categories (`settings.blockedCategories` ids).
 *
 * @example
 * ```ts
 * const categories = (await getParentalControlCategories()).map((c) => c.id);
 * ```
 */
export async function getParentalControlCategories(args?: CredentialArgs): Promise<ParentalControlFilteringCategory[]> {
  return (await getClient(args)).parentalControlCategories.list();
}

/**
 * The account's quotas and their use (`devices`, `dns_servers`, `dedicated_ipv4`, …).
 *
 * @example
 * ```ts
 * const { devices } = await getAccountLimits();
 * if (devices.used >= devices.limit) throw new Error("raise the devices limit first");
 * ```
 */
export async function getAccountLimits(args?: CredentialArgs): Promise<AccountLimits> {
  return (await getClient(args)).account.limits();
}

/** The credential arguments of a lookup, each a plain value or an Input (as Pulumi's `getXOutput` forms take them). */
export type CredentialInputs = { [K in keyof CredentialArgs]?: pulumi.Input<string | undefined> };

/** Runs `lookup` once `args` are known; the result is an Output (secret when any argument is). */
function asOutput<T>(lookup: (args?: CredentialArgs) => Promise<T>, args?: pulumi.Input<CredentialInputs>): pulumi.Output<T> {
  return pulumi.output(args ?? {}).apply((plain) => lookup(plain as CredentialArgs));
}

/**
 * {@link getFilterLists} taking Inputs (a Token's outputs, say) and giving an Output, as Pulumi's generated
 * `getXOutput` functions do.
 *
 * @example
 * ```ts
 * const ids = getFilterListsOutput({ baseUrl: token.baseUrl, refreshToken: token.refreshToken }).apply((ls) => ls.map((l) => l.filter_id));
 * new DnsServer("home", { name: "Home", settings: { filterLists: { ids } } });
 * ```
 */
export function getFilterListsOutput(args?: pulumi.Input<CredentialInputs>): pulumi.Output<FilterList[]> {
  return asOutput(getFilterLists, args);
}

/**
 * {@link getWebServices} taking Inputs and giving an Output.
 *
 * @example
 * ```ts
 * const ids = getWebServicesOutput().apply((ss) => ss.filter((s) => s.name === "TikTok").map((s) => s.id));
 * ```
 */
export function getWebServicesOutput(args?: pulumi.Input<CredentialInputs>): pulumi.Output<WebService[]> {
  return asOutput(getWebServices, args);
}

/**
 * {@link getParentalControlCategories} taking Inputs and giving an Output.
 *
 * @example
 * ```ts
 * const ids = getParentalControlCategoriesOutput().apply((cs) => cs.map((c) => c.id));
 * ```
 */
export function getParentalControlCategoriesOutput(args?: pulumi.Input<CredentialInputs>): pulumi.Output<ParentalControlFilteringCategory[]> {
  return asOutput(getParentalControlCategories, args);
}

/**
 * {@link getAccountLimits} taking Inputs and giving an Output.
 *
 * @example
 * ```ts
 * export const devicesUsed = getAccountLimitsOutput().devices.used;
 * ```
 */
export function getAccountLimitsOutput(args?: pulumi.Input<CredentialInputs>): pulumi.Output<AccountLimits> {
  return asOutput(getAccountLimits, args);
}
