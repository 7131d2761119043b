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
    if (omitted(v)) continue;
    const clean = jsonValue(v);
    own(out, k, secrets.has(k) ? secret(clean) : clean);
  }
  return out;
}

/** What JSON leaves out of an object (and writes as `null` in an array). */
const omitted = (v: unknown): boolean => v === undefined || typeof v === "function" || typeof v === "symbol";

/**
 * `JSON.parse(JSON.stringify(v))` in one walk, without the text in between: `toJSON` honoured, a
 * non-finite number `null`, what JSON omits dropped from objects and `null` in arrays.
 */
function jsonValue(v: unknown): unknown {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return Number.isFinite(v) ? v + 0 : null; // -0 is 0 in JSON
  if (typeof v === "bigint") throw new TypeError("Do not know how to serialize a BigInt");
  if (typeof (v as { toJSON?: unknown }).toJSON === "function") return jsonValue((v as { toJSON(): unknown }).toJSON());
  if (Array.isArray(v)) return v.map((x) => (omitted(x) ? null : jsonValue(x)));
  const out: Json = {};
  for (const [k, x] of Object.entries(v as Json)) if (!omitted(x)) own(out, k, jsonValue(x));
  return out;
}

/** Sets an own property, `__proto__` included (as JSON.parse makes it), never the prototype. */
function own(o: Json, k: string, x: unknown): void {
  if (k === "__proto__") Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
  else o[k] = x;
}
