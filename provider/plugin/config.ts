/**
 * The plugin's provider configuration: the keys of the schema's `config.variables`, as CheckConfig and
 * Configure receive them (plain keys in `args`, secrets wrapped; or the older `variables` map
 * `dns-account:config:<key>`), checked the way `dns-account:*` stack config is ({@link readConfig},
 * shared with the OpenTofu face), and turned into the {@link ProviderContext} every lifecycle call of
 * this provider gets.
 */
import { explicitName } from "../shared/provider-config";
import { keyWords, type UnknownKey } from "../shared/config-keys";
import { schema } from "./schema";

export { type UnknownKey, unknownKeys } from "../shared/config-keys";
export { type PluginConfig, readConfig, type ReadConfigOptions } from "../shared/provider-config";

/**
 * {@link unknownKeys} said in the provider's words: `dns-account:apikey`, or `apikey of provider kids`
 * for an explicit provider.
 *
 * @example
 * ```ts
 * const { warnings, credentialHint } = unknownKeyWords([{ key: "apikey", meant: "apiKey" }], "kids");
 * ```
 */
export function unknownKeyWords(keys: readonly UnknownKey[], provider: string | undefined): { warnings: string[]; credentialHint?: string } {
  const explicit = explicitName(provider);
  return keyWords(keys, (k) => (explicit ? `${k} of provider ${explicit}` : `dns-account:${k}`));
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

/** The provider's name from a request's URN (`urn:pulumi:dev::home::pulumi:providers:dns-account::kids` → `kids`). */
export function providerName(urn: string | undefined, name?: string): string | undefined {
  if (name) return name;
  const parts = String(urn ?? "").split("::");
  return parts.length >= 4 ? parts[parts.length - 1] : undefined;
}

/** Configuration keys the schema declares (the engine may add others, such as `version`). */
export function knownKey(key: string): boolean {
  return Object.hasOwn(schema.config.variables, key);
}
