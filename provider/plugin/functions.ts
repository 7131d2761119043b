/**
 * The package's functions as the plugin serves them (`Invoke`): the one implementation the TypeScript
 * lookups use too (`../shared/functions`), with the provider's configuration as context.
 */
import { ConfigError } from "../../sdk/errors";
import { callFunction, isFunction as known } from "../shared/functions";
import type { ProviderContext } from "../shared/lifecycle";
import type { Credentials } from "../schema/types.generated";

/** True when `token` names one of the package's functions. */
export function isFunction(token: string): boolean {
  return known(token);
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
  if (!known(token)) throw new ConfigError(`unknown function ${token}`, { field: "tok" });
  return (await callFunction(ctx, token, args)) as unknown as Record<string, unknown>;
}
