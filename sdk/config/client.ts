// The resolve step of a client (issue 26 §2): `ClientOptions` in, one frozen `ClientConfig` out, composed
// from the resolvers of ./resolve in the order the client always checked its options (so the first
// problem reported is the same). A module of its own because it makes the client's session.
import type { Dispatcher } from "undici";
import { ConfigError } from "../errors";
import { timeoutOf } from "../options";
import { type Clock, proxyAwareAgent } from "../http/transport";
import { Session } from "../session";
import type { ClientOptions } from "./client-input";
import { endpointOf, resolveClockConfig, resolveRetryConfig, resolveSessionConfig } from "./resolve";
import { type Endpoint, isResolved, RESOLVED, type Resolved, type RetryPolicy } from "./resolved";

/** Connections per origin of a client's own agent unless `connections` says otherwise. */
export const DEFAULT_CONNECTIONS = 16;
/** Whole-request timeout of API calls unless `timeoutMs` says otherwise. */
export const DEFAULT_API_TIMEOUT_MS = 30_000;
/** Largest response body a client reads unless `maxBodyBytes` says otherwise. */
export const DEFAULT_MAX_BODY = 16 * 1024 * 1024;

/** How a client authenticates: an API key, or a session's tokens (`owned`: made by the client, stopped by its `close()`). */
export type ClientAuth = { readonly kind: "apiKey"; readonly apiKey: string } | { readonly kind: "session"; readonly session: Session; readonly owned: boolean };

/** A client's configuration: what every part of the client reads. */
export interface ClientConfig extends Resolved {
  readonly endpoint: Endpoint;
  readonly auth: ClientAuth;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly retryNonIdempotent: boolean;
  readonly dispatcher: Dispatcher;
  /** True when the client made its agent (and `close()` releases it). */
  readonly ownsDispatcher: boolean;
  readonly maxBodyBytes: number;
  readonly clock: Clock;
}

/** Client options, some of them resolved already by an earlier step of the chain (`sharedClient`). */
export type ClientInput = ClientOptions & { endpoint?: Endpoint };

/**
 * Resolves a client's options once: base URL checked, timeout, retry policy, clock, dispatcher (an own
 * keep-alive, proxy-aware agent unless one is given), and the credentials chosen: an API key, a given
 * session, or a session made from `credentials` with the same base URL and dispatcher. A resolved
 * config is returned as it is.
 *
 * @example
 * ```ts
 * const config = resolveClientConfig({ baseUrl: emu.url, apiKey });
 * config.endpoint.origin; // "http://127.0.0.1:…"
 * ```
 */
export function resolveClientConfig(options: ClientInput | ClientConfig): ClientConfig {
  if (isResolved<ClientConfig>(options)) return options;
  const endpoint = options.endpoint ?? endpointOf(options.baseUrl, options.allowInsecureHttp);
  const timeoutMs = timeoutOf(options.timeoutMs, DEFAULT_API_TIMEOUT_MS);
  const retry = resolveRetryConfig(options.retry);
  const clock = resolveClockConfig(options.clock);
  if ([options.session, options.credentials, options.apiKey].filter((c) => c !== undefined).length > 1) {
    throw new ConfigError('Pass one of "session", "credentials" or "apiKey"', { field: "credentials" });
  }
  const ownsDispatcher = options.dispatcher === undefined;
  const dispatcher =
    options.dispatcher ?? proxyAwareAgent({ keepAliveTimeout: 10_000, connections: options.connections !== undefined ? connectionsOf(options.connections) : DEFAULT_CONNECTIONS });
  let auth: ClientAuth;
  if (options.apiKey !== undefined) {
    auth = { kind: "apiKey", apiKey: apiKeyOf(options.apiKey) };
  } else if (options.session) {
    auth = { kind: "session", session: options.session, owned: false };
  } else if (options.credentials) {
    const session = new Session(
      resolveSessionConfig({
        ...options.sessionOptions,
        ...(options.clock ? { clock: options.clock } : {}),
        credentials: options.credentials,
        endpoint,
        dispatcher,
      }),
    );
    auth = { kind: "session", session, owned: true };
  } else {
    throw new ConfigError('Pass "session", "credentials" or "apiKey"', { field: "credentials" });
  }
  return Object.freeze({
    [RESOLVED]: true as const,
    endpoint,
    auth: Object.freeze(auth),
    timeoutMs,
    retry,
    retryNonIdempotent: options.retryNonIdempotent ?? false,
    dispatcher,
    ownsDispatcher,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY,
    clock,
  });
}

/** Checks an API key before use: printable ASCII without spaces, so it can only ever be one header value. */
function apiKeyOf(value: unknown): string {
  if (typeof value !== "string" || !/^[\x21-\x7e]{1,4096}$/.test(value)) {
    throw new ConfigError('"apiKey" must be a non-empty string of printable characters without spaces', { field: "apiKey" });
  }
  return value;
}

/** Checks `connections`: a positive integer. */
export function connectionsOf(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new ConfigError('"connections" must be a positive integer', { field: "connections" });
  }
  return value;
}
