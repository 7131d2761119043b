/**
 * Bounds on times and lifetimes. Every date the package makes comes through here, so none can be
 * `Invalid time value`: a server or a file can only hand us numbers, and these keep them in range.
 */

/** The largest `expires_in` accepted from a server: ten years, in seconds. Beyond is a protocol error. */
export const MAX_EXPIRES_IN_SECONDS = 10 * 365 * 86_400;

/** The largest magnitude of a JavaScript Date, in epoch ms (±100,000,000 days). */
const MAX_DATE_MS = 8.64e15;

/**
 * True for a number that is a valid Date: finite and within the Date range.
 *
 * @example
 * ```ts
 * isTime(Date.now()); // true
 * isTime(1e300);      // false
 * ```
 */
export function isTime(ms: unknown): ms is number {
  return typeof ms === "number" && Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS;
}

/**
 * ISO-8601 text of an epoch-ms time, or `fallback` for anything that is not a valid Date (Infinity for
 * a token of unknown lifetime, a corrupt number). Never throws.
 *
 * @example
 * ```ts
 * isoTime(0);                                   // "1970-01-01T00:00:00.000Z"
 * isoTime(Number.POSITIVE_INFINITY, "unknown"); // "unknown"
 * ```
 */
export function isoTime(ms: number, fallback = "unknown"): string {
  return isTime(ms) ? new Date(ms).toISOString() : fallback;
}
