/**
 * The OpenTofu/Terraform face's words: messages of the lifecycles and the credential resolver said in
 * tofu's names (snake_case attributes, the provider block), and as tfplugin6 diagnostics on attribute
 * paths.
 */
import { DnsAccountError } from "../../sdk/errors";
import type { Failure } from "../shared/lifecycle";
import { type Document, schema as packageSchema } from "../schema/shape";
import { snake } from "./schema";
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

/** A camelCase name of the package's schema (one with a capital), for {@link tofuWords}. */
let camelNames: RegExp | undefined;

/**
 * A message of the lifecycles or the credential resolver in tofu's words: program properties in
 * snake_case (`dnsServerId` → `dns_server_id`), the Pulumi provider's configuration keys as the provider
 * block's arguments (`dns-account:apiKey` → `api_key in the provider block`), stack config as the
 * provider block. Messages never hold values, so only names change.
 *
 * @example
 * ```ts
 * tofuWords("set dns-account:apiKey or DNS_ACCOUNT_API_KEY"); // "set api_key in the provider block or DNS_ACCOUNT_API_KEY"
 * ```
 */
export function tofuWords(text: string): string {
  if (!camelNames) {
    const names = [...new Set(collectNames(packageSchema))].filter((n) => /[A-Z]/.test(n)).sort((a, b) => b.length - a.length);
    camelNames = new RegExp(`(?<![A-Za-z0-9_:-])(${names.join("|")})(?![A-Za-z0-9_])`, "g");
  }
  // Where the resources look for credentials, said for a configuration file (the environment's part as is).
  const none = /^No credentials: give the (resource|call) credentials .*?, or set (.*)$/s.exec(text);
  if (none) {
    text =
      `No credentials: give the ${none[1] === "call" ? "data source" : "resource"} a credentials block (a Token's base_url and refresh_token), or set them in the provider block ` +
      `(api_key; username with password; refresh_token; profile; credential_command), or set ${none[2]}`;
  }
  // An object kept at destroy: what brings it back is an import block here.
  const kept = /^(DnsServer|Device) (\S+) is kept at the service \(deleteOnDestroy: false.*$/s.exec(text);
  if (kept) {
    const type = kept[1] === "Device" ? "dnsaccount_device" : "dnsaccount_dns_server";
    return `${kept[1]} ${kept[2]} is kept at the service (delete_on_destroy = false): the state forgets it. Bring it back with an import block (to = ${type}.<name>, id = "${kept[2]}")`;
  }
  return text
    .replace(/the provider's (\w+), dns-account:\1,/g, (_m, k: string) => `${snake(k)} in the provider block,`)
    .replace(/ \(or the mfaToken argument\)/g, "")
    .replace(/`pulumi config set (?:--secret )?dns-account:(\w+)[^`]*`/g, (_m, k: string) => `${snake(k)} in the provider block`)
    .replace(/dns-account:(\w+)/g, (_m, k: string) => `${snake(k)} in the provider block`)
    .replace(/\bstack config\b/g, "the provider block")
    .replace(/\bresource args\b/g, "resource arguments")
    .replace(camelNames, (n) => snake(n));
}

function collectNames(schema: Document): string[] {
  const out: string[] = Object.keys(schema.config.variables);
  for (const r of Object.values(schema.resources)) out.push(...Object.keys(r.inputProperties), ...Object.keys(r.properties));
  for (const t of Object.values(schema.types)) out.push(...Object.keys(t.properties ?? {}));
  for (const f of Object.values(schema.functions)) out.push(...Object.keys(f.inputs.properties ?? {}), ...Object.keys(f.outputs.properties ?? {}));
  return out;
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
