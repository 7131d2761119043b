/**
 * The plugin's provider configuration: the keys of the schema's `config.variables`, as CheckConfig and
 * Configure receive them (plain keys in `args`, secrets wrapped; or the older `variables` map
 * `dns-account:config:<key>`), checked the way `dns-account:*` stack config is, and turned into the
 * {@link ProviderContext} every lifecycle call of this provider gets.
 */
import { type CredentialFields, isProblem, resolveCredentials, usableCredentials } from "../credentials";
import { DnsAccountError } from "../../sdk/errors";
import { resolveBaseUrl } from "../../sdk/http/transport";
import type { Failure } from "../shared/lifecycle";
import { schema } from "./schema";

const STRING_KEYS = ["baseUrl", "apiKey", "username", "password", "mfaToken", "refreshToken", "profile", "credentialCommand"] as const;

/** The provider's settings: credential fields and `allowInsecureHttp`. */
export interface PluginConfig {
  fields: CredentialFields;
  allowInsecureHttp: boolean;
}

/** `dns-account:config:baseUrl` → `baseUrl`; the engine's older variables map. */
export function fromVariables(variables: ReadonlyMap<string, string> | [string, string][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of variables instanceof Map ? variables.entries() : variables) {
    const m = /^dns-account:(?:config:)?([A-Za-z]+)$/.exec(k);
    if (m) out[m[1]!] = v;
  }
  return out;
}

/**
 * Reads and checks the provider's configuration (secrets already unwrapped). Failures name the key,
 * never its value: a value of the wrong type, `password` with `refreshToken`, a password without a
 * username, an unusable `baseUrl`, a `profile` the CLI's store does not have.
 *
 * A configuration without credentials is accepted: each resource may carry its own `credentials` (and a
 * Token its own password); a resource that finds none anywhere fails its check, listing where it looked.
 */
export async function readConfig(props: Record<string, unknown>): Promise<{ config: PluginConfig; failures: Failure[] }> {
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

  if (fields.baseUrl !== undefined) {
    try {
      resolveBaseUrl(fields.baseUrl, allowInsecureHttp);
    } catch (err) {
      failures.push({ property: "baseUrl", reason: err instanceof DnsAccountError ? err.message : "baseUrl is not a usable URL" });
    }
  }
  const resolved = resolveCredentials([["config", fields]], { apiKey: true });
  if (isProblem(resolved)) {
    // "No credentials" is not a problem of the configuration (see above); a contradiction is.
    if (!/^No credentials/.test(resolved.reason)) failures.push({ property: resolved.property, reason: resolved.reason.replace(/\(in config\)/, "in the provider's configuration") });
  } else if (resolved.mode === "profile") {
    try {
      await usableCredentials(resolved);
    } catch (err) {
      const conflict = err instanceof DnsAccountError && err.code === "base_url_conflict";
      failures.push({ property: conflict ? "baseUrl" : "profile", reason: err instanceof DnsAccountError ? `${conflict ? `${err.code}: ` : ""}${err.message}` : "the profile cannot be read" });
    }
  }
  return { config: { fields, allowInsecureHttp }, failures };
}

/** Configuration keys the schema declares (the engine may add others, such as `version`). */
export function knownKey(key: string): boolean {
  return Object.hasOwn(schema.config.variables, key);
}
