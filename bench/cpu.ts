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

/** One measured size: N resources and the (median) CPU ms the process used for the phase. */
export interface CpuPoint {
  n: number;
  cpuMs: number;
}

/**
 * The marginal CPU per extra resource: (CPU at the largest N − CPU at the smallest N) ÷ ΔN, in ms per
 * resource; `undefined` with fewer than two distinct sizes.
 */
export function marginal(points: readonly CpuPoint[]): number | undefined {
  if (points.length < 2) return undefined;
  const lo = points.reduce((a, b) => (b.n < a.n ? b : a));
  const hi = points.reduce((a, b) => (b.n > a.n ? b : a));
  return hi.n === lo.n ? undefined : (hi.cpuMs - lo.cpuMs) / (hi.n - lo.n);
}

/**
 * Ours ÷ the engine floor's marginal as a table cell, marked `over` above `limit` (1.3×); `n/a` when
 * either marginal is missing or the floor's is not positive (no ratio means anything then).
 */
export function marginalRatio(ours: number | undefined, floor: number | undefined, limit = 1.3): string {
  if (ours === undefined || floor === undefined || floor <= 0) return "n/a";
  const r = ours / floor;
  return r > limit ? `**${r.toFixed(2)}× over**` : `${r.toFixed(2)}×`;
}
