/**
 * The package schema (`schema.json`) as code applies it: the document, and values shaped by it
 * (outputs projected onto their declared properties, the service's snake_case keys in camelCase). Used by
 * both faces: the plugin and the TypeScript functions.
 */
import document from "./schema.json";

/** One property of the schema. */
export interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  secret?: boolean;
  description?: string;
  deprecationMessage?: string;
}

/** An object type, or a function's inputs or outputs, of the schema. */
export interface ObjectSpec {
  /** `object`, or an enum's underlying type (`string`, `integer`, …). */
  type?: string;
  properties?: Record<string, PropertySpec>;
  required?: string[];
  enum?: unknown[];
}

/** The parts of the schema document that code reads. */
export interface Document {
  config: { variables: Record<string, PropertySpec> };
  types: Record<string, ObjectSpec>;
  resources: Record<string, { description?: string; inputProperties: Record<string, PropertySpec>; properties: Record<string, PropertySpec>; requiredInputs?: string[] }>;
  functions: Record<string, { description?: string; inputs: ObjectSpec; outputs: ObjectSpec }>;
}

/** The schema (read-only: never mutate it). */
export const schema = document as unknown as Document;

/**
 * Keeps only what the schema declares of `value` (objects by their properties, arrays by their items,
 * maps by their values), so an output never carries a field the schema (and the SDKs made from it) do
 * not know.
 */
export function project(value: unknown, spec: PropertySpec | ObjectSpec): unknown {
  if (value === null || value === undefined) return undefined;
  if ("$ref" in spec && spec.$ref) {
    const target = schema.types[decodeURIComponent(spec.$ref.replace("#/types/", ""))];
    return target && !target.enum ? project(value, target) : value;
  }
  if ("items" in spec && spec.items && Array.isArray(value)) return value.map((v) => project(v, spec.items!) ?? null);
  if ("additionalProperties" in spec && spec.additionalProperties && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, project(v, spec.additionalProperties!)]));
  }
  if ("properties" in spec && spec.properties && typeof value === "object" && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, p] of Object.entries(spec.properties)) {
      const v = project((value as Record<string, unknown>)[k], p);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  return value;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `filter_id` → `filterId`, at every depth of plain objects (keys of arrays' objects included). */
export function camelKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(camelKeys);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()), camelKeys(x)]));
  return v;
}
