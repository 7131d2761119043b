/**
 * The provider's configuration keys, and what to say of a key that is none of them (a misspelled
 * `dns-account:apikey` is otherwise silently ignored). Shared by both engine faces.
 */
/** A configuration key the provider does not read, and the setting it is closest to (if any is close). */
export interface UnknownKey {
  key: string;
  meant?: string;
}

/**
 * The provider's settings: the keys of the schema's `config.variables` (test/provider/secret-failures.test.ts
 * holds the two equal), read from `dns-account:<key>` stack config or an explicit provider's arguments.
 */
export const SETTINGS: readonly string[] = ["baseUrl", "apiKey", "username", "password", "mfaToken", "refreshToken", "profile", "credentialCommand", "allowInsecureHttp", "skipCredentialsValidation"];

/** Keys the engine itself adds to a provider's configuration. */
const ENGINE_KEYS = new Set(["version", "pluginDownloadURL"]);

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = here;
    }
  }
  return row[b.length]!;
}

/**
 * The keys of `props` that are no setting of this provider (a misspelling such as `apikey`, or a key of
 * another tool such as `ttl`), each with the setting it most probably meant: the same letters in another
 * case, else one at most two edits away. Keys the engine adds (`version`) are not reported.
 *
 * @example
 * ```ts
 * unknownKeys({ apikey: "…", ttl: "60" }); // [{ key: "apikey", meant: "apiKey" }, { key: "ttl" }]
 * ```
 */
export function unknownKeys(props: Record<string, unknown>): UnknownKey[] {
  const known = SETTINGS;
  const out: UnknownKey[] = [];
  for (const key of Object.keys(props)) {
    if (known.includes(key) || ENGINE_KEYS.has(key) || key.startsWith("__")) continue;
    const same = known.find((k) => k.toLowerCase() === key.toLowerCase());
    const near = same ?? known.map((k) => [k, distance(k.toLowerCase(), key.toLowerCase())] as const).filter(([, d]) => d <= 2).sort((a, b) => a[1] - b[1])[0]?.[0];
    out.push(near ? { key, meant: near } : { key });
  }
  return out;
}

/** The credential settings among the configuration's keys. */
const CREDENTIAL_KEYS = new Set<string>(["apiKey", "username", "password", "mfaToken", "refreshToken", "profile", "credentialCommand"]);

/**
 * What to say of the unknown keys: one warning each, with `name` giving a key's words on the user's
 * surface (`dns-account:apikey`), and the hint that goes after "No credentials" when one of them was meant
 * to be a credential.
 *
 * @example
 * ```ts
 * const { warnings, credentialHint } = keyWords([{ key: "apikey", meant: "apiKey" }], (k) => `dns-account:${k}`);
 * ```
 */
export function keyWords(keys: readonly UnknownKey[], name: (key: string) => string): { warnings: string[]; credentialHint?: string } {
  const settings = SETTINGS.join(", ");
  const warnings = keys.map((k) =>
    k.meant ? `${name(k.key)} is not a setting of this provider and is ignored: did you mean ${name(k.meant)}?` : `${name(k.key)} is not a setting of this provider and is ignored (its settings: ${settings})`,
  );
  const credential = keys.filter((k) => k.meant && CREDENTIAL_KEYS.has(k.meant));
  return credential.length === 0 ? { warnings } : { warnings, credentialHint: credential.map((k) => `${name(k.key)} is set, which this provider does not read: did you mean ${name(k.meant!)}?`).join(" ") };
}

