/**
 * CPU time of the bench's provider processes, read from Linux `/proc` while they still run, and the
 * marginal CPU per extra resource computed from it (`npm run bench -- provider`).
 */
import { readdirSync, readFileSync } from "node:fs";

/** The live child processes of process `pid` (any of its threads), from `/proc/<pid>/task/<tid>/children`. */
export function childrenOf(pid: number = process.pid): Set<number> {
  const out = new Set<number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    for (const c of readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").split(" ")) if (c.trim()) out.add(Number(c));
  }
  return out;
}

/** The one child of this process that is not in `before` (the provider process just started). */
export function newChild(before: ReadonlySet<number>): number {
  const fresh = [...childrenOf()].filter((c) => !before.has(c));
  if (fresh.length !== 1) throw new Error(`expected one new child process, found ${fresh.length}`);
  return fresh[0]!;
}

/**
 * CPU time (user + system, ms) process `pid` has used so far, all its live threads: the sum of the first
 * field of `/proc/<pid>/task/<tid>/schedstat` (ns on CPU). Threads that already exited are not counted
 * (a Node process keeps its libuv and V8 threads for its life).
 */
export function cpuMs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread exited between the listing and the read
    }
  }
  return ns / 1e6;
}

/** One measured sample: N resources and the CPU ms the process used for the phase. */
export interface CpuPoint {
  n: number;
  cpuMs: number;
}

/** A marginal cost: ms of CPU per extra resource, with the standard error of that estimate. */
export interface Marginal {
  perResource: number;
  se: number;
}

/**
 * The marginal CPU per extra resource: the least-squares slope of CPU ms over N through every sample (all
 * rounds, all sizes), with its standard error, so that a difference of two noisy medians is never read as
 * a cost. `undefined` with fewer than two distinct sizes; the error is `Infinity` with no spare sample.
 *
 * @example
 * ```ts
 * marginal([{ n: 10, cpuMs: 250 }, { n: 50, cpuMs: 330 }, { n: 100, cpuMs: 430 }]); // { perResource: 2, se: 0 }
 * ```
 */
export function marginal(points: readonly CpuPoint[]): Marginal | undefined {
  const k = points.length;
  if (new Set(points.map((p) => p.n)).size < 2) return undefined;
  const mx = points.reduce((a, p) => a + p.n, 0) / k;
  const my = points.reduce((a, p) => a + p.cpuMs, 0) / k;
  const sxx = points.reduce((a, p) => a + (p.n - mx) ** 2, 0);
  const perResource = points.reduce((a, p) => a + (p.n - mx) * (p.cpuMs - my), 0) / sxx;
  if (k < 3) return { perResource, se: Infinity };
  const rss = points.reduce((a, p) => a + (p.cpuMs - my - perResource * (p.n - mx)) ** 2, 0);
  return { perResource, se: Math.sqrt(rss / (k - 2) / sxx) };
}

/**
 * Ours ÷ the engine floor's marginal as a table cell, with the range the two estimates allow (each ± two
 * standard errors): marked `over` only when even that range's low end is above `limit` (1.3×), and
 * `over?` when the estimate is above it but the range reaches below; `n/a` when either marginal is missing
 * or the floor's is not positive (no ratio means anything then).
 *
 * @example
 * ```ts
 * marginalRatio({ perResource: 3, se: 0.1 }, { perResource: 2, se: 0.1 }); // "1.50× (1.27–1.78) over?"
 * ```
 */
export function marginalRatio(ours: Marginal | undefined, floor: Marginal | undefined, limit = 1.3): string {
  if (ours === undefined || floor === undefined || floor.perResource <= 0) return "n/a";
  const r = ours.perResource / floor.perResource;
  const lo = Math.max(ours.perResource - 2 * ours.se, 0) / (floor.perResource + 2 * floor.se);
  const hiFloor = floor.perResource - 2 * floor.se;
  const hi = hiFloor > 0 ? (ours.perResource + 2 * ours.se) / hiFloor : Infinity;
  const range = `(${lo.toFixed(2)}–${Number.isFinite(hi) ? hi.toFixed(2) : "∞"})`;
  const mark = lo > limit ? " **over**" : r > limit ? " over?" : "";
  return `${r.toFixed(2)}× ${range}${mark}`;
}
