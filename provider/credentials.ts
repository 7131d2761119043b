import { DEFAULT_BASE_URL } from "../sdk/transport";

/** Credential fields as one source (resource args, stack config or environment) gives them. */
export interface CredentialFields {
  baseUrl?: string | undefined;
  username?: string | undefined;
  password?: string | undefined;
  mfaToken?: string | undefined;
  refreshToken?: string | undefined;
}

/** Stack config keys, namespace `dns-account`. */
export const CONFIG_KEYS = {
  baseUrl: "dns-account:baseUrl",
  username: "dns-account:username",
  password: "dns-account:password",
  mfaToken: "dns-account:mfaToken",
  refreshToken: "dns-account:refreshToken",
} as const;

/** Environment variables. */
export const ENV_KEYS = {
  baseUrl: "DNS_ACCOUNT_BASE_URL",
  username: "DNS_ACCOUNT_USERNAME",
  password: "DNS_ACCOUNT_PASSWORD",
  mfaToken: "DNS_ACCOUNT_MFA_TOKEN",
  refreshToken: "DNS_ACCOUNT_REFRESH_TOKEN",
} as const;

const FIELDS = ["baseUrl", "username", "password", "mfaToken", "refreshToken"] as const;

/** Where a credential came from. */
export type CredentialSource = "args" | "config" | "environment";

/** Credentials resolved through args → stack config → environment. */
export type ResolvedCredentials =
  | { mode: "password"; baseUrl: string; username: string; password: string; mfaToken?: string; source: CredentialSource }
  | { mode: "refreshToken"; baseUrl: string; refreshToken: string; username?: string; source: CredentialSource };

/** Why credentials could not be resolved: the property to blame and a reason without values. */
export interface CredentialProblem {
  property: string;
  reason: string;
}

/** Reads the credential fields of a config getter (`(key) => value`). Empty strings count as absent. */
export function fromConfig(get: (key: string) => string | undefined): CredentialFields {
  const out: CredentialFields = {};
  for (const f of FIELDS) {
    const v = get(CONFIG_KEYS[f]);
    if (v) out[f] = v;
  }
  return out;
}

/** Reads the credential fields of the environment. Empty strings count as absent. */
export function fromEnvironment(env: NodeJS.ProcessEnv = process.env): CredentialFields {
  const out: CredentialFields = {};
  for (const f of FIELDS) {
    const v = env[ENV_KEYS[f]];
    if (v) out[f] = v;
  }
  return out;
}

const present = (v: string | undefined): v is string => typeof v === "string" && v !== "";

/**
 * Resolves credentials from sources in precedence order (args, stack config, environment). The first
 * source that holds a password or a refresh token decides the mode; a source holding both is an error.
 * `baseUrl`, `username` and `mfaToken` are taken field by field, first source first.
 */
export function resolveCredentials(sources: readonly [CredentialSource, CredentialFields][]): ResolvedCredentials | CredentialProblem {
  const first = (f: (typeof FIELDS)[number]): string | undefined => sources.map(([, s]) => s[f]).find(present);
  const baseUrl = first("baseUrl") ?? DEFAULT_BASE_URL;
  for (const [source, s] of sources) {
    const hasPassword = present(s.password);
    const hasRefresh = present(s.refreshToken);
    if (hasPassword && hasRefresh) {
      return { property: "refreshToken", reason: `Set either password or refreshToken (in ${source}), not both` };
    }
    if (hasRefresh) {
      const username = first("username");
      return { mode: "refreshToken", baseUrl, refreshToken: s.refreshToken!, ...(username ? { username } : {}), source };
    }
    if (hasPassword) {
      const username = first("username");
      if (!username) {
        return { property: "username", reason: "A password needs a username (args, dns-account:username or DNS_ACCOUNT_USERNAME)" };
      }
      const mfaToken = first("mfaToken");
      return { mode: "password", baseUrl, username, password: s.password!, ...(mfaToken ? { mfaToken } : {}), source };
    }
  }
  return {
    property: "password",
    reason:
      "No credentials: set password (with username) or refreshToken as resource args, as stack config " +
      "(pulumi config set --secret dns-account:password …) or as DNS_ACCOUNT_PASSWORD / DNS_ACCOUNT_REFRESH_TOKEN",
  };
}

/** True when resolution failed. */
export function isProblem(r: ResolvedCredentials | CredentialProblem): r is CredentialProblem {
  return "reason" in r;
}
