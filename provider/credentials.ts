/**
 * The Pulumi side's names for the one credential resolution (`sdk/credentials/resolve.ts`, which the CLI
 * uses too): stack config keys and reading them, and `allowInsecureHttp`.
 */
import { CONFIG_FIELDS, type CredentialFields } from "../sdk/credentials/resolve";

export {
  agreeOrigins,
  type CredentialFields,
  type CredentialProblem,
  type CredentialSource,
  type CredentialWords,
  ENV_KEYS,
  fromEnvironment,
  isProblem,
  NONE,
  problemError,
  providerSources,
  pulumiField,
  type ResolvedCredentials,
  type ResolveOptions,
  resolveCredentials,
  type UsableCredentials,
  usableCredentials,
  urlOrigin,
} from "../sdk/credentials/resolve";

/** Stack config keys, namespace `dns-account`. */
export const CONFIG_KEYS = {
  baseUrl: "dns-account:baseUrl",
  username: "dns-account:username",
  password: "dns-account:password",
  mfaToken: "dns-account:mfaToken",
  refreshToken: "dns-account:refreshToken",
  profile: "dns-account:profile",
  credentialCommand: "dns-account:credentialCommand",
  apiKey: "dns-account:apiKey",
} as const;

/** Reads the credential fields of a config getter (`(key) => value`). Empty strings count as absent. */
export function fromConfig(get: (key: string) => string | undefined): CredentialFields {
  const out: CredentialFields = {};
  for (const f of CONFIG_FIELDS) {
    const v = get(CONFIG_KEYS[f]);
    if (v) out[f] = v;
  }
  return out;
}

/** Stack config key that allows `http://` to a non-loopback host (e.g. an emulator in docker-compose). */
export const ALLOW_INSECURE_HTTP_KEY = "dns-account:allowInsecureHttp";

/**
 * `dns-account:allowInsecureHttp`, else `DNS_ACCOUNT_ALLOW_INSECURE_HTTP`: `true`, `1` or `yes` allow
 * `http://` to a host other than loopback (tokens then cross that network in clear).
 *
 * @example
 * ```ts
 * const allow = allowInsecureHttpFrom((key) => pulumi.runtime.getConfig(key));
 * ```
 */
export function allowInsecureHttpFrom(get: (key: string) => string | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  const value = get(ALLOW_INSECURE_HTTP_KEY) ?? env.DNS_ACCOUNT_ALLOW_INSECURE_HTTP;
  return /^(1|true|yes)$/i.test(value ?? "");
}
