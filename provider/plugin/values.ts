/**
 * Property values between the engine's wire form and the lifecycles' plain objects: secrets (the engine
 * wraps them in a signature object at any depth once a provider accepts secrets), values with no JSON
 * form (`undefined`), and outputs shaped by the schema (only declared properties, camelCase keys, secret
 * properties wrapped).
 */

/** The engine's signature of a secret value: `{ [SIG]: SECRET, value }`. */
export const SIG = "4dabf18193072939515e22adb298388d";
/** The signature's value for a secret. */
export const SECRET = "1b47061264138c4ac30d75fd1eb44270";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** True when `v` is the engine's secret wrapper. */
export function isSecret(v: unknown): v is { value: unknown } {
  return isObject(v) && v[SIG] === SECRET;
}

/** Wraps `value` as a secret (once). */
export function secret(value: unknown): unknown {
  return isSecret(value) ? value : { [SIG]: SECRET, value };
}

/**
 * Removes the secret wrappers at every depth, and says which top-level properties held one (so outputs
 * of those properties go back as secrets: a value the user made secret stays secret).
 *
 * @example
 * ```ts
 * unwrap({ name: { [SIG]: SECRET, value: "Home" } }); // { value: { name: "Home" }, secretKeys: Set { "name" } }
 * ```
 */
export function unwrap(props: Json): { value: Json; secretKeys: Set<string> } {
  const secretKeys = new Set<string>();
  const value: Json = {};
  for (const [k, v] of Object.entries(props)) {
    if (containsSecret(v)) secretKeys.add(k);
    value[k] = plain(v);
  }
  return { value, secretKeys };
}

function containsSecret(v: unknown): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(containsSecret);
  if (isObject(v)) return Object.values(v).some(containsSecret);
  return false;
}

function plain(v: unknown): unknown {
  if (isSecret(v)) return plain(v.value);
  if (Array.isArray(v)) return v.map(plain);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

/**
 * A lifecycle's result ready for a protobuf Struct: no `undefined` anywhere (dropped from objects, `null`
 * in arrays), and the properties named in `secrets` wrapped.
 */
export function wire(props: object, secrets: ReadonlySet<string>): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    const clean = JSON.parse(JSON.stringify(v)) as unknown;
    out[k] = secrets.has(k) ? secret(clean) : clean;
  }
  return out;
}
