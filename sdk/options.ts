import { ConfigError } from "./errors";

/** Checks that a required string option is a non-empty string; names the option, never the value. */
export function requireString(value: unknown, field: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new ConfigError(`"${field}" must be a non-empty string`, { field });
  }
  return value;
}

/** Checks a timeout option: a positive finite number of milliseconds. */
export function timeoutOf(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new ConfigError('"timeoutMs" must be a positive number of milliseconds', { field: "timeoutMs" });
  }
  return value;
}

/**
 * Checks a stop signal option: an `AbortSignal`, or undefined for none. Names the option, never the value.
 *
 * @example
 * ```ts
 * const stop = stopSignalOf(face.signal(), "signal"); // an AbortSignal
 * ```
 */
export function stopSignalOf(value: unknown, field = "signal"): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof AbortSignal)) throw new ConfigError(`"${field}" must be an AbortSignal`, { field });
  return value;
}
