import { DnsAccountError } from "../errors";
import type { RetryPolicy } from "../config/resolved";

// The policy is resolved from the user's `retry` option by the resolve step (sdk/config/resolve.ts).
export type { RetryPolicy } from "../config/resolved";

/** Statuses worth another attempt. */
const TRANSIENT_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

/** True for statuses worth another attempt: 408, 425, 429 and 5xx but 501. */
export function isTransientStatus(status: number): boolean {
  return TRANSIENT_STATUS.has(status);
}

/** True for failures that may pass: 408/425/429/5xx (not 501) and timeouts or network errors. */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof DnsAccountError)) return false;
  if (err.code === "timeout" || err.code === "network") return true;
  return err.status !== undefined && TRANSIENT_STATUS.has(err.status);
}

/**
 * The wait before retry number `attempt` (0-based): full jitter, `random() * min(max, base * 2^attempt)`,
 * or the server's Retry-After when it asked for one. Undefined when Retry-After is too long to wait.
 *
 * @example
 * ```ts
 * backoffDelay(resolveRetryConfig({ random: () => 0.5 }), 2); // 400
 * ```
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs <= policy.maxRetryAfterMs ? retryAfterMs : undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(policy.random() * ceiling);
}

/**
 * Resolves after `ms` with the global setTimeout, so fake timers control it. Not unref'd: a process
 * waiting to retry must not exit.
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs `attempt` until it succeeds, retrying transient failures (see {@link isTransient}) with
 * {@link backoffDelay} up to `policy.retries` times. Other errors, and a Retry-After too long to wait,
 * are thrown at once.
 *
 * @example
 * ```ts
 * const set = await withRetries(resolveRetryConfig({}), () => refreshToken({ refreshToken: stored }));
 * ```
 */
export async function withRetries<T>(policy: RetryPolicy, attempt: () => Promise<T>): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isTransient(err) || n >= policy.retries) throw err;
      const delay = backoffDelay(policy, n, (err as { retryAfterMs?: number }).retryAfterMs);
      if (delay === undefined) throw err;
      await sleep(delay);
    }
  }
}
