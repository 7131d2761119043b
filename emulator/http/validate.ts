import { REFERENCE } from "../openapi/reference.generated";
import type { Schema } from "../openapi/schema";
import { type FieldError, required, wrong } from "./errors";

const MAX_ARRAY = 10_000;

function resolve(schema: Schema): Schema {
  let s = schema;
  for (let depth = 0; s.$ref && depth < 8; depth++) s = REFERENCE.components.schemas[s.$ref.slice("#/components/schemas/".length)] ?? {};
  return s;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function check(schema: Schema, value: unknown, field: string, errors: FieldError[]): void {
  const s = resolve(schema);
  const name = field || "body";
  if (s.enum && !s.enum.includes(value)) return void errors.push(wrong(name, "Not one of the allowed values"));
  switch (s.type) {
    case "object": {
      if (!isObject(value)) return void errors.push(wrong(name, "Must be an object"));
      for (const key of s.required ?? []) if (value[key] === undefined) errors.push(required(field ? `${field}.${key}` : key));
      for (const [key, sub] of Object.entries(s.properties ?? {})) {
        if (value[key] !== undefined) check(sub, value[key], field ? `${field}.${key}` : key, errors);
      }
      return;
    }
    case "array": {
      if (!Array.isArray(value)) return void errors.push(wrong(name, "Must be an array"));
      if (value.length > MAX_ARRAY) return void errors.push({ field: name, error_code: "FIELD_REACHED_LIMIT", message: "Too many items" });
      if (s.items) value.forEach((item, i) => check(s.items!, item, `${name}[${i}]`, errors));
      return;
    }
    case "string":
      if (typeof value !== "string") return void errors.push(wrong(name, "Must be a string"));
      if ((s.minLength !== undefined && value.length < s.minLength) || (s.maxLength !== undefined && value.length > s.maxLength)) {
        errors.push(wrong(name, `Must be ${s.minLength ?? 0} to ${s.maxLength ?? "any number of"} characters`));
      }
      return;
    case "integer":
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value) || (s.type === "integer" && !Number.isInteger(value))) {
        return void errors.push(wrong(name, `Must be ${s.type === "integer" ? "an integer" : "a number"}`));
      }
      if ((s.minimum !== undefined && (value < s.minimum || (s.exclusiveMinimum && value === s.minimum))) || (s.maximum !== undefined && value > s.maximum)) {
        errors.push(wrong(name, "Out of range"));
      }
      return;
    case "boolean":
      if (typeof value !== "boolean") errors.push(wrong(name, "Must be a boolean"));
      return;
    default:
      return;
  }
}

/**
 * Validates a request body against one of the service's schemas (by name), returning field errors
 * named by path (`user_rules_settings.rules[2]`), never by value.
 *
 * @example
 * ```ts
 * validate("DeviceSettingsUpdate", { protection_enabled: "yes" }); // [{ field: "protection_enabled", … }]
 * ```
 */
export function validate(schemaName: string, body: unknown): FieldError[] {
  const errors: FieldError[] = [];
  check({ $ref: `#/components/schemas/${schemaName}` }, body, "", errors);
  return errors;
}

/**
 * Keeps only the properties a schema declares (recursively), so unknown fields are never stored or echoed.
 *
 * @example
 * ```ts
 * known("DeviceSettingsUpdate", { protection_enabled: true, extra: 1 }); // { protection_enabled: true }
 * ```
 */
export function known(schemaName: string, body: unknown): unknown {
  const strip = (schema: Schema, value: unknown): unknown => {
    const s = resolve(schema);
    if (s.type === "object" && isObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(s.properties ?? {})) if (value[key] !== undefined) out[key] = strip(sub, value[key]);
      return out;
    }
    if (s.type === "array" && Array.isArray(value) && s.items) return value.map((v) => strip(s.items!, v));
    return value;
  };
  return strip({ $ref: `#/components/schemas/${schemaName}` }, body);
}
