import { isDeepStrictEqual } from "node:util";
import type { Client } from "../../sdk/client/client";
import type { Credentials } from "../schema/types.generated";
import { sharedClient } from "../../sdk/client/shared-session";
import { DnsAccountError, TransportError } from "../../sdk/errors";
import type { SessionCredentials } from "../../sdk/session";
import { type CredentialFields, type CredentialProblem, type CredentialWords, isProblem, problemError, providerSources, pulumiField, type ResolvedCredentials, resolveCredentials, usableCredentials } from "../credentials";
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
 * are no credentials anywhere (default: in an account resource's words, the context's `words` if any).
 *
 * @example
 * ```ts
 * const client = await accountClient(ctx, inputs.credentials);
 * const server = await client.dnsServers.get(id);
 * ```
 */
export async function accountClient(ctx: ProviderContext, credentials: ResourceCredentials | undefined, none?: CredentialProblem): Promise<Client> {
  return stoppable(ctx, await sharedAccountClient(ctx, credentials, none));
}

/** `client` stopped by the call's signal (StopProvider), when the call has one. */
function stoppable(ctx: ProviderContext, client: Client): Client {
  return ctx.signal === undefined ? client : client.withStop(ctx.signal);
}

/**
 * The process-wide client of {@link accountClient}, without the call's stop signal. `resolved`: the
 * credentials as {@link resolve} found them a moment ago in the same call ({@link serviceChecks}), not
 * looked up again.
 */
async function sharedAccountClient(ctx: ProviderContext, credentials: ResourceCredentials | undefined, none?: CredentialProblem, resolved?: ResolvedCredentials): Promise<Client> {
  const r = resolved ?? resolve(ctx, credentials, none);
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

/** The credential fields that say which account and how: empty ones (and `null`) count as absent. */
function declared(credentials: ResourceCredentials | null | undefined): Record<string, unknown> | undefined {
  if (credentials === undefined || credentials === null) return undefined;
  if (typeof credentials !== "object") return { credentials };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(credentials)) if (v !== undefined && v !== null && v !== "") out[k] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Whether the `credentials` a program declares now differ from those the state holds: a replaced Token's
 * new refresh token, a new API key, credentials added or taken away (or not known yet, in a preview).
 * `diff` reports it as a change of `credentials` and `update` records them without calling the service
 * ({@link withCredentials}), so refresh and delete, which read the state, never use a token the rotation
 * revoked.
 *
 * @example
 * ```ts
 * if (credentialsChanged(olds, news)) changed.push("credentials");
 * ```
 */
export function credentialsChanged(olds: { credentials?: ResourceCredentials | undefined }, news: { credentials?: ResourceCredentials | undefined }): boolean {
  if (containsUnknown(news.credentials)) return true;
  return !isDeepStrictEqual(declared(news.credentials), declared(olds.credentials));
}

/**
 * `outs` with the credentials `news` declares (none when it declares none): the state an update records
 * when only the credentials changed, with no call to the service.
 *
 * @example
 * ```ts
 * if (changedFields(olds, news).length === 0) return { outs: withCredentials(olds, news) };
 * ```
 */
export function withCredentials<O extends { credentials?: ResourceCredentials | undefined }>(outs: O, news: { credentials?: ResourceCredentials | undefined }): O {
  const { credentials: _held, ...rest } = outs;
  return (news.credentials !== undefined && news.credentials !== null ? { ...rest, credentials: news.credentials } : rest) as O;
}

/** The resource's credentials, then stack config, then the environment; "no credentials" is `none` (it blames `credentials`). */
function resolve(ctx: ProviderContext, credentials: ResourceCredentials | undefined, none: CredentialProblem = ctx.words ? { ...NO_CREDENTIALS, reason: ctx.words.noCredentials("resource") } : NO_CREDENTIALS): ReturnType<typeof resolveCredentials> {
  const args: CredentialFields = { baseUrl: credentials?.baseUrl, refreshToken: credentials?.refreshToken, apiKey: credentials?.apiKey };
  const r = resolveCredentials(providerSources(args, ctx.config), { apiKey: true, accessToken: true, defaultProfile: true, none, words: ctx.words?.accountCredentials ?? WORDS });
  // An account resource's one credential input is `credentials`: a conflict is blamed on it.
  if (isProblem(r) && r.code === "base_url_conflict") return { ...r, property: "credentials" };
  // A misspelled configuration key that would have been the credential: say so beside "No credentials".
  if (isProblem(r) && ctx.credentialHint && /^No credentials/.test(r.reason)) return { ...r, reason: `${r.reason}. ${ctx.credentialHint}` };
  return r;
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
  return (await credentialCheck(ctx, credentials)).failure;
}

/** {@link credentialProblem}'s failure, or the credentials it resolved (for the client of the same call). */
async function credentialCheck(ctx: ProviderContext, credentials: ResourceCredentials | undefined): Promise<{ failure?: Failure; resolved?: ResolvedCredentials }> {
  try {
    const r = resolve(ctx, credentials);
    if (isProblem(r)) return { failure: { property: r.property, reason: r.code ? `${r.code}: ${r.reason}` : r.reason } };
    if (r.mode === "profile") await usableCredentials(r);
    return { resolved: r };
  } catch (err) {
    if (err instanceof DnsAccountError && err.code === "base_url_conflict") return { failure: { property: "credentials", reason: `${err.code}: ${err.message}` } };
    // No credentials anywhere, the CLI's default profile included: with the misspelled key that was meant.
    if (err instanceof DnsAccountError && /^No credentials/.test(err.message) && ctx.credentialHint) return { failure: { property: err.field ?? "credentials", reason: `${err.message}. ${ctx.credentialHint}` } };
    if (err instanceof DnsAccountError) return { failure: { property: err.field ?? "credentials", reason: err.message } };
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
  if (ctx.offline || containsUnknown(news.credentials)) return [];
  const { failure, resolved } = await credentialCheck(ctx, news.credentials);
  if (failure) return [failure];
  if (failedAlready) return [];
  const failures: Failure[] = [];
  try {
    // The credentials credentialCheck resolved: the same call's, not looked up again.
    const shared = await sharedAccountClient(ctx, news.credentials, undefined, resolved);
    const client = stoppable(ctx, shared);
    if (!ctx.skipCredentialsValidation) {
      const refused = await validated(shared, client, news.credentials !== undefined);
      if (refused) return [refused];
    }
    if (typeof news.adopt === "string" && !isUnknown(news.adopt) && !(await spec.exists(client, news.adopt))) {
      failures.push({ property: "adopt", reason: `adopt names no ${spec.what} of this account` });
    }
    if (spec.more) failures.push(...(await spec.more(client)));
  } catch (err) {
    // A stopped plan says so; unreachable or not allowed: create reports it with the cause.
    if (err instanceof DnsAccountError && err.code === "stopped") throw err;
  }
  return failures;
}

/** One validation per shared client, i.e. per process and credential (`sharedClient`). */
const validations = new WeakMap<Client, Promise<Failure | undefined>>();

/**
 * Whether the service takes the credentials of `client`: one cheap call (the account's limits) the first
 * time a process checks a resource with them, as the AWS provider asks STS in every preview, so a wrong
 * API key or an unreachable base URL fails `pulumi preview`, not only `up`. A refusal or an unreachable
 * service is a failure; any other answer (a 5xx, a quota) is left to the operation that follows. Opt out
 * with `skipCredentialsValidation`.
 */
function validated(shared: Client, client: Client, own: boolean): Promise<Failure | undefined> {
  let v = validations.get(shared);
  if (!v) {
    const asked = client.account.limits().then(
      () => undefined,
      (err: unknown) => {
        // A stopped validation says nothing of the credentials: the next plan asks again.
        if (err instanceof DnsAccountError && err.code === "stopped") {
          if (validations.get(shared) === asked) validations.delete(shared);
          throw err;
        }
        return refusal(err, own, client.host);
      },
    );
    v = asked;
    validations.set(shared, v);
  }
  return v;
}

const REFUSALS = new Set(["invalid_api_key", "invalid_grant", "invalid_credentials", "mfa_required", "authorization_failed"]);

/** The check failure for a validation that failed, or undefined when the failure says nothing of the credentials. */
function refusal(err: unknown, own: boolean, host: string): Failure | undefined {
  if (!(err instanceof DnsAccountError)) return undefined;
  const whose = own ? "the resource's credentials" : "the provider's credentials";
  const optOut = "(set the provider's skipCredentialsValidation, dns-account:skipCredentialsValidation, to check them only when they are used)";
  const property = own ? "credentials" : "";
  if (REFUSALS.has(err.code) || err.status === 401 || err.status === 403) {
    // No opt-out here: a refused credential fails whenever it is used; skipping the check only puts that off.
    return { property, reason: `${whose} were refused by the service at ${host}: ${err.code}: ${err.message}` };
  }
  if (err instanceof TransportError) {
    return { property, reason: `the service at ${host} cannot be reached to check ${whose}: ${err.code}: ${err.message} ${optOut}` };
  }
  return undefined;
}
