import type { AccountLimits, FilterList, ParentalControlFilteringCategory, WebService } from "../sdk/client/model";
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
