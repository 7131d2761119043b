/** The value the engine sends for a property that is not known yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True for a value the engine does not know yet. */
export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** True when the value, or anything inside it, is not known yet. */
export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (typeof value === "object" && value !== null) return Object.values(value).some(containsUnknown);
  return false;
}
