/**
 * Waiting that a stop signal cuts short (OpenTofu's StopProvider, issue 34): a retry's backoff or
 * Retry-After sleep, a login another call started. Each gives a {@link StoppedError} (`stopped`) once the
 * signal aborts; what it waited for goes on (a login's tokens are still kept by its session, and revoked
 * with it).
 */
import { DnsAccountError, StoppedError } from "../errors";

/**
 * The error a stopped call gives: the signal's reason when it is already a `stopped` error, else a
 * {@link StoppedError} with the reason as its cause.
 *
 * @example
 * ```ts
 * if (signal.aborted) throw stoppedBy(signal);
 * ```
 */
export function stoppedBy(signal: AbortSignal): DnsAccountError {
  const reason: unknown = signal.reason;
  if (reason instanceof DnsAccountError && reason.code === "stopped") return reason;
  return new StoppedError(undefined, { cause: reason });
}

/**
 * Resolves after `ms` (the global setTimeout, so fake timers control it), or rejects with
 * {@link stoppedBy} as soon as `signal` aborts.
 *
 * @example
 * ```ts
 * await sleepUnlessStopped(retryAfterMs, signal);
 * ```
 */
export function sleepUnlessStopped(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(stoppedBy(signal));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(stoppedBy(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * `work`'s result, or a rejection with {@link stoppedBy} as soon as `signal` aborts; `work` itself goes on.
 *
 * @example
 * ```ts
 * const token = await untilStopped(session.accessToken(), signal);
 * ```
 */
export function untilStopped<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(stoppedBy(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(stoppedBy(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}
