import { type FieldError, wrong } from "./errors";
import { decodeCursor } from "./cursor";

/** Values of a repeated query parameter (`devices=a&devices=b`; a comma list is split too), deduplicated. */
export function repeated(url: URL, name: string): string[] {
  const values = url.searchParams.getAll(name).flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v !== "");
  return [...new Set(values)].slice(0, 1000);
}

/**
 * Reads `limit` and `cursor` for a list. The cursor's scope is the path plus every filter, so a cursor
 * only continues the listing it came from.
 *
 * @example
 * ```ts
 * const p = pageParams(key, url, ["search"], 10);
 * if (Array.isArray(p)) return sendInvalid(res, p);
 * ```
 */
export function pageParams(
  key: Buffer,
  url: URL,
  filters: readonly string[],
  defaultLimit: number,
): { offset: number; limit: number; scope: string } | FieldError[] {
  const errors: FieldError[] = [];
  const rawLimit = url.searchParams.get("limit");
  const limit = rawLimit === null ? defaultLimit : /^\d{1,5}$/.test(rawLimit) ? Number(rawLimit) : NaN;
  if (!(limit >= 1 && limit <= 1000)) errors.push(wrong("limit", "Must be an integer from 1 to 1000"));
  const scope = [url.pathname, ...filters.map((f) => `${f}=${repeated(url, f).join(",")}`)].join("|");
  const cursor = url.searchParams.get("cursor");
  let offset = 0;
  if (cursor !== null && cursor !== "") {
    const decoded = decodeCursor(key, scope, cursor);
    if (decoded === undefined) errors.push(wrong("cursor", "Unknown or expired cursor"));
    else offset = decoded;
  }
  return errors.length ? errors : { offset, limit, scope };
}

/** Reads a required integer query parameter (epoch millis). */
export function millis(url: URL, name: string, errors: FieldError[]): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") {
    errors.push({ field: name, error_code: "FIELD_REQUIRED", message: "Field is required" });
    return 0;
  }
  const n = /^-?\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) errors.push(wrong(name, "Must be epoch milliseconds"));
  return n;
}
