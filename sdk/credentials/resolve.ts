/**
 * The one resolution of credentials, shared by the `dns-account` CLI (its options and environment
 * sources) and the Pulumi side (resource args, stack config, environment, the CLI's default profile,
 * the credential command): which fields of a source make which credential, in which order, and what is
 * wrong with them. Pure but for {@link usableCredentials}, which reads a profile or runs a command.
 */
import { runCredentialProcess } from "./credential-process";
import { ConfigError } from "../errors";
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

/** Credentials resolved through args → stack config → environment. */
export type ResolvedCredentials =
  | { mode: "password"; baseUrl: string; username: string; password: string; mfaToken?: string; source: CredentialSource }
  | { mode: "refreshToken"; baseUrl: string; refreshToken: string; username?: string; source: CredentialSource }
  | {
      mode: "profile";
      baseUrl?: string;
      profile: string;
      source: CredentialSource;
      /** The CLI's `default` profile, used because nothing else was set: its absence is no error of its own. */
      implicit?: true;
      /** With `implicit`: what comes after the default profile (the environment's credential command). */
      fallback?: ResolvedCredentials;
      /** With `implicit` and no fallback: the problem to report when there is no default profile. */
      none?: CredentialProblem;
    }
  | { mode: "command"; baseUrl?: string; command: string; source: CredentialSource }
  | { mode: "apiKey"; baseUrl: string; apiKey: string; source: CredentialSource }
  | { mode: "accessToken"; baseUrl: string; accessToken: string; expiresAt: number; source: CredentialSource };

/** Credentials ready to use: a profile or command already turned into a refresh or access token. */
export type UsableCredentials =
  | Extract<ResolvedCredentials, { mode: "password" | "refreshToken" | "apiKey" | "accessToken" }>;

/** Why credentials could not be resolved: the property to blame and a reason without values. */
export interface CredentialProblem {
  property: string;
  reason: string;
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
  words?: {
    /** Where a source is, in "Set either password or refreshToken (…), not both". */
    source(kind: CredentialSource): string;
    /** Where a username can be given, in "A password needs a username (…)". */
    username: string;
  };
}

const PULUMI_WORDS: NonNullable<ResolveOptions["words"]> = {
  source: (kind) => `in ${kind}`,
  username: "args, dns-account:username or DNS_ACCOUNT_USERNAME",
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
 * credential command. `baseUrl`, `username` and `mfaToken` are taken field by field, first source
 * first. With `defaultProfile`, the CLI's `default` profile comes after the environment's credentials
 * and before its credential command, as in the CLI.
 *
 * @example
 * ```ts
 * const r = resolveCredentials([["args", args], ["config", config], ["environment", fromEnvironment()]], { apiKey: true, defaultProfile: true });
 * ```
 */
export function resolveCredentials(sources: readonly [CredentialSource, CredentialFields][], options: ResolveOptions = {}): ResolvedCredentials | CredentialProblem {
  const first = (f: (typeof FIELDS)[number]): string | undefined => sources.map(([, s]) => s[f]).find(present);
  const explicitBaseUrl = first("baseUrl");
  const baseUrl = explicitBaseUrl ?? DEFAULT_BASE_URL;
  const at = explicitBaseUrl ? { baseUrl: explicitBaseUrl } : {};
  const none = options.none ?? NONE;
  const words = options.words ?? PULUMI_WORDS;
  const implicitDefault = (fallback?: ResolvedCredentials): ResolvedCredentials => ({
    mode: "profile",
    profile: "default",
    source: "profile",
    implicit: true,
    ...at,
    ...(fallback ? { fallback } : { none }),
  });
  for (const [source, s] of sources) {
    // An API key needs no login: where keys are accepted (API clients), a source's key comes first.
    if (options.apiKey && present(s.apiKey)) return { mode: "apiKey", baseUrl, apiKey: s.apiKey, source };
    if (options.accessToken && present(s.accessToken)) return { mode: "accessToken", baseUrl, accessToken: s.accessToken, expiresAt: Number.POSITIVE_INFINITY, source };
    const hasPassword = present(s.password);
    const hasRefresh = present(s.refreshToken);
    if (hasPassword && hasRefresh) {
      return { property: "refreshToken", reason: `Set either password or refreshToken (${words.source(source)}), not both` };
    }
    if (hasRefresh) {
      const username = first("username");
      return { mode: "refreshToken", baseUrl, refreshToken: s.refreshToken!, ...(username ? { username } : {}), source };
    }
    if (hasPassword) {
      const username = first("username");
      if (!username) {
        return { property: "username", reason: `A password needs a username (${words.username})` };
      }
      const mfaToken = first("mfaToken");
      return { mode: "password", baseUrl, username, password: s.password!, ...(mfaToken ? { mfaToken } : {}), source };
    }
    if (present(s.profile)) return { mode: "profile", profile: s.profile, ...at, source };
    if (present(s.credentialCommand)) {
      const command: ResolvedCredentials = { mode: "command", command: s.credentialCommand, ...at, source };
      // The CLI consults the default profile before the environment's credential command.
      return options.defaultProfile && source === "environment" ? implicitDefault(command) : command;
    }
  }
  return options.defaultProfile ? implicitDefault() : none;
}

/** True when resolution failed. */
export function isProblem(r: ResolvedCredentials | UsableCredentials | CredentialProblem): r is CredentialProblem {
  return "reason" in r;
}

/**
 * Turns a profile (read from the CLI's token store) or a credential command (run) into a refresh token,
 * or, when that is all it has, an access token. A base URL given in args or config wins over the
 * profile's or the command's.
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
    const baseUrl = r.baseUrl ?? p.baseUrl;
    if (p.apiKey) return { mode: "apiKey", baseUrl, apiKey: p.apiKey, source: r.source };
    if (p.refreshToken) return { mode: "refreshToken", baseUrl, refreshToken: p.refreshToken, ...(p.username ? { username: p.username } : {}), source: r.source };
    if (p.accessToken && p.expiresAt !== undefined) return { mode: "accessToken", baseUrl, accessToken: p.accessToken, expiresAt: p.expiresAt, source: r.source };
    throw new ConfigError(`Profile "${r.profile}" holds no token: run dns-account login --profile ${r.profile}`, { field: "profile" });
  }
  const out = await runCredentialProcess({ command: r.command, env });
  const baseUrl = r.baseUrl ?? out.baseUrl ?? DEFAULT_BASE_URL;
  if (out.refreshToken) return { mode: "refreshToken", baseUrl, refreshToken: out.refreshToken, source: r.source };
  return { mode: "accessToken", baseUrl, accessToken: out.accessToken!, expiresAt: out.expiresAt ?? Number.POSITIVE_INFINITY, source: r.source };
}

