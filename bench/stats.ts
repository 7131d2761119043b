/**
 * What the bench's steps share: a row of the table `npm run bench` prints, and the two figures every step
 * computes (a median, a number to a fixed number of digits).
 *
 * @example
 * ```ts
 * const row: BenchRow = { what: "…", ours: fmt(median([41, 40, 43]), 1), baseline: "38.2", ratio: "1.07×", target: "≤ 1.30×", met: true };
 * ```
 */
export interface BenchRow {
  what: string;
  ours: string;
  baseline: string;
  ratio: string;
  target: string;
  met: boolean;
}

/** The median of `xs` (the upper one of an even count), without changing `xs`. */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `n` with `digits` digits after the point. */
export const fmt = (n: number, digits = 2): string => n.toFixed(digits);
