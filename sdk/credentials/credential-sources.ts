import { ConfigError, NoCredentialsError } from "../errors";
import { refreshToken as refreshGrant } from "../auth/grants";
import { runCredentialProcess } from "./credential-process";
import { refreshWindowMs } from "../session";
import { sharedSession } from "../client/shared-session";
import type { TokenSet } from "../auth/token-response";
import { TokenStore } from "./token-store";
import { type Clock, DEFAULT_BASE_URL, systemClock } from "../http/transport";
import type { UrlClaim } from "./resolve";

/** Where a credential was found. */
export type SourceName = "options" | "environment" | "profile" | "command";

/**
 * A credential found by a source: it yields valid access tokens (refreshing, and for a profile
 * persisting, as needed).
 */
export interface Credential {
  source: SourceName;
  baseUrl: string;
  /** The profile name, for the profile source. */
  profile?: string;
  /**
   * A valid token set. A bare access token of unknown lifetime has `expiresAt` Infinity. `baseUrl`, when
   * present, is the address the token belongs to (a credential command may name one only when run).
   */
  token(): Promise<TokenSet & { baseUrl?: string }>;
  /**
   * Present when the credential is an API key (`DNS_ACCOUNT_API_KEY`, an API-key profile): returns the
   * key, to send as `Authorization: ApiKey <key>` (e.g. `createClient({ apiKey })`). Such a credential has
   * no token: `token()` rejects. A function, so the key never shows in `util.inspect`.
   */
  apiKey?: () => string;
}

/** An API-key credential (see {@link Credential.apiKey}). */
function apiKeyCredential(source: SourceName, baseUrl: string, key: string, profile?: string): Credential {
  return {
    source,
    baseUrl,
    ...(profile !== undefined ? { profile } : {}),
    apiKey: () => key,
    token: async () => {
      throw new ConfigError(
        `The ${source === "profile" ? `profile "${profile}"` : source === "environment" ? "environment (DNS_ACCOUNT_API_KEY)" : source} holds an API key, which has no access token: ` +
          `send it as "Authorization: ApiKey <key>" (dns-account env exports DNS_ACCOUNT_API_KEY), or name a profile that holds a login (--profile P)`,
        { field: "apiKey" },
      );
    },
  };
}

/** One link of the chain: returns a credential, or undefined when it has none. */
export interface CredentialSource {
  readonly name: SourceName;
  load(): Promise<Credential | undefined>;
}

/** Explicit credentials, as options. */
export interface ExplicitCredentials {
  baseUrl?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
  mfaToken?: string | undefined;
  refreshToken?: string | undefined;
  /** A bare access token (no refresh). */
  accessToken?: string | undefined;
  /** An API key (first: a source holding one uses it). */
  apiKey?: string | undefined;
  /** Allow `http://` to a non-loopback host (e.g. an emulator in docker-compose). */
  allowInsecureHttp?: boolean | undefined;
}

function bareToken(accessToken: string, expiresAt = Number.POSITIVE_INFINITY, clock: Clock = systemClock): TokenSet {
  const expiresIn = Number.isFinite(expiresAt) ? Math.max(1, Math.round((expiresAt - clock.now()) / 1000)) : 0;
  return { accessToken, tokenType: "bearer", expiresIn, expiresAt };
}

/** The words of the SDK's chain (options by their names, the environment by its variables). */
const words = (options: boolean): import("./resolve").CredentialWords => ({
  // The environment's fields are named as the user set them: its variables.
  source: (kind) => (kind === "args" ? "in the options" : "DNS_ACCOUNT_PASSWORD or DNS_ACCOUNT_REFRESH_TOKEN"),
  username: options ? "username" : "DNS_ACCOUNT_USERNAME",
  field: (kind, field) => (kind === "environment" ? ENV_NAMES[field] : field),
});

const ENV_NAMES = {
  baseUrl: "DNS_ACCOUNT_BASE_URL",
  username: "DNS_ACCOUNT_USERNAME",
  password: "DNS_ACCOUNT_PASSWORD",
  mfaToken: "DNS_ACCOUNT_MFA_TOKEN",
  refreshToken: "DNS_ACCOUNT_REFRESH_TOKEN",
  apiKey: "DNS_ACCOUNT_API_KEY",
  accessToken: "DNS_ACCOUNT_ACCESS_TOKEN",
  profile: "DNS_ACCOUNT_PROFILE",
  credentialCommand: "DNS_ACCOUNT_CREDENTIAL_COMMAND",
} as const;

/** The credential fields of the environment (the same variables `resolve.ts` reads). */
function envFields(env: NodeJS.ProcessEnv): ExplicitCredentials & { profile?: string | undefined; credentialCommand?: string | undefined } {
  return {
    baseUrl: env.DNS_ACCOUNT_BASE_URL,
    username: env.DNS_ACCOUNT_USERNAME,
    password: env.DNS_ACCOUNT_PASSWORD,
    mfaToken: env.DNS_ACCOUNT_MFA_TOKEN,
    refreshToken: env.DNS_ACCOUNT_REFRESH_TOKEN,
    accessToken: env.DNS_ACCOUNT_ACCESS_TOKEN,
    apiKey: env.DNS_ACCOUNT_API_KEY,
    profile: env.DNS_ACCOUNT_PROFILE,
    credentialCommand: env.DNS_ACCOUNT_CREDENTIAL_COMMAND,
  };
}

/**
 * The credential of one source's explicit fields, decided by the resolution the provider uses too
 * (`resolve.ts`): an API key, then an access token, then a refresh token or a password (both is an
 * error, as is a password without a username); none is a miss. The other source of the chain takes
 * part only in the origin check: a base URL it gives alone must name the secret's origin.
 */
function explicit(name: "options" | "environment", c: ExplicitCredentials, other: ExplicitCredentials & { profile?: string | undefined; credentialCommand?: string | undefined } = {}): Credential | undefined {
  const { NONE, isProblem, problemError, resolveCredentials } = require("./resolve") as typeof import("./resolve");
  const options = name === "options";
  const own = { ...c, allowInsecureHttp: undefined };
  // Of the other source only its base URL, and whether a secret of its own keeps that URL to itself.
  const owns = [other.password, other.refreshToken, other.apiKey, other.accessToken, other.profile, other.credentialCommand].some(Boolean);
  const lower = { baseUrl: other.baseUrl, ...(owns ? { credentialCommand: "(its own)" } : {}) };
  const r = resolveCredentials(options ? [["args", own], ["environment", lower]] : [["args", { baseUrl: other.baseUrl }], ["environment", own]], {
    apiKey: true,
    accessToken: true,
    words: words(options),
  });
  if (r === NONE) return undefined;
  if (isProblem(r)) throw r.code ? problemError(r) : new NoCredentialsError(r.reason);
  // The other source's own credential is its own source's to give.
  if (r.source !== (options ? "args" : "environment")) return undefined;
  const baseUrl = r.baseUrl ?? DEFAULT_BASE_URL;
  const insecure = c.allowInsecureHttp ? { allowInsecureHttp: true } : {};
  switch (r.mode) {
    case "apiKey":
      return apiKeyCredential(name, baseUrl, r.apiKey);
    case "accessToken":
      return { source: name, baseUrl, token: async () => bareToken(r.accessToken) };
    case "refreshToken": {
      const session = sharedSession({ baseUrl, ...insecure, credentials: { refreshToken: r.refreshToken } });
      return { source: name, baseUrl, token: async () => (await session.accessToken(), session.tokens!) };
    }
    case "password": {
      const session = sharedSession({ baseUrl, ...insecure, credentials: { username: r.username, password: r.password, ...(r.mfaToken ? { mfaToken: r.mfaToken } : {}) } });
      return { source: name, baseUrl, token: async () => (await session.accessToken(), session.tokens!) };
    }
    default:
      return undefined; // explicit fields name no profile or command
  }
}

/**
 * Credentials given as options (first in the default chain). With `env`, a `DNS_ACCOUNT_BASE_URL` given
 * alone there must name the same origin as the options' secret (`base_url_conflict` otherwise).
 */
export function optionsSource(credentials: ExplicitCredentials, env?: NodeJS.ProcessEnv): CredentialSource {
  return { name: "options", load: async () => explicit("options", credentials, env ? envFields(env) : {}) };
}

/**
 * `DNS_ACCOUNT_API_KEY` (an API key, first), `DNS_ACCOUNT_ACCESS_TOKEN` (a bare access token), `DNS_ACCOUNT_REFRESH_TOKEN`, or
 * `DNS_ACCOUNT_USERNAME` + `DNS_ACCOUNT_PASSWORD` (+ `DNS_ACCOUNT_MFA_TOKEN`), with `DNS_ACCOUNT_BASE_URL`. A
 * `baseUrl` among the options before it (`higher`) must name the same origin.
 */
export function environmentSource(env: NodeJS.ProcessEnv = process.env, allowInsecureHttp?: boolean, higher: ExplicitCredentials = {}): CredentialSource {
  return {
    name: "environment",
    load: async () => explicit("environment", { ...envFields(env), profile: undefined, credentialCommand: undefined, allowInsecureHttp } as ExplicitCredentials, higher),
  };
}

/** Base URLs given around a profile or a credential command, which its secret's origin must match. */
export interface OriginClaims {
  /** A base URL given before it in the chain (the options' `baseUrl`, `DNS_ACCOUNT_BASE_URL`). */
  steer?: UrlClaim | undefined;
  /** The base URL beside it (`DNS_ACCOUNT_BASE_URL` beside `DNS_ACCOUNT_PROFILE` or the command). */
  own?: UrlClaim | undefined;
}

/** Throws a `base_url_conflict` when the claims and the secret's own URL name different origins; returns the URL to use. */
function agreed(claims: OriginClaims | undefined, secret: string, intrinsic?: UrlClaim): string | undefined {
  if (!claims) return undefined;
  const { agreeOrigins, isProblem, problemError } = require("./resolve") as typeof import("./resolve");
  const r = agreeOrigins({ ...(claims.steer ? { steer: claims.steer } : {}), ...(claims.own ? { own: claims.own } : {}), secret }, intrinsic);
  if (isProblem(r)) throw problemError(r);
  return r.baseUrl;
}

/**
 * A profile of the token store (`DNS_ACCOUNT_PROFILE` or `default` unless named). With `required`, a
 * missing profile is a {@link NoCredentialsError} naming it instead of a miss.
 */
export function profileSource(options: { store?: TokenStore; profile?: string; env?: NodeJS.ProcessEnv; required?: boolean; origin?: OriginClaims } = {}): CredentialSource {
  return {
    name: "profile",
    load: async () => {
      const store = options.store ?? new TokenStore();
      const fromEnv = (options.env ?? process.env).DNS_ACCOUNT_PROFILE || undefined;
      const name = options.profile ?? fromEnv ?? "default";
      const profile = await store.profile(name);
      // A profile someone named (--profile, or DNS_ACCOUNT_PROFILE) must exist; only the default may be missing.
      if (!profile && (options.required || (options.profile === undefined && fromEnv !== undefined))) {
        throw new NoCredentialsError(`No profile "${name}" in ${store.file}${options.profile === undefined ? " (named by DNS_ACCOUNT_PROFILE)" : ""}: run dns-account login --profile ${name}`);
      }
      if (!profile) return undefined;
      // The profile's secret goes to the profile's own origin; a base URL naming another is a conflict.
      const secret = `the profile "${name}" (${options.profile !== undefined ? "--profile" : fromEnv !== undefined ? "DNS_ACCOUNT_PROFILE" : "the default profile"})`;
      agreed(options.origin && { ...options.origin, ...(fromEnv !== undefined && options.profile === undefined ? {} : { own: undefined }) }, secret, { url: profile.baseUrl, name: secret });
      if (profile.apiKey) return apiKeyCredential("profile", profile.baseUrl, profile.apiKey, name);
      return { source: "profile", baseUrl: profile.baseUrl, profile: name, token: () => store.accessToken(name) };
    },
  };
}

/** A credential command (`DNS_ACCOUNT_CREDENTIAL_COMMAND` unless given): see {@link runCredentialProcess}. */
export function commandSource(options: { command?: string; baseUrl?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv; clock?: Clock; allowInsecureHttp?: boolean; origin?: OriginClaims } = {}): CredentialSource {
  return {
    name: "command",
    load: async () => {
      const env = options.env ?? process.env;
      const command = options.command ?? env.DNS_ACCOUNT_CREDENTIAL_COMMAND;
      if (!command) return undefined;
      const clock = options.clock ?? systemClock;
      const baseUrl = options.baseUrl || env.DNS_ACCOUNT_BASE_URL || DEFAULT_BASE_URL;
      return {
        source: "command",
        baseUrl,
        token: async () => {
          const out = await runCredentialProcess({ command, env, clock, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
          // The URL the command prints is its token's origin: the base URL beside the command, or one
          // given before it, must name the same (else base_url_conflict).
          const secret = `the credential command (${options.command ? "command" : "DNS_ACCOUNT_CREDENTIAL_COMMAND"})`;
          const ownUrl = options.baseUrl ? { url: options.baseUrl, name: "baseUrl" } : env.DNS_ACCOUNT_BASE_URL ? { url: env.DNS_ACCOUNT_BASE_URL, name: "DNS_ACCOUNT_BASE_URL" } : undefined;
          agreed({ ...options.origin, ...(ownUrl ? { own: ownUrl } : {}) }, secret, out.baseUrl ? { url: out.baseUrl, name: `${secret}, by the ${out.baseUrlField ?? "baseUrl"} it printed,` } : undefined);
          const url = out.baseUrl ?? baseUrl;
          const expiresAt = out.expiresAt ?? Number.POSITIVE_INFINITY;
          // Its lifetime is unknown (only its expiry is printed): the session's longest window, five minutes.
          const fresh = out.accessToken && clock.now() < expiresAt - refreshWindowMs(Number.POSITIVE_INFINITY);
          if (out.accessToken && (fresh || !out.refreshToken)) {
            return { ...bareToken(out.accessToken, expiresAt, clock), ...(out.refreshToken ? { refreshToken: out.refreshToken } : {}), baseUrl: url };
          }
          const insecure = options.allowInsecureHttp ? { allowInsecureHttp: true } : {};
          return { ...(await refreshGrant({ baseUrl: url, refreshToken: out.refreshToken!, clock, ...insecure })), baseUrl: url };
        },
      };
    },
  };
}

/**
 * The default chain, first match wins: explicit options → environment → token store profile → credential
 * command. A `profile` given here is explicit and, as an explicit profile does in botocore, negates the
 * environment (and the command): the chain is then options → that profile, and a missing profile is an
 * error naming it. `DNS_ACCOUNT_PROFILE` only picks the profile the usual chain consults.
 *
 * @example
 * ```ts
 * const credential = await resolveCredential(defaultCredentialChain({ profile: "ci" }));
 * const { accessToken } = await credential.token();
 * ```
 */
export function defaultCredentialChain(
  options: { credentials?: ExplicitCredentials; profile?: string; store?: TokenStore; command?: string; env?: NodeJS.ProcessEnv; allowInsecureHttp?: boolean } = {},
): CredentialSource[] {
  const env = options.env ?? process.env;
  const insecure = options.allowInsecureHttp ? { allowInsecureHttp: true } : {};
  const store = options.store ?? (options.allowInsecureHttp ? new TokenStore(insecure) : undefined);
  // A secret goes only to its own origin: base URLs given around it must name the same (resolve.ts).
  const optUrl = options.credentials?.baseUrl ? { url: options.credentials.baseUrl, name: "baseUrl" } : undefined;
  const envUrl = env.DNS_ACCOUNT_BASE_URL ? { url: env.DNS_ACCOUNT_BASE_URL, name: "DNS_ACCOUNT_BASE_URL" } : undefined;
  const around = (origin: OriginClaims): { origin: OriginClaims } => ({ origin });
  if (options.profile) {
    const named = profileSource({ env, ...(store ? { store } : {}), profile: options.profile, required: true, ...around({ steer: optUrl }) });
    return [optionsSource({ ...insecure, ...options.credentials }), named];
  }
  const profile = profileSource({ env, ...(store ? { store } : {}), ...around({ steer: optUrl ?? envUrl, own: envUrl }) });
  return [
    optionsSource({ ...insecure, ...options.credentials }, env),
    environmentSource(env, options.allowInsecureHttp, optUrl ? { baseUrl: optUrl.url } : {}),
    profile,
    commandSource({ env, ...insecure, ...(options.command ? { command: options.command } : {}), ...around({ steer: optUrl }) }),
  ];
}

/** Walks the chain and returns the first credential; none at all is a {@link NoCredentialsError}. */
export async function resolveCredential(sources: readonly CredentialSource[]): Promise<Credential> {
  for (const source of sources) {
    const credential = await source.load();
    if (credential) return credential;
  }
  throw new NoCredentialsError(
    `No credentials found (tried: ${sources.map((s) => s.name).join(", ")}): run dns-account login, or set DNS_ACCOUNT_API_KEY, DNS_ACCOUNT_REFRESH_TOKEN, ` +
      "DNS_ACCOUNT_USERNAME and DNS_ACCOUNT_PASSWORD, DNS_ACCOUNT_ACCESS_TOKEN or DNS_ACCOUNT_CREDENTIAL_COMMAND",
  );
}
