import { randomBytes } from "node:crypto";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { ConfigError, DnsAccountError, InvalidGrantError } from "../../sdk/errors";
import { issueToken, refreshToken } from "../../sdk/auth/grants";
import { revokeToken } from "../../sdk/auth/revoke";
import type { TokenSet } from "../../sdk/auth/token-response";
import { resolveBaseUrl } from "../../sdk/http/transport";
import {
  allowInsecureHttpFrom,
  type CredentialFields,
  type CredentialSource,
  fromConfig,
  fromEnvironment,
  isProblem,
  resolveCredentials,
  usableCredentials,
} from "../credentials";
import type { TokenInputs, TokenOutputs } from "./types";

/** The value the engine sends for a property that is not known yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const DAY_SECONDS = 86_400;

/** Stack config read by `configure()` in the provider host; never serialized. */
let stackConfig: CredentialFields = {};
/** `dns-account:allowInsecureHttp` (or DNS_ACCOUNT_ALLOW_INSECURE_HTTP), spread into every token call. */
let insecure: { allowInsecureHttp?: true } = {};

/**
 * Reads the stack config (`dns-account:*`) in the provider host. Called once per host process by the
 * dynamic-provider host before any other method.
 */
export async function configure(req: dynamic.ConfigureRequest): Promise<void> {
  const get = (key: string): string | undefined => {
    try {
      return req.config.get(key);
    } catch {
      return undefined;
    }
  };
  stackConfig = fromConfig(get);
  insecure = allowInsecureHttpFrom(get) ? { allowInsecureHttp: true } : {};
}

function isUnknown(v: unknown): boolean {
  return v === UNKNOWN;
}

function credentialSources(inputs: TokenInputs): [CredentialSource, CredentialFields][] {
  const args: CredentialFields = {
    baseUrl: inputs.baseUrl,
    username: inputs.username,
    password: inputs.password,
    mfaToken: inputs.mfaToken,
    refreshToken: inputs.refreshToken,
  };
  return [
    ["args", args],
    ["config", stackConfig],
    ["environment", fromEnvironment()],
  ];
}

/** Credentials a Token can hold: a password login or a refresh token (from args, config, a profile or a command). */
async function resolve(inputs: TokenInputs): Promise<{ creds: Extract<Awaited<ReturnType<typeof usableCredentials>>, { mode: "password" | "refreshToken" }>; fromStore: boolean }> {
  const r = resolveCredentials(credentialSources(inputs));
  if (isProblem(r)) throw new ConfigError(r.reason, { field: r.property });
  const creds = await usableCredentials(r);
  const field = r.mode === "command" ? "credentialCommand" : "profile";
  if (creds.mode === "accessToken") {
    throw new ConfigError(`A Token needs a refresh token, and the ${field} gives only an access token`, { field });
  }
  return { creds, fromStore: r.mode === "profile" || r.mode === "command" };
}

function checkNumber(value: unknown, property: string, failures: dynamic.CheckFailure[]): void {
  if (value === undefined || isUnknown(value)) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    failures.push({ property, reason: `${property} must be a positive number of seconds` });
  }
}

/** Validates inputs; values unknown during preview are accepted. Never returns config or env values. */
export async function check(_olds: TokenInputs, news: TokenInputs): Promise<dynamic.CheckResult<TokenInputs>> {
  const failures: dynamic.CheckFailure[] = [];
  const credentialFields = [news.baseUrl, news.username, news.password, news.mfaToken, news.refreshToken];
  if (!credentialFields.some(isUnknown)) {
    const sources = credentialSources(news);
    const baseUrl = sources.map(([, s]) => s.baseUrl).find((v) => typeof v === "string" && v !== "");
    try {
      resolveBaseUrl(baseUrl, Boolean(insecure.allowInsecureHttp));
    } catch (err) {
      failures.push({ property: "baseUrl", reason: (err as Error).message });
    }
    const r = resolveCredentials(sources);
    if (isProblem(r)) failures.push(r);
    else if (r.mode === "profile") {
      // Read the profile now, so a wrong name fails the preview; a credential command runs only at create.
      await usableCredentials(r).catch((err: unknown) => failures.push({ property: "profile", reason: (err as Error).message }));
    }
  }
  for (const key of ["baseUrl", "username", "password", "mfaToken", "refreshToken"] as const) {
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

/** Errors as the engine shows them: the stable code first. Messages carry no secret. */
function explain(action: string, err: unknown): Error {
  if (err instanceof DnsAccountError) {
    const e = new Error(`${action}: ${err.code}: ${err.message}${err.field ? ` (${err.field})` : ""}`);
    Object.defineProperty(e, "code", { value: err.code, enumerable: false });
    return e;
  }
  return err instanceof Error ? err : new Error(`${action} failed`);
}

/**
 * The settings part of the outputs. `revokeOnDelete` defaults to true, except for a refresh token taken
 * from a CLI profile or a credential command: that one belongs to its store, and deleting a Token must
 * not log the CLI out.
 */
function settings(inputs: TokenInputs, defaultRevoke = true): Pick<TokenOutputs, "keepers" | "rotationPeriodSeconds" | "renewBeforeSeconds" | "revokeOnDelete"> {
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

/** Logs in (password grant, with MFA code if given) or adopts the refresh token (refresh grant). */
export async function create(inputs: TokenInputs): Promise<dynamic.CreateResult<TokenOutputs>> {
  try {
    const { creds, fromStore } = await resolve(inputs);
    const set =
      creds.mode === "password"
        ? await issueToken({ baseUrl: creds.baseUrl, username: creds.username, password: creds.password, ...insecure, ...(creds.mfaToken ? { mfaToken: creds.mfaToken } : {}) })
        : await refreshToken({ baseUrl: creds.baseUrl, refreshToken: creds.refreshToken, ...insecure });
    const outs = withTokens(
      {
        baseUrl: creds.baseUrl,
        ...(creds.username !== undefined ? { username: creds.username } : {}),
        mode: creds.mode,
        issuedAt: new Date().toISOString(),
        ...settings(inputs, !fromStore),
      },
      set,
    );
    return { id: `tok-${randomBytes(8).toString("hex")}`, outs };
  } catch (err) {
    throw explain("Creating the token failed", err);
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
export async function diff(_id: string, olds: TokenOutputs, news: TokenInputs): Promise<dynamic.DiffResult> {
  const replaces: string[] = [];
  const unknown = [news.baseUrl, news.username, news.password, news.refreshToken, news.mfaToken].some(isUnknown);
  if (unknown) {
    // The credentials are not known yet: compare what we can and let the update decide.
    if (isUnknown(news.refreshToken)) replaces.push("refreshToken");
    if (isUnknown(news.username)) replaces.push("username");
    if (isUnknown(news.baseUrl)) replaces.push("baseUrl");
  } else {
    const resolved = resolveCredentials(credentialSources(news));
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
  const now = Date.now();
  const period = news.rotationPeriodSeconds;
  if (typeof period === "number" && now >= Date.parse(olds.issuedAt) + period * 1000) replaces.push("rotationPeriodSeconds");
  if (replaces.length) return { changes: true, replaces, deleteBeforeReplace: false };

  const expiresAt = Date.parse(olds.expiresAt);
  const lifetime = expiresAt - Date.parse(olds.renewedAt ?? olds.issuedAt);
  const renewBefore = typeof news.renewBeforeSeconds === "number" ? news.renewBeforeSeconds : undefined;
  const renew = now >= expiresAt - renewWindowMs(renewBefore, Math.max(lifetime, 0));
  const settingsChanged =
    (news.revokeOnDelete !== undefined && news.revokeOnDelete !== olds.revokeOnDelete) ||
    news.rotationPeriodSeconds !== olds.rotationPeriodSeconds ||
    news.renewBeforeSeconds !== olds.renewBeforeSeconds;
  return { changes: renew || settingsChanged, replaces: [], deleteBeforeReplace: false };
}

/** Renews the access token with the refresh grant; the refresh token stays the same. */
export async function update(_id: string, olds: TokenOutputs, news: TokenInputs): Promise<dynamic.UpdateResult<TokenOutputs>> {
  try {
    const set = await refreshToken({ baseUrl: olds.baseUrl, refreshToken: olds.refreshToken, ...insecure });
    const { accessToken: _a, refreshToken: _r, expiresAt: _e, renewedAt: _n, tokenType: _t, keepers: _k, rotationPeriodSeconds: _p, renewBeforeSeconds: _b, ...base } = olds;
    return { outs: withTokens({ ...base, ...settings(news, olds.revokeOnDelete) }, set) };
  } catch (err) {
    throw explain("Renewing the token failed", err);
  }
}

/**
 * Refresh: renews the access token with the refresh grant. A refresh token revoked out of band reports
 * the resource gone (no id), so the next `up` creates a new one.
 */
export async function read(id: string, props: TokenOutputs): Promise<dynamic.ReadResult<TokenOutputs>> {
  if (!props?.refreshToken) return {};
  try {
    const set = await refreshToken({ baseUrl: props.baseUrl, refreshToken: props.refreshToken, ...insecure });
    const { accessToken: _a, refreshToken: _r, expiresAt: _e, renewedAt: _n, tokenType: _t, ...base } = props;
    return { id, props: withTokens(base, set) };
  } catch (err) {
    if (err instanceof InvalidGrantError) return {};
    throw explain("Reading the token failed", err);
  }
}

/** Revokes the refresh token (when `revokeOnDelete`); "already revoked" is success. */
export async function remove(_id: string, props: TokenOutputs): Promise<void> {
  if (props?.revokeOnDelete === false || !props?.refreshToken) return;
  try {
    await revokeToken({ baseUrl: props.baseUrl, refreshToken: props.refreshToken, ...insecure });
  } catch (err) {
    throw explain("Revoking the token failed", err);
  }
}
