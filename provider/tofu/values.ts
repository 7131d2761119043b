/**
 * tfplugin6 values (`DynamicValue`) as the lifecycles know them, and back (issue 34).
 *
 * tofu sends a value as msgpack (or JSON, which `UpgradeResourceState` and older clients use) of the
 * schema's type: an object with every attribute and block present, `null` where there is nothing, names
 * in snake_case. A value not known yet is a msgpack extension: code 0, or code 12 with the refinements
 * OpenTofu adds; any extension reads as unknown. The lifecycles take camelCase inputs with the absent
 * properties left out, and a value not known yet as the Pulumi engine's sentinel (provider/shared/unknown),
 * which their checks and diffs already understand. Answers go back as msgpack, unknown as extension 0,
 * with every attribute of the type present.
 *
 * The type of a value is the schema's (./schema): a {@link Shape} is read from a schema block once.
 *
 * Every call of a resource reads and writes several values (a plan: prior, proposed, config, planned), in
 * processes that live for one tofu command: one msgpack decoder and encoder serve the process, a decoded
 * value is converted where it lies (it is this module's own), and an object's fields are listed once per
 * {@link Shape} ({@link fieldsOf}), not again for each value.
 */
import { Decoder, Encoder, ExtData, ExtensionCodec } from "@msgpack/msgpack";
import { UNKNOWN } from "../shared/unknown";
import { programNames, type TfAttribute, type TfBlock } from "./schema";

/** A value of a type tofu knows: what the schema block says of each attribute, block and element. */
export type Shape =
  | { kind: "string" | "number" | "bool" }
  | { kind: "list" | "map"; of: Shape }
  | { kind: "object"; fields: Record<string, Shape>; group?: true };

/** A value not known yet, as this module holds it (decoded from, and encoded to, a msgpack extension). */
export const TF_UNKNOWN: unique symbol = Symbol("unknown");

/** A tofu value: primitives, lists, objects (maps too), null, and {@link TF_UNKNOWN}. */
export type TfValue = string | number | boolean | null | typeof TF_UNKNOWN | TfValue[] | { [key: string]: TfValue };

/** The shape of a cty type as tfplugin6 writes it in JSON (`"string"`, `["list","string"]`, `["object",{…}]`). */
function ctyShape(type: unknown): Shape {
  if (type === "string" || type === "number" || type === "bool") return { kind: type };
  if (Array.isArray(type)) {
    const [kind, of] = type as [string, unknown];
    if (kind === "list" || kind === "set") return { kind: "list", of: ctyShape(of) };
    if (kind === "map") return { kind: "map", of: ctyShape(of) };
    if (kind === "object") return { kind: "object", fields: Object.fromEntries(Object.entries(of as Record<string, unknown>).map(([k, v]) => [k, ctyShape(v)])) };
  }
  throw new Error(`no shape for the type ${JSON.stringify(type)}`);
}

function attributeShape(a: TfAttribute): Shape {
  if (a.nested_type) {
    const object: Shape = { kind: "object", fields: Object.fromEntries(a.nested_type.attributes.map((n) => [n.name, attributeShape(n)])) };
    return a.nested_type.nesting === "SINGLE" ? object : a.nested_type.nesting === "LIST" ? { kind: "list", of: object } : { kind: "map", of: object };
  }
  return ctyShape(JSON.parse(Buffer.from(a.type ?? "").toString("utf8")));
}

/**
 * The shape of a schema block: an object of its attributes and blocks. A `GROUP` block's object is
 * marked `group`: it is never null (its fields are), as tofu holds it.
 *
 * @example
 * ```ts
 * const shape = blockShape(terraformSchema().resources["dnsaccount_device"]!.block);
 * ```
 */
export function blockShape(block: TfBlock): Shape & { kind: "object" } {
  const fields: Record<string, Shape> = {};
  for (const a of block.attributes) fields[a.name] = attributeShape(a);
  for (const b of block.block_types) fields[b.type_name] = b.nesting === "GROUP" ? { ...blockShape(b.block), group: true } : blockShape(b.block);
  return { kind: "object", fields };
}

/** The field of an object {@link Shape}: its name, its shape, and the program's name of it. */
interface Field {
  name: string;
  shape: Shape;
  program: string;
}

const FIELDS = new WeakMap<Shape, readonly Field[]>();
/** The fields of an object shape, in the shape's order: listed once per shape. */
function fieldsOf(shape: Shape & { kind: "object" }): readonly Field[] {
  let fields = FIELDS.get(shape);
  if (!fields) {
    fields = Object.entries(shape.fields).map(([name, s]) => ({ name, shape: s, program: programName(name) }));
    FIELDS.set(shape, fields);
  }
  return fields;
}

/**
 * Every extension as it came ({@link ExtData}, read as unknown below), the library's timestamp (-1) too: tofu
 * sends none, and a malformed one is not a decoding error.
 */
const EXTENSIONS = new ExtensionCodec();
EXTENSIONS.register({ type: -1, encode: () => null, decode: (data, type) => new ExtData(type, data) });
/**
 * The process's msgpack decoder: integers past 2^53 as bigint. (A decoder used again is reset by each decode;
 * it keeps the last value's bytes until the next, as the encoder keeps its buffer: within one short-lived
 * provider process that also holds them as values.)
 */
const DECODER = new Decoder({ useBigInt64: true, extensionCodec: EXTENSIONS });
/** The process's msgpack encoder; `encode` answers a copy of its buffer. */
const ENCODER = new Encoder({ ignoreUndefined: false });

/**
 * Reads any extension as unknown, and the rest as is. The decoder's arrays and objects are this module's:
 * their elements are converted where they lie.
 */
function fromMsgpack(v: unknown): TfValue {
  if (v === null || typeof v !== "object") {
    // An integer past 2^53 keeps its digits (as cty's own number text), so it is echoed exactly.
    if (typeof v === "bigint") return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
    if (v === undefined) return null;
    return v as TfValue;
  }
  if (v instanceof ExtData) return TF_UNKNOWN;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = fromMsgpack(v[i]);
    return v as TfValue[];
  }
  if (v instanceof Map) return Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), fromMsgpack(x)]));
  if (v instanceof Uint8Array) return v as unknown as TfValue;
  const object = v as Record<string, unknown>;
  for (const k of Object.keys(object)) object[k] = fromMsgpack(object[k]);
  return object as TfValue;
}

/**
 * A `DynamicValue` as a tofu value: its msgpack, else its JSON; null when it carries neither.
 *
 * @example
 * ```ts
 * const config = readDynamic(request.config); // { name: "Home", settings: null, … }
 * ```
 */
export function readDynamic(value: { msgpack?: Uint8Array | null; json?: Uint8Array | null } | null | undefined): TfValue {
  if (value?.msgpack && value.msgpack.length > 0) return fromMsgpack(DECODER.decode(value.msgpack));
  if (value?.json && value.json.length > 0) return JSON.parse(Buffer.from(value.json).toString("utf8")) as TfValue;
  return null;
}

const UNKNOWN_EXT = new ExtData(0, Uint8Array.of(0));

/** A number as cty writes one that float64 cannot hold exactly (`0.1`, `1e400`, an integer past 2^53). */
const NUMBER_TEXT = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * `value` as `shape` wants it: every field of an object present. A number tofu sent as text stays text:
 * cty compares numbers exactly, so `0.1` read back as a float64 would be another number to it.
 */
function conform(value: TfValue | undefined, shape: Shape): unknown {
  if ((value === undefined || value === null) && shape.kind === "object" && shape.group) return conform({}, shape);
  if (value === undefined || value === null) return null;
  if (value === TF_UNKNOWN) return UNKNOWN_EXT;
  switch (shape.kind) {
    case "string":
      // A lone UTF-16 surrogate (a service may return one in JSON) has no UTF-8 form: U+FFFD, as the HCL
      // export writes it, so that the state and an exported configuration say the same.
      return typeof value === "string" ? value.toWellFormed() : String(value);
    case "number":
      return typeof value === "number" || (typeof value === "string" && NUMBER_TEXT.test(value)) ? value : Number(value);
    case "bool":
      return value;
    case "list":
      return (value as TfValue[]).map((v) => conform(v, shape.of));
    case "map":
      return Object.fromEntries(Object.entries(value as Record<string, TfValue>).map(([k, v]) => [k, conform(v, shape.of)]));
    case "object": {
      const object = value as Record<string, TfValue>;
      const out: Record<string, unknown> = {};
      for (const f of fieldsOf(shape)) out[f.name] = conform(object[f.name], f.shape);
      return out;
    }
  }
}

/**
 * A tofu value as a msgpack `DynamicValue` of `shape`: every field present, a group block (`settings`)
 * an object even where the value holds none (tofu refuses a null one).
 *
 * @example
 * ```ts
 * response.planned_state = dynamic(planned, shape);
 * ```
 */
export function dynamic(value: TfValue, shape: Shape): { msgpack: Buffer } {
  const bytes = ENCODER.encode(conform(value, shape));
  return { msgpack: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

let names: Map<string, string> | undefined;
/** The program's name of a snake_case attribute (names the schema does not have stay as they are). */
function programName(tf: string): string {
  names ??= programNames();
  return names.get(tf) ?? tf;
}
let tfNames: Map<string, string> | undefined;
/**
 * The attribute's name of a program property (`dnsServerId` → `dns_server_id`).
 *
 * @example
 * ```ts
 * tfName("dnsServerId"); // "dns_server_id"
 * ```
 */
export function tfName(program: string): string {
  names ??= programNames();
  tfNames ??= new Map([...names.entries()].map(([tf, p]) => [p, tf]));
  return tfNames.get(program) ?? program;
}

/**
 * A tofu value as the lifecycles take it: camelCase names, nulls left out, unknown as the sentinel.
 * Map keys (a Token's `keepers`) are the user's and stay as they are. A group block with no field set
 * is left out too: it is what a configuration without the block says.
 *
 * @example
 * ```ts
 * toProgram({ dns_server_id: "s1", settings: null }, shape); // { dnsServerId: "s1" }
 * ```
 */
export function toProgram(value: TfValue, shape: Shape): unknown {
  if (value === null) return undefined;
  if (value === TF_UNKNOWN) return UNKNOWN;
  if (shape.kind === "list" && Array.isArray(value)) return value.map((v) => toProgram(v, shape.of) ?? null);
  if (shape.kind === "map" && typeof value === "object" && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toProgram(v, shape.of)]));
  }
  if (shape.kind === "object" && typeof value === "object" && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const f of fieldsOf(shape)) {
      const v = toProgram(value[f.name] ?? null, f.shape);
      if (v !== undefined) out[f.program] = v;
    }
    return shape.group && Object.keys(out).length === 0 ? undefined : out;
  }
  // A number tofu sent as text is the lifecycles' number (nearest float64; a value past 2^53 is far out of
  // every range they accept, and text that is no number is NaN, which they refuse).
  if (shape.kind === "number" && typeof value === "string") return Number(value);
  return value;
}

/**
 * The lifecycles' camelCase value as a tofu value of `shape`: every field present (null when absent),
 * the sentinel as unknown; properties the shape does not have are left out. (A group block absent here
 * is sent to tofu as an object of nulls: see `dynamic`.)
 *
 * @example
 * ```ts
 * fromProgram({ deviceId: "d1", name: "Laptop" }, shape); // { device_id: "d1", name: "Laptop", settings: null, … }
 * ```
 */
export function fromProgram(value: unknown, shape: Shape): TfValue {
  if (value === undefined || value === null) return null;
  if (value === UNKNOWN) return TF_UNKNOWN;
  switch (shape.kind) {
    case "list":
      return Array.isArray(value) ? value.map((v) => fromProgram(v, shape.of)) : null;
    case "map":
      return typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromProgram(v, shape.of)])) : null;
    case "object": {
      if (typeof value !== "object" || Array.isArray(value)) return null;
      const object = value as Record<string, unknown>;
      const out: Record<string, TfValue> = {};
      for (const f of fieldsOf(shape)) out[f.name] = fromProgram(object[f.program], f.shape);
      return out;
    }
    case "number":
      return typeof value === "number" ? value : Number(value);
    case "bool":
      return Boolean(value);
    default:
      return String(value);
  }
}

/**
 * Whether a tofu value holds an unknown anywhere.
 *
 * @example
 * ```ts
 * hasUnknown({ name: TF_UNKNOWN }); // true
 * ```
 */
export function hasUnknown(value: TfValue): boolean {
  if (value === TF_UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(hasUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(hasUnknown);
  return false;
}
