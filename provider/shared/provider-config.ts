/**
 * A provider's configuration as every engine face reads it (the Pulumi plugin's `dns-account:*` keys, the
 * OpenTofu face's provider block by the same names): its credential fields, `allowInsecureHttp` and
 * `skipCredentialsValidation`, checked once, through the one credential resolver.
 */
import {
  type CredentialFields,
  type CredentialProblem,
  type CredentialWords,
  ENV_KEYS,
  isProblem,
  providerSources,
  pulumiField,
  type ResolvedCredentials,
  resolveCredentials,
  usableCredentials,
} from "../credentials";
import { DnsAccountError } from "../../sdk/errors";
import { resolveBaseUrl } from "../../sdk/http/transport";
import type { Failure } from "./lifecycle";
import { type UnknownKey, unknownKeys } from "./config-keys";

const STRING_KEYS = ["baseUrl", "apiKey", "username", "password", "mfaToken", "refreshToken", "profile", "credentialCommand"] as const;

/** The provider's settings: credential fields, `allowInsecureHttp` and `skipCredentialsValidation`. */
export interface PluginConfig {
  fields: CredentialFields;
  allowInsecureHttp: boolean;
  skipCredentialsValidation?: boolean;
  /** Keys the configuration holds that the provider does not read, each with the key it probably meant. */
  unknownKeys?: UnknownKey[];
}

/** How {@link readConfig} names the provider and what it checks the configuration against. */
export interface ReadConfigOptions {
  /**
   * The provider's name (the last part of its URN): an explicit provider's fields are named
   * `the apiKey of provider kids`; a default provider's (its name starts with `default`, or none is
   * known) by their stack config keys, `dns-account:apiKey`.
   */
  provider?: string | undefined;
  /**
   * The environment's credential fields: when given, the configuration's own credentials are resolved
   * with them as every resource would, and a `base_url_conflict` between the two is a failure of the
   * provider's configuration, reported once (CheckConfig), not on every resource.
   */
  env?: CredentialFields;
}

/**
 * A provider is a default provider when its name is unknown or starts with `default`; an explicit one's name.
 *
 * @example
 * ```ts
 * explicitName("kids"); // "kids"
 * ```
 */
export function explicitName(provider: string | undefined): string | undefined {
  return provider && !provider.startsWith("default") ? provider : undefined;
}

/** The words of the provider's fields: `the apiKey of provider kids`, else `dns-account:apiKey`. */
function configWords(provider: string | undefined): CredentialWords {
  const explicit = explicitName(provider);
  return {
    source: (kind) => `in ${kind}`,
    username: explicit ? `the username of provider ${explicit}, or ${ENV_KEYS.username}` : `dns-account:username or ${ENV_KEYS.username}`,
    field: (kind, field) => (kind === "config" && explicit ? `the ${field} of provider ${explicit}` : pulumiField(kind, field)),
  };
}

const CONFLICT = "base_url_conflict";

/** A source holds credentials or a base URL. */
const anyCredential = (f: CredentialFields): boolean => Object.values(f).some((v) => typeof v === "string" && v !== "");

/**
 * Reads and checks the provider's configuration (secrets already unwrapped). Failures name the key,
 * never its value: a value of the wrong type, `password` with `refreshToken`, a password without a
 * username, an unusable `baseUrl`, a `profile` the CLI's store does not have. With `options.env`, a
 * base URL and a secret of the configuration and the environment that name two origins fail as
 * `base_url_conflict` on `baseUrl` (one origin per secret), in the provider's words.
 *
 * A configuration without credentials is accepted: each resource may carry its own `credentials` (and a
 * Token its own password); a resource that finds none anywhere fails its check, listing where it looked.
 */
export async function readConfig(props: Record<string, unknown>, options: ReadConfigOptions = {}): Promise<{ config: PluginConfig; failures: Failure[] }> {
  const failures: Failure[] = [];
  const fields: CredentialFields = {};
  for (const key of STRING_KEYS) {
    const v = props[key];
    if (v === undefined || v === null || v === "") continue;
    if (typeof v !== "string") failures.push({ property: key, reason: `${key} must be a string` });
    else fields[key] = v;
  }
  const raw = props.allowInsecureHttp;
  let allowInsecureHttp = /^(1|true|yes)$/i.test(process.env.DNS_ACCOUNT_ALLOW_INSECURE_HTTP ?? "");
  if (typeof raw === "boolean") allowInsecureHttp = raw;
  else if (typeof raw === "string" && raw !== "") {
    if (/^(true|false)$/i.test(raw)) allowInsecureHttp = /^true$/i.test(raw);
    else failures.push({ property: "allowInsecureHttp", reason: "allowInsecureHttp must be true or false" });
  } else if (raw !== undefined && raw !== null) failures.push({ property: "allowInsecureHttp", reason: "allowInsecureHttp must be true or false" });
  const skipRaw = props.skipCredentialsValidation;
  let skipCredentialsValidation = false;
  if (typeof skipRaw === "boolean") skipCredentialsValidation = skipRaw;
  else if (typeof skipRaw === "string" && /^(true|false)$/i.test(skipRaw)) skipCredentialsValidation = /^true$/i.test(skipRaw);
  else if (skipRaw !== undefined && skipRaw !== null && skipRaw !== "") failures.push({ property: "skipCredentialsValidation", reason: "skipCredentialsValidation must be true or false" });

  if (fields.baseUrl !== undefined) {
    try {
      resolveBaseUrl(fields.baseUrl, allowInsecureHttp);
    } catch (err) {
      failures.push({ property: "baseUrl", reason: err instanceof DnsAccountError ? err.message : "baseUrl is not a usable URL" });
    }
  }
  const words = configWords(options.provider);
  const asFailure = (p: CredentialProblem): Failure => ({
    property: p.property,
    reason: p.code === CONFLICT ? `${CONFLICT}: ${p.reason}` : p.reason.replace(/\(in config\)/, "in the provider's configuration"),
  });
  let resolved: ResolvedCredentials | CredentialProblem = resolveCredentials([["config", fields]], { apiKey: true, words });
  // "No credentials" is not a problem of the configuration (see above); a contradiction is.
  const none = isProblem(resolved) && /^No credentials/.test(resolved.reason);
  if (isProblem(resolved) && !none) failures.push(asFailure(resolved));
  else if (options.env && anyCredential(fields)) {
    // The configuration's credentials as a resource resolves them, beside the environment: only a
    // conflict of origins is the configuration's (the environment's own mistakes are the resources').
    const withEnv = resolveCredentials(providerSources({}, fields, options.env), { apiKey: true, accessToken: true, words });
    if (isProblem(withEnv)) {
      if (withEnv.code === CONFLICT) failures.push(asFailure(withEnv));
    } else if (withEnv.source === "config") resolved = withEnv;
  }
  if (!isProblem(resolved) && resolved.mode === "profile") {
    try {
      await usableCredentials(resolved);
    } catch (err) {
      const conflict = err instanceof DnsAccountError && err.code === CONFLICT;
      failures.push({ property: conflict ? "baseUrl" : "profile", reason: err instanceof DnsAccountError ? `${conflict ? `${err.code}: ` : ""}${err.message}` : "the profile cannot be read" });
    }
  }
  return { config: { fields, allowInsecureHttp, skipCredentialsValidation, unknownKeys: unknownKeys(props) }, failures };
}

