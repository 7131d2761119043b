/**
 * The package's functions (`getFilterLists`, `getWebServices`, `getParentalControlCategories`,
 * `getAccountLimits`), written once for both faces: the plugin's `Invoke` and the TypeScript lookups take
 * the same arguments (`credentials`, else the provider's configuration, then the environment) and give
 * the same results, shaped by the schema (camelCase keys, declared properties only).
 */
import type { Client } from "../../sdk/client/client";
import { ConfigError } from "../../sdk/errors";
import { camelKeys, project, schema } from "../schema/shape";
import type { Credentials, GetAccountLimitsResult, GetFilterListsResult, GetParentalControlCategoriesResult, GetWebServicesResult } from "../schema/types.generated";
import type { CredentialProblem } from "../credentials";
import { accountClient } from "./account-client";
import type { ProviderContext } from "./lifecycle";

/**
 * The arguments of every function, as the schema declares them: `credentials` for this call only (an
 * `apiKey`, or a Token's `baseUrl` and `refreshToken`).
 *
 * @example
 * ```ts
 * const args: FunctionArgs = { credentials: { apiKey: process.env.KEY } };
 * ```
 */
export interface FunctionArgs {
  /** Credentials for this call only; default the provider's configuration, then the environment. */
  credentials?: Credentials | undefined;
}

/** What each function returns, by its token (the schema's outputs, as generated types). */
export interface FunctionResults {
  "dns-account:index:getFilterLists": GetFilterListsResult;
  "dns-account:index:getWebServices": GetWebServicesResult;
  "dns-account:index:getParentalControlCategories": GetParentalControlCategoriesResult;
  "dns-account:index:getAccountLimits": GetAccountLimitsResult;
}

/** A function's token, e.g. `dns-account:index:getFilterLists`. */
export type FunctionToken = keyof FunctionResults;

/** The service's answer of each function, before it is shaped by the schema. */
const READS: Record<FunctionToken, (client: Client) => Promise<unknown>> = {
  "dns-account:index:getFilterLists": async (c) => ({ filterLists: await c.filterLists.list() }),
  "dns-account:index:getWebServices": async (c) => ({ webServices: await c.webServices.list() }),
  "dns-account:index:getParentalControlCategories": async (c) => ({ categories: await c.parentalControlCategories.list() }),
  "dns-account:index:getAccountLimits": async (c) => c.account.limits(),
};

/** What a function call with no credentials anywhere says, in the words of a call. */
const NO_CREDENTIALS: CredentialProblem = {
  property: "credentials",
  reason:
    "No credentials: give the call credentials ({ apiKey } or a Token's { baseUrl, refreshToken }), or configure the provider " +
    "(dns-account:apiKey, or dns-account:username with dns-account:password, dns-account:refreshToken, dns-account:profile, " +
    "dns-account:credentialCommand), or set DNS_ACCOUNT_API_KEY, DNS_ACCOUNT_ACCESS_TOKEN, DNS_ACCOUNT_REFRESH_TOKEN, DNS_ACCOUNT_USERNAME with " +
    "DNS_ACCOUNT_PASSWORD, DNS_ACCOUNT_PROFILE or DNS_ACCOUNT_CREDENTIAL_COMMAND, or run dns-account login (the default profile)",
};

/** True when `token` names one of the package's functions. */
export function isFunction(token: string): token is FunctionToken {
  return Object.hasOwn(READS, token);
}

/**
 * Runs the function `token`: reads from the service with the call's `credentials` (else the context's
 * configuration, then the environment) and returns the schema's shape of the answer.
 *
 * @example
 * ```ts
 * const { filterLists } = await callFunction(ctx, "dns-account:index:getFilterLists", {});
 * ```
 */
export async function callFunction<T extends FunctionToken>(ctx: ProviderContext, token: T, args: FunctionArgs = {}): Promise<FunctionResults[T]> {
  const none = ctx.words ? { ...NO_CREDENTIALS, reason: ctx.words.noCredentials("call") } : NO_CREDENTIALS;
  const client = await accountClient(ctx, checkArgs(token, args), none);
  return project(camelKeys(await READS[token](client)), schema.functions[token]!.outputs) as FunctionResults[T];
}

const CREDENTIAL_KEYS = Object.keys(schema.types["dns-account:index:Credentials"]?.properties ?? {});
const HINT = "it takes { credentials }: an apiKey, or a Token's baseUrl and refreshToken";

/**
 * The call's `credentials`, checked: an argument or a credential the schema does not declare (the flat
 * `{ apiKey }` or `{ username, password }` of older lookups) is an error naming it, never ignored (the
 * call would go on with other credentials, maybe another account's); so is a value that is not a string.
 */
function checkArgs(token: FunctionToken, args: unknown): Credentials | undefined {
  if (args === undefined || args === null) return undefined;
  const name = token.split(":").pop();
  if (typeof args !== "object" || Array.isArray(args)) throw new ConfigError(`The arguments of ${name} must be an object: ${HINT}`, { field: "args" });
  const declared = Object.keys(schema.functions[token]?.inputs.properties ?? {});
  for (const key of Object.keys(args)) {
    if (!declared.includes(key)) throw new ConfigError(`${key} is not an argument of ${name}: ${HINT}`, { field: key });
  }
  const credentials = (args as FunctionArgs).credentials as unknown;
  if (credentials === undefined || credentials === null) return undefined;
  if (typeof credentials !== "object" || Array.isArray(credentials)) throw new ConfigError(`credentials must be an object: ${HINT}`, { field: "credentials" });
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(credentials)) {
    if (!CREDENTIAL_KEYS.includes(key)) throw new ConfigError(`credentials.${key} is not a credential of ${name}: ${HINT}`, { field: `credentials.${key}` });
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") throw new ConfigError(`credentials.${key} must be a string`, { field: `credentials.${key}` });
    out[key] = value;
  }
  return out as Credentials;
}
