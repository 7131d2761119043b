/**
 * What the reporting commands (`logs`, `stats`, `devices`, `servers`, `status`) share: a time range from
 * `--since`/`--from`/`--to`, and plain-text tables.
 */
import { shown, UsageError, type Values } from "./command";

/** The options of a time range, for commands that read one. */
export const rangeOptions = { since: { type: "string" }, from: { type: "string" }, to: { type: "string" } } as const;

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `1h`, `30m`, `7d`, `2w`, `45s` in milliseconds; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d{1,6})([smhdw])$/.exec(text.trim());
  return m ? Number(m[1]) * UNITS[m[2]!]! : undefined;
}

/** An ISO-8601 time or epoch milliseconds. */
function parseTime(text: string, option: string): number {
  const ms = /^\d{10,16}$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms)) throw new UsageError(`${option} must be an ISO-8601 time (2026-11-25T08:00:00Z) or epoch milliseconds`);
  return ms;
}

/**
 * The range the options ask for: `--since D` (up to now), or `--from T` and `--to T` (to defaults to
 * now); by default the last `fallback`. The service keeps about a month: longer ranges are refused here.
 *
 * @example
 * ```ts
 * timeRange({ since: "1h" }, Date.now()); // { from: now - 3_600_000, to: now }
 * ```
 */
export function timeRange(v: Values, now: number, fallback = "24h"): { from: number; to: number } {
  if (v.since !== undefined && (v.from !== undefined || v.to !== undefined)) throw new UsageError("--since goes without --from and --to");
  const to = v.to !== undefined ? parseTime(v.to as string, "--to") : now;
  let from: number;
  if (v.from !== undefined) from = parseTime(v.from as string, "--from");
  else {
    const d = parseDuration((v.since as string | undefined) ?? fallback);
    if (d === undefined) throw new UsageError("--since must be a duration such as 45s, 30m, 1h, 7d or 2w");
    from = to - d;
  }
  if (from >= to) throw new UsageError("the range is empty: --from must be before --to");
  if (to - from > 31 * UNITS.d!) throw new UsageError("the range is longer than 31 days");
  return { from, to };
}

/** A positive whole number option, with a default and a maximum. */
export function limitOf(v: Values, fallback: number, max: number): number {
  if (v.limit === undefined) return fallback;
  const n = Number(v.limit);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--limit must be a whole number from 1 to ${max}`);
  return n;
}

/**
 * A plain-text table: a header row and aligned columns (the last one unpadded). Every cell is
 * {@link shown}: a control, bidi or other format character in a name the service sent is printed as its
 * escape (`\u202E`), so it can neither steer the terminal nor reorder what the user reads.
 *
 * @example
 * ```ts
 * table([["ID", "NAME"], ["d1", "Laptop"]]); // "ID  NAME\nd1  Laptop"
 * ```
 */
export function table(rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((r) => r.map((c) => shown(String(c))));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")).join("\n");
}

/** `2026-11-25 08:00:00` (UTC) of epoch milliseconds. */
export function shortTime(ms: number): string {
  return new Date(ms).toISOString().replace("T", " ").slice(0, 19);
}
