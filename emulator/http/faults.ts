/**
 * Faults the emulator can inject into the next requests (matching `path`, a path prefix, if given).
 * With `probability`, each matching request is hit with that chance (and only hits use up `count`).
 */
export type Fault = { count?: number; path?: string; probability?: number } & (
  | { kind: "status"; status: number; retryAfter?: number | string; body?: string; contentType?: string }
  | { kind: "reset" }
  | { kind: "hang" }
  | { kind: "latency"; ms: number }
  | { kind: "slow-body"; chunkDelayMs: number }
);

interface Armed {
  fault: Fault;
  remaining: number;
}

/** The queue of armed faults. Each matching request consumes one use of the first matching fault. */
export class FaultQueue {
  private armed: Armed[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  add(fault: Fault): void {
    this.armed.push({ fault, remaining: fault.count ?? 1 });
  }

  clear(): void {
    this.armed = [];
  }

  /** Takes the fault that applies to a request path, if any. */
  take(pathname: string): Fault | undefined {
    const i = this.armed.findIndex((a) => a.fault.path === undefined || pathname.startsWith(a.fault.path));
    if (i < 0) return undefined;
    const p = this.armed[i]!.fault.probability;
    if (p !== undefined && this.random() >= p) return undefined;
    const armed = this.armed[i]!;
    armed.remaining -= 1;
    if (armed.remaining <= 0) this.armed.splice(i, 1);
    return armed.fault;
  }
}
