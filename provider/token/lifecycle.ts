import { randomBytes } from "node:crypto";
import { explain } from "../shared/explain";
import { type CheckResult, type CreateResult, type DiffResult, type Failure, insecureOf, nowOf, type ProviderContext, type ReadResult, type UpdateResult } from "../shared/lifecycle";
import { isUnknown } from "../shared/unknown";
import { ConfigError, DnsAccountError, InvalidCredentialsError, InvalidGrantError, MfaRequiredError, ProtocolError } from "../../sdk/errors";
import { refreshToken, tokenRequest } from "../../sdk/auth/grants";
import { revokeToken } from "../../sdk/auth/revoke";
import { parseTokenResponse, type TokenSet } from "../../sdk/auth/token-response";
import { type RawResponse, resolveBaseUrl } from "../../sdk/http/transport";
import {
  type CredentialFields,
  type CredentialProblem,
  type CredentialSource,
  isProblem,
  NONE,
  problemError,
  providerSources,
  resolveCredentials,
  type ResolveOptions,
  usableCredentials,
} from "../credentials";
import type { TokenInputs, TokenOutputs } from "./types";

const DAY_SECONDS = 86_400;

function credentialSources(ctx: ProviderContext, inputs: TokenInputs): [CredentialSource, CredentialFields][] {
  const args: CredentialFields = {
    baseUrl: inputs.baseUrl,
    username: inputs.username,
    password: inputs.password,
    mfaToken: inputs.mfaToken,
    refreshToken: inputs.refreshToken,
    profile: inputs.profile,
    credentialCommand: inputs.credentialCommand,
  };
  return providerSources(args, ctx.config);
}

/**
 * "No credentials" for a Token where the provider (or the environment) holds an API key: the key is
 * there, but a Token cannot be minted from one, which is what the user needs to hear, not a list of
 * settings they believe they gave.
 */
function apiKeyProblem(ctx: ProviderContext, r: CredentialProblem): CredentialProblem {
  if (!/^No credentials/.test(r.reason)) return r;
  const where = ctx.config.apiKey ? "the provider's apiKey (dns-account:apiKey)" : process.env.DNS_ACCOUNT_API_KEY ? "DNS_ACCOUNT_API_KEY" : undefined;
  if (!where) return r;
  return {
    ...r,
    reason:
      `A Token cannot be minted from an API key, and ${where} is the only credential here: a Token is a password login ` +
      (ctx.words?.tokenLogins ??
        "(username and password, on the Token or as dns-account:username and dns-account:password) or adopts a refresh token " +
          "(refreshToken, profile or credentialCommand)") +
      ". The API key itself serves the other resources and the functions directly",
  };
}

/** How a Token resolves its credentials: with the CLI's default profile last, in the words of the context's surface. */
function resolveOptions(ctx: ProviderContext): ResolveOptions {
  return ctx.words ? { defaultProfile: true, none: { ...NONE, reason: ctx.words.noCredentials("token") }, words: ctx.words.tokenCredentials } : { defaultProfile: true };
}

/** Credentials a Token can hold: a password login or a refresh token (from args, config, a profile or a command). */
async function resolve(ctx: ProviderContext, inputs: TokenInputs): Promise<{ creds: Extract<Awaited<ReturnType<typeof usableCredentials>>, { mode: "password" | "refreshToken" }> }> {
  const r = resolveCredentials(credentialSources(ctx, inputs), resolveOptions(ctx));
  if (isProblem(r)) throw problemError(apiKeyProblem(ctx, r));
  const creds = await usableCredentials(r);
  const field = r.mode === "command" ? "credentialCommand" : "profile";
  if (creds.mode === "accessToken") {
    throw new ConfigError(`A Token needs a refresh token, and the ${field} gives only an access token`, { field });
  }
  if (creds.mode === "apiKey") {
    throw new ConfigError(`A Token mints tokens from a password or a refresh token, and the ${field} holds an API key (an API key serves the other resources and the functions directly)`, { field });
  }
  return { creds };
}

function checkNumber(value: unknown, property: string, failures: Failure[]): void {
  if (value === undefined || isUnknown(value)) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    failures.push({ property, reason: `${property} must be a positive number of seconds` });
  }
}

/** Validates inputs; values unknown during preview are accepted. Never returns config or env values. */
export async function check(ctx: ProviderContext, _olds: TokenInputs, news: TokenInputs): Promise<CheckResult<TokenInputs>> {
  const failures: Failure[] = [];
  if (!ctx.offline && !credentialFieldsOf(news).some(isUnknown)) {
    const sources = credentialSources(ctx, news);
    const baseUrl = sources.map(([, s]) => s.baseUrl).find((v) => typeof v === "string" && v !== "");
    try {
      resolveBaseUrl(baseUrl, ctx.allowInsecureHttp);
    } catch (err) {
      failures.push({ property: "baseUrl", reason: (err as Error).message });
    }
    const r = resolveCredentials(sources, resolveOptions(ctx));
    // Without any setting, the CLI's default profile: when there is none, that is the one failure.
    const noDefault =
      !isProblem(r) && r.mode === "profile" && r.implicit
        ? await usableCredentials(r).then(
            () => false,
            (err: unknown) => (failures.push(failureOf(err, "password")), true),
          )
        : false;
    if (isProblem(r)) {
      const p = apiKeyProblem(ctx, r);
      failures.push({ property: p.property, reason: p.code ? `${p.code}: ${p.reason}` : p.reason });
    }
    else if (noDefault) {
      // reported above
    } else if (r.mode !== "password") {
      // A refresh token cannot mint another: a "rotation" would adopt the same token again, and deleting
      // the old resource would revoke what the replacement (and the config) still uses.
      for (const property of ["keepers", "rotationPeriodSeconds"] as const) {
        if (news[property] !== undefined) {
          failures.push({
            property,
            reason: `${property} rotates the token by replacing it, and rotation needs a password login (username and password): a Token that adopts a refresh token (${r.mode === "refreshToken" ? "refreshToken" : r.mode === "profile" ? "profile" : "credentialCommand"}) cannot rotate`,
          });
        }
      }
    }
    if (!isProblem(r) && r.mode === "profile" && !r.implicit) {
      // Read the profile now, so a wrong name fails the preview; a credential command runs only at create.
      await usableCredentials(r).catch((err: unknown) => failures.push(failureOf(err, "profile")));
    }
  }
  for (const key of ["baseUrl", "username", "password", "mfaToken", "refreshToken", "profile", "credentialCommand"] as const) {
    const v = news[key];
    if (v !== undefined && !isUnknown(v) && typeof v !== "string") failures.push({ property: key, reason: `${key} must be a string` });
  }
  checkNumber(news.rotationPeriodSeconds, "rotationPeriodSeconds", failures);
  checkNumber(news.renewBeforeSeconds, "renewBeforeSeconds", failures);
  if (news.revokeOnDelete !== undefined && !isUnknown(news.revokeOnDelete) && typeof news.revokeOnDelete !== "boolean") {
    failures.push({ property: "revokeOnDelete", reason: "revokeOnDelete must be a boolean" });
  }
  if (news.keepers !== undefined && !isUnknown(news.keepers) && (typeof news.keepers !== "object" || news.keepers === null || Array.isArray(news.keepers))) {
    failures.push({ property: "keepers", reason: "keepers must be a map of strings" });
  }
  return failures.length ? { inputs: news, failures } : { inputs: news };
}

/** A check failure from an error of the credential resolution; a base URL conflict keeps its code in view. */
function failureOf(err: unknown, property: string): Failure {
  const e = err as { field?: string; code?: string; message: string };
  return { property: e.field ?? property, reason: e.code === "base_url_conflict" ? `${e.code}: ${e.message}` : e.message };
}

function credentialFieldsOf(inputs: TokenInputs): unknown[] {
  return [inputs.baseUrl, inputs.username, inputs.password, inputs.mfaToken, inputs.refreshToken, inputs.profile, inputs.credentialCommand];
}

/** What to do when a login needs an MFA code the config cannot supply (rotation of a 2FA account). */
const MFA_HINT =
  "every new token (including a rotation or replacement) is a password login, and a two-factor account needs a fresh single-use code for it: " +
  "set a fresh code with `pulumi config set --secret dns-account:mfaToken <code>` (or the mfaToken argument) and run again";

/**
 * The settings part of the outputs. `revokeOnDelete` defaults to true for a password login only: an
 * adopted refresh token (args, config, environment, a CLI profile or a credential command) belongs to
 * whoever gave it, who may still use it, so deleting a Token must not revoke it.
 */
function settings(inputs: TokenInputs, defaultRevoke: boolean): Pick<TokenOutputs, "keepers" | "rotationPeriodSeconds" | "renewBeforeSeconds" | "revokeOnDelete"> {
  return {
    ...(inputs.keepers !== undefined ? { keepers: inputs.keepers } : {}),
    ...(inputs.rotationPeriodSeconds !== undefined ? { rotationPeriodSeconds: inputs.rotationPeriodSeconds } : {}),
    ...(inputs.renewBeforeSeconds !== undefined ? { renewBeforeSeconds: inputs.renewBeforeSeconds } : {}),
    revokeOnDelete: inputs.revokeOnDelete ?? defaultRevoke,
  };
}

type TokenFields = "accessToken" | "refreshToken" | "expiresAt" | "tokenType" | "renewedAt";

function withTokens(base: Omit<TokenOutputs, TokenFields>, set: TokenSet & { refreshToken: string }): TokenOutputs {
  return {
    ...base,
    accessToken: set.accessToken,
    refreshToken: set.refreshToken,
    tokenType: "bearer",
    expiresAt: new Date(set.expiresAt).toISOString(),
    renewedAt: new Date(set.expiresAt - set.expiresIn * 1000).toISOString(),
  };
}

/** The refresh token a token response carries, if any, even when the response is otherwise unusable. */
function mintedRefreshToken(res: RawResponse): string | undefined {
  try {
    const body = JSON.parse(res.body.toString("utf8")) as { refresh_token?: unknown };
    return typeof body?.refresh_token === "string" && body.refresh_token !== "" ? body.refresh_token : undefined;
  } catch {
    return undefined;
  }
}

/** Revokes a refresh token this provider minted but cannot keep; says in the message when that failed. */
async function revokeOrphan(ctx: ProviderContext, baseUrl: string, token: string | undefined, err: unknown): Promise<unknown> {
  if (token === undefined) return err;
  try {
    await revokeToken({ baseUrl, refreshToken: token, ...insecureOf(ctx) });
    return err;
  } catch {
    const e = explain("Creating the token failed", err);
    e.message += "; the refresh token the service issued could not be revoked: revoke it in the account's web UI";
    return e;
  }
}

/**
 * The password grant. A response that issued a refresh token but cannot be used (malformed, absurd) has
 * that token revoked before the error surfaces: no live token may exist outside every state.
 */
async function login(ctx: ProviderContext, creds: { baseUrl: string; username: string; password: string; mfaToken?: string }): Promise<TokenSet & { refreshToken: string }> {
  const form: Record<string, string> = { username: creds.username, password: creds.password };
  if (creds.mfaToken) form.mfa_token = creds.mfaToken;
  const res = await tokenRequest("password", form, { baseUrl: creds.baseUrl, ...insecureOf(ctx) });
  try {
    return parseTokenResponse(res, { grant: "password" }) as TokenSet & { refreshToken: string };
  } catch (err) {
    throw await revokeOrphan(ctx, creds.baseUrl, mintedRefreshToken(res), err);
  }
}

function isMfaProblem(err: unknown, withCode: boolean): boolean {
  if (err instanceof MfaRequiredError) return true;
  return withCode && err instanceof InvalidCredentialsError && /2fa|mfa/i.test(err.server?.errorCode ?? "");
}

/**
 * Logs in (password grant, with MFA code if given) or adopts the refresh token (refresh grant). A login
 * whose result cannot be stored revokes the refresh token it minted.
 */
export async function create(ctx: ProviderContext, inputs: TokenInputs): Promise<CreateResult<TokenOutputs>> {
  let creds: Awaited<ReturnType<typeof resolve>>["creds"] | undefined;
  try {
    creds = (await resolve(ctx, inputs)).creds;
    const set = creds.mode === "password" ? await login(ctx, creds) : await refreshToken({ baseUrl: creds.baseUrl, refreshToken: creds.refreshToken, ...insecureOf(ctx) });
    try {
      const outs = withTokens(
        {
          baseUrl: creds.baseUrl,
          ...(creds.username !== undefined ? { username: creds.username } : {}),
          mode: creds.mode,
          issuedAt: new Date().toISOString(),
          ...settings(inputs, creds.mode === "password"),
        },
        set,
      );
      return { id: `tok-${randomBytes(8).toString("hex")}`, outs };
    } catch (err) {
      const problem = err instanceof DnsAccountError ? err : new ProtocolError("The token response holds a value out of range", { field: "expires_in" });
      // Only a token this create minted is revoked; an adopted one belongs to whoever gave it.
      throw creds.mode === "password" ? await revokeOrphan(ctx, creds.baseUrl, set.refreshToken, problem) : problem;
    }
  } catch (err) {
    const mfa = creds?.mode === "password" && isMfaProblem(err, creds.mfaToken !== undefined);
    throw explain("Creating the token failed", err, mfa ? (ctx.words?.mfa ?? MFA_HINT) : undefined);
  }
}

function sameKeepers(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const canon = (m: Record<string, string> | undefined) => JSON.stringify(Object.entries(m ?? {}).sort(([x], [y]) => (x < y ? -1 : 1)));
  return canon(a) === canon(b);
}

/** The renewal window in ms: `renewBeforeSeconds`, or a day or half the lifetime, whichever is smaller. */
function renewWindowMs(renewBeforeSeconds: number | undefined, lifetimeMs: number): number {
  if (renewBeforeSeconds !== undefined) return renewBeforeSeconds * 1000;
  return Math.min(DAY_SECONDS * 1000, lifetimeMs / 2);
}

/**
 * Replace on a change of username, baseUrl, refreshToken or keepers, or once rotationPeriodSeconds has
 * elapsed; update (renew) when the access token is within renewBeforeSeconds of expiry. A change of
 * password or mfaToken alone changes nothing.
 */
export async function diff(ctx: ProviderContext, _id: string, olds: TokenOutputs, news: TokenInputs): Promise<DiffResult> {
  const replaces: string[] = [];
  const unknown = credentialFieldsOf(news).some(isUnknown);
  if (unknown) {
    // The credentials are not known yet: compare what we can and let the update decide.
    if (isUnknown(news.refreshToken)) replaces.push("refreshToken");
    if (isUnknown(news.username)) replaces.push("username");
    if (isUnknown(news.baseUrl)) replaces.push("baseUrl");
    if (isUnknown(news.profile)) replaces.push("profile");
    if (isUnknown(news.credentialCommand)) replaces.push("credentialCommand");
  } else {
    const resolved = resolveCredentials(credentialSources(ctx, news), resolveOptions(ctx));
    // A profile is read again (a file); a credential command is not run just to compare.
    const r = isProblem(resolved) || resolved.mode === "command" ? resolved : await usableCredentials(resolved).catch(() => resolved);
    if (!isProblem(r) && r.mode === "command") {
      if (r.baseUrl !== undefined && r.baseUrl !== olds.baseUrl) replaces.push("baseUrl");
    } else if (!isProblem(r) && (r.mode === "password" || r.mode === "refreshToken")) {
      if (r.baseUrl !== olds.baseUrl) replaces.push("baseUrl");
      if (r.mode !== olds.mode) replaces.push(r.mode === "refreshToken" ? "refreshToken" : "username");
      else if (r.mode === "password" && r.username !== olds.username) replaces.push("username");
      else if (r.mode === "refreshToken" && r.refreshToken !== olds.refreshToken) replaces.push("refreshToken");
    }
  }
  if (isUnknown(news.keepers) || !sameKeepers(olds.keepers, news.keepers)) replaces.push("keepers");
  const now = nowOf(ctx);
  const period = news.rotationPeriodSeconds;
  if (typeof period === "number" && now >= Date.parse(olds.issuedAt) + period * 1000) replaces.push("rotationPeriodSeconds");
  if (replaces.length) return { changes: true, replaces, deleteBeforeReplace: false };

  const settingsChanged =
    effectiveRevoke(news, olds) !== olds.revokeOnDelete ||
    news.rotationPeriodSeconds !== olds.rotationPeriodSeconds ||
    news.renewBeforeSeconds !== olds.renewBeforeSeconds;
  return { changes: needsRenewal(olds, news.renewBeforeSeconds, now) || settingsChanged, replaces: [], deleteBeforeReplace: false };
}

/** `revokeOnDelete` as given, else the default of the state's mode (true only for a password login). */
function effectiveRevoke(news: TokenInputs, olds: TokenOutputs): boolean {
  return typeof news.revokeOnDelete === "boolean" ? news.revokeOnDelete : olds.mode === "password";
}

/** Whether the stored access token is within its renewal window at `now`. */
function needsRenewal(olds: TokenOutputs, renewBeforeSeconds: unknown, now: number): boolean {
  const expiresAt = Date.parse(olds.expiresAt);
  if (Number.isNaN(expiresAt)) return true;
  const lifetime = expiresAt - Date.parse(olds.renewedAt ?? olds.issuedAt);
  const renewBefore = typeof renewBeforeSeconds === "number" ? renewBeforeSeconds : undefined;
  return now >= expiresAt - renewWindowMs(renewBefore, Number.isNaN(lifetime) ? 0 : Math.max(lifetime, 0));
}

type Settings = "keepers" | "rotationPeriodSeconds" | "renewBeforeSeconds" | "revokeOnDelete";

function withoutSettings(olds: TokenOutputs): Omit<TokenOutputs, Settings> {
  const { keepers: _k, rotationPeriodSeconds: _p, renewBeforeSeconds: _b, revokeOnDelete: _r, ...rest } = olds;
  return rest;
}

/**
 * Renews the access token with the refresh grant (the refresh token stays the same) when it is within its
 * renewal window; a change of settings alone is written without calling the server, so a stack whose
 * server is gone can still set `revokeOnDelete: false` and be destroyed.
 */
export async function update(ctx: ProviderContext, _id: string, olds: TokenOutputs, news: TokenInputs): Promise<UpdateResult<TokenOutputs>> {
  const kept = { ...withoutSettings(olds), ...settings(news, olds.mode === "password") };
  if (!needsRenewal(olds, news.renewBeforeSeconds, nowOf(ctx))) return { outs: kept };
  try {
    const set = await refreshToken({ baseUrl: olds.baseUrl, refreshToken: olds.refreshToken, ...insecureOf(ctx) });
    const { accessToken: _a, refreshToken: _r, expiresAt: _e, renewedAt: _n, tokenType: _t, ...base } = kept;
    return { outs: withTokens(base, set) };
  } catch (err) {
    throw explain("Renewing the token failed", err);
  }
}

/** Only the documented `invalid_grant` answer proves a refresh token revoked; any other 401 may be a proxy or an outage. */
function isDefiniteRevocation(err: unknown): boolean {
  if (!(err instanceof InvalidGrantError)) return false;
  const said = [err.server?.errorCode, err.server?.error].map((w) => (w ?? "").toLowerCase());
  return said.includes("invalid_grant");
}

/**
 * Refresh: checks the refresh token with the refresh grant. Inside the renewal window the access token
 * is renewed; outside it the stored one is kept, so `pulumi refresh` of a healthy Token changes nothing.
 * Only a definite revocation (`invalid_grant`) reports the resource gone (the next `up` creates a new
 * one); any other failure is an error and the state stays.
 */
export async function read(ctx: ProviderContext, id: string, props: TokenOutputs): Promise<ReadResult<TokenOutputs, TokenInputs>> {
  if (!props?.refreshToken) return {};
  try {
    const set = await refreshToken({ baseUrl: props.baseUrl, refreshToken: props.refreshToken, ...insecureOf(ctx) });
    if (set.refreshToken === props.refreshToken && !needsRenewal(props, props.renewBeforeSeconds, nowOf(ctx))) return { id, props };
    const { accessToken: _a, refreshToken: _r, expiresAt: _e, renewedAt: _n, tokenType: _t, ...base } = props;
    return { id, props: withTokens(base, set) };
  } catch (err) {
    if (isDefiniteRevocation(err)) return {};
    throw explain("Reading the token failed", err);
  }
}

/** Revokes the refresh token (when `revokeOnDelete`); "already revoked" is success. */
export async function remove(ctx: ProviderContext, _id: string, props: TokenOutputs): Promise<void> {
  if (props?.revokeOnDelete === false || !props?.refreshToken) return;
  try {
    await revokeToken({ baseUrl: props.baseUrl, refreshToken: props.refreshToken, ...insecureOf(ctx) });
  } catch (err) {
    throw explain("Revoking the token failed", err);
  }
}
