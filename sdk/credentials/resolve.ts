/**
 * The one resolution of credentials, shared by the `dns-account` CLI (its options and environment
 * sources) and the Pulumi side (resource args, stack config, environment, the CLI's default profile,
 * the credential command): which fields of a source make which credential, in which order, and what is
 * wrong with them. Pure but for {@link usableCredentials}, which reads a profile or runs a command.
 */
import { runCredentialProcess } from "./credential-process";
import { BaseUrlConflictError, ConfigError } from "../errors";
import { TokenStore } from "./token-store";
import { DEFAULT_BASE_URL } from "../http/transport";

/** Credential fields as one source (resource args, stack config or environment) gives them. */
export interface CredentialFields {
  baseUrl?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
  mfaToken?: string | undefined;
  refreshToken?: string | undefined;
  /** A profile of the CLI's token store (stack config only). */
  profile?: string | undefined;
  /** A credential command (stack config only). */
  credentialCommand?: string | undefined;
  /** An API key (for API clients and account resources; a Token ignores it). */
  apiKey?: string | undefined;
  /** A bare access token (`DNS_ACCOUNT_ACCESS_TOKEN`, as `eval "$(dns-account env)"` exports it); API clients only. */
  accessToken?: string | undefined;
}

/** Environment variables: the same the `dns-account` CLI reads. */
export const ENV_KEYS = {
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

const FIELDS = ["baseUrl", "username", "password", "mfaToken", "refreshToken", "apiKey"] as const;
/** The fields stack config can hold (the environment's, but for a bare access token). */
export const CONFIG_FIELDS = [...FIELDS, "profile", "credentialCommand"] as const;
const ENV_FIELDS = [...CONFIG_FIELDS, "accessToken"] as const;

/** Where a credential came from (`profile`: the CLI's default profile, found by no setting). */
export type CredentialSource = "args" | "config" | "environment" | "profile";

/** A base URL as one place gives it, and that place in the words of the user's surface. */
export interface UrlClaim {
  url: string;
  /** `DNS_ACCOUNT_BASE_URL`, `dns-account:baseUrl`, `credentials.baseUrl`, `the profile "ci"`… */
  name: string;
}

/**
 * What the origin of a profile's or a credential command's secret must agree with, checked once the
 * profile is read or the command has run (see {@link agreeOrigins}).
 */
export interface OriginCheck {
  /** The base URL that would steer the secret: the first one given down to the secret's source, or a lone one below it. */
  steer?: UrlClaim;
  /** The base URL given beside the secret, in its own source. */
  own?: UrlClaim;
  /**
   * A base URL of a lower source that holds a secret of its own: it goes with that secret, and counts
   * only when the secret has no origin of its own (else it would point this one at the service's).
   */
  lower?: UrlClaim;
  /** The secret, in the surface's words (`the profile "ci" (dns-account:profile)`). */
  secret: string;
}

/** Credentials resolved through args → stack config → environment. */
export type ResolvedCredentials =
  | { mode: "password"; baseUrl: string; username: string; password: string; mfaToken?: string; source: CredentialSource }
  | { mode: "refreshToken"; baseUrl: string; refreshToken: string; username?: string; source: CredentialSource }
  | {
      mode: "profile";
      /** The base URL given in the sources (the profile's own is checked against it when read). */
      baseUrl?: string;
      profile: string;
      source: CredentialSource;
      origin: OriginCheck;
      /** The CLI's `default` profile, used because nothing else was set: its absence is no error of its own. */
      implicit?: true;
      /** With `implicit`: what comes after the default profile (the environment's credential command). */
      fallback?: ResolvedCredentials;
      /** With `implicit` and no fallback: the problem to report when there is no default profile. */
      none?: CredentialProblem;
    }
  | { mode: "command"; baseUrl?: string; command: string; source: CredentialSource; origin: OriginCheck }
  | { mode: "apiKey"; baseUrl: string; apiKey: string; source: CredentialSource }
  | { mode: "accessToken"; baseUrl: string; accessToken: string; expiresAt: number; source: CredentialSource };

/** Credentials ready to use: a profile or command already turned into a refresh or access token. */
export type UsableCredentials =
  | Extract<ResolvedCredentials, { mode: "password" | "refreshToken" | "apiKey" | "accessToken" }>;

/** Why credentials could not be resolved: the property to blame and a reason without secret values. */
export interface CredentialProblem {
  property: string;
  reason: string;
  /** `base_url_conflict` when a secret and a base URL from different places name different origins. */
  code?: "base_url_conflict";
}

/**
 * Reads the credential fields of the environment, the variables the `dns-account` CLI reads
 * (`DNS_ACCOUNT_PROFILE` and `DNS_ACCOUNT_CREDENTIAL_COMMAND` included). Empty strings count as absent.
 */
export function fromEnvironment(env: NodeJS.ProcessEnv = process.env): CredentialFields {
  const out: CredentialFields = {};
  for (const f of ENV_FIELDS) {
    const v = env[ENV_KEYS[f]];
    if (v) out[f] = v;
  }
  return out;
}

/** A non-empty string. */
export const present = (v: string | undefined): v is string => typeof v === "string" && v !== "";

/** Options of {@link resolveCredentials}: what the caller can use, and whether the CLI's default profile counts. */
export interface ResolveOptions {
  /** API keys are usable (API clients, account resources; not a Token). */
  apiKey?: boolean;
  /** A bare access token is usable (API clients, account resources; not a Token). */
  accessToken?: boolean;
  /**
   * After the sources, the CLI's `default` profile, as the `dns-account` CLI and the AWS tools do: the
   * chain is then args → stack config → environment → profile (`DNS_ACCOUNT_PROFILE` or `default`) →
   * credential command, the same for the CLI and the provider.
   */
  defaultProfile?: boolean;
  /** The problem to report when there are no credentials at all (default {@link NONE}: a Token's terms). */
  none?: CredentialProblem;
  /** How messages name the places a field comes from (default: the Pulumi side's words). */
  words?: CredentialWords;
}

/** How messages name the places credentials come from, in the words of the user's surface. */
export interface CredentialWords {
  /** Where a source is, in "Set either password or refreshToken (…), not both". */
  source(kind: CredentialSource): string;
  /** Where a username can be given, in "A password needs a username (…)". */
  username: string;
  /** One field of one source: `baseUrl` (args), `dns-account:baseUrl` (config), `DNS_ACCOUNT_BASE_URL`. */
  field?(kind: Exclude<CredentialSource, "profile">, field: keyof CredentialFields): string;
}

/** The Pulumi side's names of a field: the argument, the stack config key, the environment variable. */
export function pulumiField(kind: Exclude<CredentialSource, "profile">, field: keyof CredentialFields): string {
  if (kind === "environment") return ENV_KEYS[field];
  return kind === "config" ? `dns-account:${field}` : field;
}

const PULUMI_WORDS: CredentialWords = {
  source: (kind) => `in ${kind}`,
  username: "args, dns-account:username or DNS_ACCOUNT_USERNAME",
  field: pulumiField,
};

/** The problem "no credentials at all" (compare by identity). */
export const NONE: CredentialProblem = {
  property: "password",
  reason:
    "No credentials: set password (with username) or refreshToken as resource args, as stack config " +
    "(pulumi config set --secret dns-account:password …, or dns-account:profile / dns-account:credentialCommand), " +
    "as DNS_ACCOUNT_PASSWORD / DNS_ACCOUNT_REFRESH_TOKEN, or run dns-account login (the default profile)",
};

/**
 * Resolves credentials from sources in precedence order (args, stack config, environment). The first
 * source that holds credentials decides; within a source, an API key (where accepted), then an access
 * token (where accepted), then a refresh token or password (both is an error), then a profile, then a
 * credential command. `username` and `mfaToken` are taken field by field, first source first. With
 * `defaultProfile`, the CLI's `default` profile comes after the environment's credentials and before
 * its credential command, as in the CLI.
 *
 * A secret is sent only to the origin of its own place (see {@link agreeOrigins}): the base URL beside
 * it in its source, a profile's own, the one a credential command prints, else the service's. A base
 * URL given at a higher-priority source, or alone (beside no secret) at a lower one, must name that
 * origin too, or the result is a `base_url_conflict` problem naming both places. A lower source that
 * holds a secret of its own keeps its base URL to itself, unless the chosen secret has no origin of its
 * own: then that URL would have steered it, and a different one is a conflict too.
 *
 * @example
 * ```ts
 * const r = resolveCredentials([["args", args], ["config", config], ["environment", fromEnvironment()]], { apiKey: true, defaultProfile: true });
 * ```
 */
export function resolveCredentials(sources: readonly [CredentialSource, CredentialFields][], options: ResolveOptions = {}): ResolvedCredentials | CredentialProblem {
  const first = (f: (typeof FIELDS)[number]): string | undefined => sources.map(([, s]) => s[f]).find(present);
  const none = options.none ?? NONE;
  const words = options.words ?? PULUMI_WORDS;
  const name = (kind: CredentialSource, field: keyof CredentialFields): string =>
    kind === "profile" ? field : (words.field ?? pulumiField)(kind, field);
  const claimAt = (i: number): UrlClaim | undefined => {
    const [kind, s] = sources[i]!;
    return present(s.baseUrl) ? { url: s.baseUrl, name: name(kind, "baseUrl") } : undefined;
  };
  // The base URL that steers the secret of source `d` (sources.length: one after them all): the first
  // given down to it, else the first of a source below that holds no secret of its own (a lower
  // source's base URL beside a secret goes with that secret: `lowerFor`).
  const steerFor = (d: number): UrlClaim | undefined => {
    for (let i = 0; i < sources.length; i++) {
      if (i > d && ownsSecret(sources[i]![1])) continue;
      const c = claimAt(i);
      if (c) return c;
    }
    return undefined;
  };
  const lowerFor = (d: number): UrlClaim | undefined => {
    for (let i = d + 1; i < sources.length; i++) {
      const c = claimAt(i);
      if (c) return c;
    }
    return undefined;
  };
  const originOf = (d: number, secret: string): OriginCheck => ({ ...opt("steer", steerFor(d)), ...opt("own", claimAt(d)), ...opt("lower", lowerFor(d)), secret });
  // A secret whose origin is known now: its source's base URL, else the service's.
  const direct = (d: number, field: keyof CredentialFields): { baseUrl: string } | CredentialProblem => agreeOrigins(originOf(d, name(sources[d]![0], field)));
  const at = (d: number): { baseUrl?: string } => opt("baseUrl", steerFor(d)?.url);
  const implicitDefault = (fallback?: ResolvedCredentials): ResolvedCredentials => ({
    mode: "profile",
    profile: "default",
    source: "profile",
    implicit: true,
    ...at(sources.length),
    origin: { ...opt("steer", steerFor(sources.length)), secret: 'the CLI\'s default profile ("default")' },
    ...(fallback ? { fallback } : { none }),
  });
  for (const [d, [source, s]] of sources.entries()) {
    // An API key needs no login: where keys are accepted (API clients), a source's key comes first.
    if (options.apiKey && present(s.apiKey)) {
      const o = direct(d, "apiKey");
      return isProblem(o) ? o : { mode: "apiKey", baseUrl: o.baseUrl, apiKey: s.apiKey, source };
    }
    if (options.accessToken && present(s.accessToken)) {
      const o = direct(d, "accessToken");
      return isProblem(o) ? o : { mode: "accessToken", baseUrl: o.baseUrl, accessToken: s.accessToken, expiresAt: Number.POSITIVE_INFINITY, source };
    }
    const hasPassword = present(s.password);
    const hasRefresh = present(s.refreshToken);
    if (hasPassword && hasRefresh) {
      return { property: "refreshToken", reason: `Set either password or refreshToken (${words.source(source)}), not both` };
    }
    if (hasRefresh) {
      const o = direct(d, "refreshToken");
      if (isProblem(o)) return o;
      const username = first("username");
      return { mode: "refreshToken", baseUrl: o.baseUrl, refreshToken: s.refreshToken!, ...(username ? { username } : {}), source };
    }
    if (hasPassword) {
      const username = first("username");
      if (!username) {
        return { property: "username", reason: `A password needs a username (${words.username})` };
      }
      const o = direct(d, "password");
      if (isProblem(o)) return o;
      const mfaToken = first("mfaToken");
      return { mode: "password", baseUrl: o.baseUrl, username, password: s.password!, ...(mfaToken ? { mfaToken } : {}), source };
    }
    if (present(s.profile)) return { mode: "profile", profile: s.profile, ...at(d), source, origin: originOf(d, `the profile "${s.profile}" (${name(source, "profile")})`) };
    if (present(s.credentialCommand)) {
      const command: ResolvedCredentials = { mode: "command", command: s.credentialCommand, ...at(d), source, origin: originOf(d, `the credential command (${name(source, "credentialCommand")})`) };
      // The CLI consults the default profile before the environment's credential command.
      return options.defaultProfile && source === "environment" ? implicitDefault(command) : command;
    }
  }
  return options.defaultProfile ? implicitDefault() : none;
}

/** A source holds a secret of its own (or names one: a profile, a credential command). */
function ownsSecret(s: CredentialFields): boolean {
  return [s.password, s.refreshToken, s.apiKey, s.accessToken, s.profile, s.credentialCommand].some(present);
}

const opt = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }));

/**
 * The origin (`scheme://host:port`) of a base URL: what a secret is bound to. Paths, a trailing slash
 * and the case of the host do not make another origin. A string that is no URL is its own origin (the
 * transport refuses it later, naming the field).
 *
 * @example
 * ```ts
 * urlOrigin("https://API.adguard-dns.io/"); // "https://api.adguard-dns.io"
 * ```
 */
export function urlOrigin(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? url : origin;
  } catch {
    return url;
  }
}

/**
 * The base URL a secret is sent to, or a `base_url_conflict` problem. The secret belongs to the origin
 * of its own place — `intrinsic` (a profile's URL, the URL a credential command printed), else the base
 * URL beside it in its source, else the service's default — and every other base URL that would steer it
 * must name the same origin. Origins are compared, not strings.
 *
 * @example
 * ```ts
 * agreeOrigins({ steer: { url: "https://b.example", name: "DNS_ACCOUNT_BASE_URL" }, secret: "the profile \"default\"" }, { url: "https://a.example", name: "the profile \"default\"" });
 * // { property: "baseUrl", code: "base_url_conflict", reason: "DNS_ACCOUNT_BASE_URL points at https://b.example, but …" }
 * ```
 */
export function agreeOrigins(check: OriginCheck, intrinsic?: UrlClaim): { baseUrl: string } | CredentialProblem {
  const home: UrlClaim = intrinsic ?? (check.own ? { url: check.own.url, name: `${check.secret} (with ${check.own.name})` } : { url: DEFAULT_BASE_URL, name: `${check.secret} (with no base URL beside it: the service's own address)` });
  const fallsToDefault = !intrinsic && !check.own;
  for (const other of [intrinsic ? check.own : undefined, check.steer, fallsToDefault ? check.lower : undefined]) {
    if (!other || urlOrigin(other.url) === urlOrigin(home.url)) continue;
    return {
      property: "baseUrl",
      code: "base_url_conflict",
      reason:
        `${other.name} points at ${urlOrigin(other.url)}, but ${home.name} belongs to ${urlOrigin(home.url)}: a secret is sent only to the origin ` +
        `of the place that holds it. Give the base URL beside the secret, or remove ${other.name}`,
    };
  }
  return { baseUrl: check.steer?.url ?? check.own?.url ?? home.url };
}

/**
 * The error of a problem: {@link BaseUrlConflictError} for a conflict, else a {@link ConfigError}
 * naming the property.
 */
export function problemError(p: CredentialProblem): ConfigError | BaseUrlConflictError {
  return p.code === "base_url_conflict" ? new BaseUrlConflictError(p.reason, { field: p.property }) : new ConfigError(p.reason, { field: p.property });
}

/**
 * The provider's sources in precedence order: the call's or resource's args, then the provider's
 * configuration (stack config), then the environment. Every face of the provider (Token, account
 * resources, lookups, `getClient`, the plugin) takes its order from here.
 *
 * @example
 * ```ts
 * const r = resolveCredentials(providerSources(args, ctx.config), { apiKey: true, defaultProfile: true });
 * ```
 */
export function providerSources(args: CredentialFields, config: CredentialFields, env: CredentialFields = fromEnvironment()): [CredentialSource, CredentialFields][] {
  return [
    ["args", args],
    ["config", config],
    ["environment", env],
  ];
}

/** True when resolution failed. */
export function isProblem<T extends object>(r: T | CredentialProblem): r is CredentialProblem {
  return "reason" in r;
}

/**
 * Turns a profile (read from the CLI's token store) or a credential command (run) into a refresh token,
 * or, when that is all it has, an access token. The secret goes to the profile's own base URL, or the
 * one the command printed (else the one beside the command, else the service's): a base URL given
 * elsewhere that names another origin is a {@link BaseUrlConflictError} naming both places.
 */
export async function usableCredentials(r: ResolvedCredentials, env: NodeJS.ProcessEnv = process.env): Promise<UsableCredentials> {
  if (r.mode === "password" || r.mode === "refreshToken" || r.mode === "apiKey" || r.mode === "accessToken") return r;
  if (r.mode === "profile") {
    const store = new TokenStore({ ...(env.DNS_ACCOUNT_CONFIG_DIR ? { dir: env.DNS_ACCOUNT_CONFIG_DIR } : {}) });
    const p = await store.profile(r.profile);
    if (!p && r.implicit) {
      // No default profile: what comes after it, or "no credentials".
      if (r.fallback) return usableCredentials(r.fallback, env);
      throw new ConfigError(r.none!.reason, { field: r.none!.property });
    }
    const named = r.source === "environment" ? `DNS_ACCOUNT_PROFILE names "${r.profile}", which is not` : `No profile "${r.profile}"`;
    if (!p) throw new ConfigError(`${named} in ${store.file}: run dns-account login --profile ${r.profile}`, { field: "profile" });
    const agreed = agreeOrigins(r.origin, { url: p.baseUrl, name: r.origin.secret });
    if (isProblem(agreed)) throw problemError(agreed);
    const baseUrl = agreed.baseUrl;
    if (p.apiKey) return { mode: "apiKey", baseUrl, apiKey: p.apiKey, source: r.source };
    if (p.refreshToken) return { mode: "refreshToken", baseUrl, refreshToken: p.refreshToken, ...(p.username ? { username: p.username } : {}), source: r.source };
    if (p.accessToken && p.expiresAt !== undefined) return { mode: "accessToken", baseUrl, accessToken: p.accessToken, expiresAt: p.expiresAt, source: r.source };
    throw new ConfigError(`Profile "${r.profile}" holds no token: run dns-account login --profile ${r.profile}`, { field: "profile" });
  }
  const out = await runCredentialProcess({ command: r.command, env });
  const agreed = agreeOrigins(r.origin, out.baseUrl ? { url: out.baseUrl, name: `${r.origin.secret}, by the ${out.baseUrlField ?? "baseUrl"} it printed,` } : undefined);
  if (isProblem(agreed)) throw problemError(agreed);
  const baseUrl = agreed.baseUrl;
  if (out.refreshToken) return { mode: "refreshToken", baseUrl, refreshToken: out.refreshToken, source: r.source };
  return { mode: "accessToken", baseUrl, accessToken: out.accessToken!, expiresAt: out.expiresAt ?? Number.POSITIVE_INFINITY, source: r.source };
}
