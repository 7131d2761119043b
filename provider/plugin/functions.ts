/**
 * The package's functions as the plugin serves them (`Invoke`): the same reads as the TypeScript
 * lookups, with the provider's credentials (or the call's `credentials`), answered as objects whose keys
 * and shape are the schema's.
 */
import type { Client } from "../../sdk/client/client";
import { accountClient } from "../shared/account-client";
import type { ProviderContext } from "../shared/lifecycle";
import type { Credentials } from "../schema/types.generated";
import { camelKeys, project, schema } from "../schema/shape";

type Read = (client: Client) => Promise<Record<string, unknown>>;

const READS: Record<string, Read> = {
  "dns-account:index:getFilterLists": async (c) => ({ filterLists: await c.filterLists.list() }),
  "dns-account:index:getWebServices": async (c) => ({ webServices: await c.webServices.list() }),
  "dns-account:index:getParentalControlCategories": async (c) => ({ categories: await c.parentalControlCategories.list() }),
  "dns-account:index:getAccountLimits": async (c) => (await c.account.limits()) as unknown as Record<string, unknown>,
};

/** True when `token` names one of the package's functions. */
export function isFunction(token: string): boolean {
  return Object.hasOwn(READS, token);
}

/**
 * Runs the function `token` with its arguments (secrets unwrapped).
 *
 * @example
 * ```ts
 * const { filterLists } = await invoke(ctx, "dns-account:index:getFilterLists", {});
 * ```
 */
export async function invoke(ctx: ProviderContext, token: string, args: { credentials?: Credentials }): Promise<Record<string, unknown>> {
  const read = READS[token];
  if (!read) throw new Error(`unknown function ${token}`);
  const client = await accountClient(ctx, args.credentials);
  return project(camelKeys(await read(client)), schema.functions[token]!.outputs) as Record<string, unknown>;
}
