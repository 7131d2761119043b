import { ConfigError, DnsAccountError } from "../errors";

/** How transient failures are retried. */
export interface RetryOptions {
  /** Attempts after the first; default 4. */
  retries?: number;
  /** First backoff ceiling in ms; doubles per attempt; default 200. */
  baseDelayMs?: number;
  /** Largest backoff in ms; default 10 000. */
  maxDelayMs?: number;
  /** A Retry-After longer than this (ms) is not waited for: the error is surfaced. Default 60 000. */
  maxRetryAfterMs?: number;
  /** Source of randomness in [0, 1) for full jitter; default Math.random. */
  random?: () => number;
}

/** Retry options with defaults filled in. */
export type RetryPolicy = Required<RetryOptions>;

/** Fills in defaults and checks the numbers. */
export function retryPolicy(options: RetryOptions | undefined): RetryPolicy {
  const policy: RetryPolicy = {
    retries: 4,
    baseDelayMs: 200,
    maxDelayMs: 10_000,
    maxRetryAfterMs: 60_000,
    random: Math.random,
    ...options,
  };
  for (const key of ["retries", "baseDelayMs", "maxDelayMs", "maxRetryAfterMs"] as const) {
    const v = policy[key];
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
      throw new ConfigError(`"retry.${key}" must be a non-negative number`, { field: `retry.${key}` });
    }
  }
  return policy;
}

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
 * backoffDelay(retryPolicy({ random: () => 0.5 }), 2); // 400
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
 * const set = await withRetries(retryPolicy({}), () => refreshToken({ refreshToken: stored }));
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
