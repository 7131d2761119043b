import type { Client } from "../../sdk/client/client";
import type { Credentials } from "../schema/types.generated";
import { sharedClient } from "../../sdk/client/shared-session";
import { DnsAccountError } from "../../sdk/errors";
import type { SessionCredentials } from "../../sdk/session";
import { type CredentialFields, type CredentialProblem, type CredentialWords, isProblem, problemError, providerSources, pulumiField, resolveCredentials, usableCredentials } from "../credentials";
import { revokeAtExit } from "./exit-revocation";
import { type Failure, insecureOf, type ProviderContext } from "./lifecycle";
import { containsUnknown, isUnknown } from "./unknown";

/**
 * Credentials one account resource may carry: a Token's outputs (`{ baseUrl, refreshToken }`) or an API
 * key (the schema's `Credentials` type). Kept in state as a secret. Without them, the resource uses its
 * provider's configuration, then the environment.
 */
export type ResourceCredentials = Credentials;

/**
 * The API client of an account resource: its `credentials` input, then stack config, then the
 * environment (profiles and credential commands included). One shared session per process and
 * credential, so an `up` of many resources logs in once. `none` is the problem reported when there
 * are no credentials anywhere (default: in an account resource's words).
 *
 * @example
 * ```ts
 * const client = await accountClient(ctx, inputs.credentials);
 * const server = await client.dnsServers.get(id);
 * ```
 */
export async function accountClient(ctx: ProviderContext, credentials: ResourceCredentials | undefined, none: CredentialProblem = NO_CREDENTIALS): Promise<Client> {
  const r = resolve(ctx, credentials, none);
  if (isProblem(r)) throw problemError(r);
  const u = await usableCredentials(r);
  if (u.mode === "apiKey") return sharedClient({ baseUrl: u.baseUrl, apiKey: u.apiKey, ...insecureOf(ctx) });
  const session: SessionCredentials =
    u.mode === "password"
      ? { username: u.username, password: u.password, ...(u.mfaToken ? { mfaToken: u.mfaToken } : {}) }
      : u.mode === "refreshToken"
        ? { refreshToken: u.refreshToken }
        : { accessToken: u.accessToken, tokenType: "bearer", expiresIn: 0, expiresAt: u.expiresAt };
  const client = sharedClient({ baseUrl: u.baseUrl, credentials: session, ...insecureOf(ctx) });
  // A password login mints a refresh token that no state records: revoke it when the provider ends.
  if (u.mode === "password") revokeAtExit(client.session);
  return client;
}

/** The resource's credentials, then stack config, then the environment; "no credentials" is `none` (it blames `credentials`). */
function resolve(ctx: ProviderContext, credentials: ResourceCredentials | undefined, none: CredentialProblem = NO_CREDENTIALS): ReturnType<typeof resolveCredentials> {
  const args: CredentialFields = { baseUrl: credentials?.baseUrl, refreshToken: credentials?.refreshToken, apiKey: credentials?.apiKey };
  const r = resolveCredentials(providerSources(args, ctx.config), { apiKey: true, accessToken: true, defaultProfile: true, none, words: WORDS });
  // An account resource's one credential input is `credentials`: a conflict is blamed on it.
  return isProblem(r) && r.code === "base_url_conflict" ? { ...r, property: "credentials" } : r;
}

/** An account resource's words: its `credentials` input, then the provider's configuration and the environment. */
const WORDS: CredentialWords = {
  source: (kind) => `in ${kind}`,
  username: "dns-account:username or DNS_ACCOUNT_USERNAME",
  field: (kind, field) => (kind === "args" ? `credentials.${field}` : pulumiField(kind, field)),
};

/** What an account resource accepts, in the order it looks (not the arguments of a Token). */
const NO_CREDENTIALS: CredentialProblem = {
  property: "credentials",
  reason:
    "No credentials: give the resource credentials ({ apiKey } or a Token's { baseUrl, refreshToken }), or configure the provider " +
    "(dns-account:apiKey, or dns-account:username with dns-account:password, dns-account:refreshToken, dns-account:profile, " +
    "dns-account:credentialCommand), or set DNS_ACCOUNT_API_KEY, DNS_ACCOUNT_ACCESS_TOKEN, DNS_ACCOUNT_REFRESH_TOKEN, DNS_ACCOUNT_USERNAME with " +
    "DNS_ACCOUNT_PASSWORD, DNS_ACCOUNT_PROFILE or DNS_ACCOUNT_CREDENTIAL_COMMAND, or run dns-account login (the default profile)",
};

/**
 * For `check`: why this resource has no usable credentials (none anywhere, a missing profile…), as a
 * check failure naming the property; undefined when they resolve. Runs no credential command.
 */
export async function credentialProblem(ctx: ProviderContext, credentials: ResourceCredentials | undefined): Promise<Failure | undefined> {
  try {
    const r = resolve(ctx, credentials);
    if (isProblem(r)) return { property: r.property, reason: r.code ? `${r.code}: ${r.reason}` : r.reason };
    if (r.mode === "profile") await usableCredentials(r);
    return undefined;
  } catch (err) {
    if (err instanceof DnsAccountError && err.code === "base_url_conflict") return { property: "credentials", reason: `${err.code}: ${err.message}` };
    if (err instanceof DnsAccountError) return { property: err.field ?? "credentials", reason: err.message };
    throw err;
  }
}

/** What {@link serviceChecks} needs to know of one resource type. */
export interface ServiceCheckSpec {
  /** The object's name in messages, e.g. `device`. */
  what: string;
  /** Whether the account has the object `adopt` names. */
  exists(client: Client, adopt: string): Promise<boolean>;
  /** Further checks against the service (reference-data ids…). */
  more?(client: Client): Promise<Failure[]>;
}

/**
 * The `check` failures that need credentials or the service: no usable credentials (always reported),
 * then — only when nothing else failed and nothing is unknown — an adopted object that does not exist and
 * the resource's own lookups. A service that cannot be reached skips them: create says why.
 *
 * @example
 * ```ts
 * failures.push(...(await serviceChecks(ctx, news, failures.length > 0, { what: "device", exists: async (c, id) => Boolean(await c.devices.get(id)) })));
 * ```
 */
export async function serviceChecks(
  ctx: ProviderContext,
  news: { credentials?: ResourceCredentials | undefined; adopt?: string | undefined },
  failedAlready: boolean,
  spec: ServiceCheckSpec,
): Promise<Failure[]> {
  if (containsUnknown(news.credentials)) return [];
  const problem = await credentialProblem(ctx, news.credentials);
  if (problem) return [problem];
  if (failedAlready) return [];
  const failures: Failure[] = [];
  try {
    const client = await accountClient(ctx, news.credentials);
    if (typeof news.adopt === "string" && !isUnknown(news.adopt) && !(await spec.exists(client, news.adopt))) {
      failures.push({ property: "adopt", reason: `adopt names no ${spec.what} of this account` });
    }
    if (spec.more) failures.push(...(await spec.more(client)));
  } catch {
    // unreachable or not allowed: create reports it with the cause
  }
  return failures;
}
