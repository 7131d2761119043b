import { type AccountLimits, accountLimitsSchema } from "../model";
import type { ApiCore } from "./shared";

/**
 * The account: its quotas and their use.
 *
 * @example
 * ```ts
 * const { devices } = await client.account.limits();
 * console.log(`${devices.used}/${devices.limit} devices`);
 * ```
 */
export interface AccountApi {
  /** `GET /account/limits`. */
  limits(): Promise<AccountLimits>;
}

/** Builds the account group on a client core, e.g. `accountApi(client).limits()`. */
export function accountApi(core: ApiCore): AccountApi {
  return { limits: () => core.request({ path: "/account/limits", schema: accountLimitsSchema() }) };
}
