/**
 * The OpenTofu/Terraform face's words: messages of the lifecycles and the credential resolver said in
 * tofu's names (snake_case attributes, the provider block), and as tfplugin6 diagnostics on attribute
 * paths.
 */
import { DnsAccountError } from "../../sdk/errors";
import { type CredentialWords, ENV_KEYS } from "../credentials";
import type { Failure, SurfaceWords } from "../shared/lifecycle";
import { resourceType, snake, tofuNames } from "./schema";
import { tfName } from "./values";

/** A tfplugin6 diagnostic, as the loader's plain object. */
export interface Diagnostic {
  severity: "ERROR" | "WARNING";
  summary: string;
  detail: string;
  attribute?: { steps: ({ attribute_name: string } | { element_key_int: number } | { element_key_string: string })[] };
}

/**
 * A property path of a failure (`settings.userRules.rules[3]`) as tofu's attribute path.
 *
 * @example
 * ```ts
 * attributePath("settings.userRules.rules[3]"); // steps settings, user_rules, rules, [3]
 * ```
 */
export function attributePath(property: string): NonNullable<Diagnostic["attribute"]> {
  const steps: NonNullable<Diagnostic["attribute"]>["steps"] = [];
  for (const part of property.split(".")) {
    const m = /^([^[\]]+)((?:\[\d+\])*)$/.exec(part);
    if (!m) break;
    steps.push({ attribute_name: tfName(m[1]!) });
    for (const index of m[2]!.match(/\d+/g) ?? []) steps.push({ element_key_int: Number(index) });
  }
  return { steps };
}

/** How tofu allows plain http to a host other than loopback. */
const INSECURE = "set allow_insecure_http = true in the provider block (or DNS_ACCOUNT_ALLOW_INSECURE_HTTP=true)";

/** What the SDK says of an MFA code the service refused, or of one it wanted (a password login's errors). */
const MFA_REFUSED = /rejected the MFA code|\bmfa_required\b|\b2fa_(?:invalid|required)\b/i;
/** Said once per message. */
const MFA_CODE_REFUSED_MARK = "each phase logs in";

/**
 * Why `mfa_token` in the provider block fails in tofu, and what to do instead: tofu starts the provider
 * anew for each phase (plan, apply), each logs in, and a code works once. {@link tofuWords} adds it to a
 * message whose MFA code the service refused; a Token's create says it instead of Pulumi's hint.
 *
 * @example
 * ```ts
 * tofuWords("invalid_credentials: The token endpoint rejected the MFA code").endsWith(TOFU_MFA); // true
 * ```
 */
export const TOFU_MFA =
  "mfa_token in the provider block is a single-use code, and tofu starts the provider anew for each phase (plan, then apply): " +
  `${MFA_CODE_REFUSED_MARK}, so the code works for the first only. Log in once with \`dns-account login\` and set profile in the provider block ` +
  "(or DNS_ACCOUNT_PROFILE), or give a refresh_token (the provider block's, or a dnsaccount_token's in a credentials block) instead";

/** The provider block's credential arguments, as "No credentials" lists them. */
const PROVIDER_BLOCK = "the provider block (api_key; username with password; refresh_token; profile; credential_command)";
/** The provider block's arguments a Token can log in with (not an API key). */
const PROVIDER_BLOCK_TOKEN = "the provider block (username with password; refresh_token; profile; credential_command)";
/** The environment's, as a Token's "No credentials" lists them. */
const ENVIRONMENT_TOKEN =
  "DNS_ACCOUNT_USERNAME with DNS_ACCOUNT_PASSWORD, DNS_ACCOUNT_REFRESH_TOKEN, DNS_ACCOUNT_PROFILE or DNS_ACCOUNT_CREDENTIAL_COMMAND, or run dns-account login (the default profile)";
/** The environment's, as "No credentials" lists them. */
const ENVIRONMENT =
  "DNS_ACCOUNT_API_KEY, DNS_ACCOUNT_ACCESS_TOKEN, DNS_ACCOUNT_REFRESH_TOKEN, DNS_ACCOUNT_USERNAME with DNS_ACCOUNT_PASSWORD, " +
  "DNS_ACCOUNT_PROFILE or DNS_ACCOUNT_CREDENTIAL_COMMAND, or run dns-account login (the default profile)";

/** One credential field of one place, in tofu's names. */
function tofuField(kind: "args" | "config" | "environment", field: string, args: (field: string) => string): string {
  if (kind === "environment") return ENV_KEYS[field as keyof typeof ENV_KEYS];
  return kind === "config" ? `${snake(field)} in the provider block` : args(snake(field));
}

/** A Token's credential places: its arguments (only refresh_token and base_url here), the provider block, the environment. */
const TOKEN_CREDENTIALS: CredentialWords = {
  source: (kind) => (kind === "args" ? "on the dnsaccount_token" : kind === "config" ? "in the provider block" : kind === "environment" ? "in the environment" : "in the profile"),
  username: `username in the provider block or ${ENV_KEYS.username}`,
  field: (kind, field) => tofuField(kind, field, (f) => `${f} of the dnsaccount_token`),
};

/** An account resource's credential places: its credentials block, the provider block, the environment. */
const ACCOUNT_CREDENTIALS: CredentialWords = {
  source: (kind) => (kind === "args" ? "in the credentials block" : kind === "config" ? "in the provider block" : kind === "environment" ? "in the environment" : "in the profile"),
  username: `username in the provider block or ${ENV_KEYS.username}`,
  field: (kind, field) => tofuField(kind, field, (f) => `credentials.${f}`),
};

/**
 * The OpenTofu face's words for the lifecycles ({@link SurfaceWords}): a credentials block, the provider
 * block, an import block, a refused MFA code. The face puts them in every call's
 * `ProviderContext` (`words: TOFU_WORDS`).
 *
 * @example
 * ```ts
 * TOFU_WORDS.kept("Device", "d1"); // "dnsaccount_device d1 is kept at the service … an import block (to = dnsaccount_device.<name>, id = \"d1\")"
 * ```
 */
export const TOFU_WORDS: SurfaceWords = {
  noCredentials: (who) =>
    who === "token"
      ? `No credentials: give the dnsaccount_token a refresh_token, or set them in ${PROVIDER_BLOCK_TOKEN}, or set ${ENVIRONMENT_TOKEN}`
      : `No credentials: give the ${who === "call" ? "data source" : "resource"} a credentials block (a dnsaccount_token's base_url and refresh_token), ` +
        `or set them in ${PROVIDER_BLOCK}, or set ${ENVIRONMENT}`,
  kept: (type, id) => {
    const tf = resourceType(type);
    return `${tf} ${id} is kept at the service (delete_on_destroy = false): the state forgets it. Bring it back with an import block (to = ${tf}.<name>, id = "${id}")`;
  },
  mfa: TOFU_MFA,
  tokenLogins: "(username with password in the provider block) or adopts a refresh token (refresh_token of the dnsaccount_token, or profile or credential_command in the provider block)",
  tokenCredentials: TOKEN_CREDENTIALS,
  accountCredentials: ACCOUNT_CREDENTIALS,
};

/**
 * A message of the lifecycles, the credential resolver or the SDK in tofu's names: program properties in
 * snake_case (`dnsServerId` → `dns_server_id`), the Pulumi provider's configuration keys as the provider
 * block's arguments (`dns-account:apiKey` → `api_key in the provider block`), stack config as the
 * provider block, the package's types and functions as tofu's resource types and data sources, and an
 * MFA code the service refused explained for tofu's phases ({@link TOFU_MFA}). Whole sentences are the
 * lifecycles' own, in the words the face passes them ({@link TOFU_WORDS}). Messages never hold values,
 * so only names change.
 *
 * @example
 * ```ts
 * tofuWords("set dns-account:apiKey or DNS_ACCOUNT_API_KEY"); // "set api_key in the provider block or DNS_ACCOUNT_API_KEY"
 * ```
 */
export function tofuWords(text: string): string {
  // A password login of the provider block refused for its MFA code: tofu's phases each log in.
  if (MFA_REFUSED.test(text) && !text.includes(MFA_CODE_REFUSED_MARK)) text = `${text}. ${TOFU_MFA}`;
  const said = text
    .replace(/the provider's (\w+), dns-account:\1,/g, (_m, k: string) => `${snake(k)} in the provider block,`)
    .replace(/the provider's (\w+) \(dns-account:\1\)/g, (_m, k: string) => `${snake(k)} in the provider block`)
    .replace(/ \(or the mfaToken argument\)/g, "")
    .replace(/`pulumi config set (?:--secret )?dns-account:(\w+)[^`]*`/g, (_m, k: string) => `${snake(k)} in the provider block`)
    .replace(/dns-account:(\w+)/g, (_m, k: string) => `${snake(k)} in the provider block`)
    .replace(/\bstack config\b/g, "the provider block")
    .replace(/\bresource args\b/g, "resource arguments")
    // The SDK's way to allow plain http (a base URL's check), as the CLI rewrites it for its flags.
    .replace(/\bset allowInsecureHttp\b/g, INSECURE);
  // A gRPC string must be UTF-8 (tofu's Go side refuses the message otherwise): a lone surrogate, which a
  // name the service returned may hold, becomes U+FFFD.
  return tofuNames(said).toWellFormed();
}

/**
 * Check failures as error diagnostics on their attributes.
 *
 * @example
 * ```ts
 * failureDiagnostics([{ property: "name", reason: "name must be 1 to 64 characters" }]);
 * ```
 */
export function failureDiagnostics(failures: readonly Failure[]): Diagnostic[] {
  return failures.map((f) => ({ severity: "ERROR", summary: "Invalid configuration", detail: tofuWords(f.reason), attribute: attributePath(f.property) }));
}

/**
 * An error of a call as a diagnostic: our errors' stable code is kept in view; nothing else is added
 * (the package's errors name fields, never values).
 *
 * @example
 * ```ts
 * errorDiagnostic("Creating dnsaccount_device.laptop", err);
 * ```
 */
export function errorDiagnostic(summary: string, err: unknown): Diagnostic {
  const message = err instanceof DnsAccountError && !err.message.includes(err.code) ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
  return { severity: "ERROR", summary, detail: tofuWords(message) };
}
