/**
 * The package schema as the plugin serves and applies it: `GetSchema`'s text, which properties of a
 * resource or function are secret, and outputs projected onto their declared properties.
 */
import document from "../schema/schema.json";

/** One property of the schema. */
export interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  secret?: boolean;
  description?: string;
}

interface ObjectSpec {
  properties?: Record<string, PropertySpec>;
  required?: string[];
  enum?: unknown[];
}

interface Document {
  config: { variables: Record<string, PropertySpec> };
  types: Record<string, ObjectSpec>;
  resources: Record<string, { inputProperties: Record<string, PropertySpec>; properties: Record<string, PropertySpec> }>;
  functions: Record<string, { inputs: ObjectSpec; outputs: ObjectSpec }>;
}

/** The schema (read-only: never mutate it). */
export const schema = document as unknown as Document;

/** `GetSchema`'s answer: the schema with the package's version. */
export function schemaText(version: string): string {
  return JSON.stringify({ ...(document as object), version });
}

const secretsOf = (props: Record<string, PropertySpec> = {}): Set<string> => new Set(Object.entries(props).filter(([, p]) => p.secret).map(([k]) => k));

/** Secret output properties of a resource type token. */
export function secretOutputs(type: string): Set<string> {
  return secretsOf(schema.resources[type]?.properties);
}

/** Secret input properties of a resource type token. */
export function secretInputs(type: string): Set<string> {
  return secretsOf(schema.resources[type]?.inputProperties);
}

/** Secret configuration keys. */
export function secretConfig(): Set<string> {
  return secretsOf(schema.config.variables);
}

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
