// The resolve step (issue 26 §2), after AWS SDK v3's `resolveXConfig` chain: each resolver takes the
// user's input and returns it with its own fields resolved (checked, defaults filled in); a resolver
// that finds its fields already resolved passes the input on, so a chain composed once never checks
// twice. The composed results are frozen and branded (./resolved): every layer reads them.
import { ConfigError } from "../errors";
import { requireString, timeoutOf } from "../options";
import { type Clock, DEFAULT_BASE_URL, resolveBaseUrl, systemClock } from "../http/transport";
import type { TokenSet } from "../auth/token-response";
import type { SessionCredentials } from "./credentials";
import type { RetryOptions, SessionOptions, TokenCallOptions } from "./input";
import {
  type CheckedCredentials,
  type Endpoint,
  isResolved,
  RESOLVED,
  type RetryPolicy,
  type SessionConfig,
  type TransportConfig,
} from "./resolved";

/** Default whole-request timeout of token calls. */
export const DEFAULT_TOKEN_TIMEOUT_MS = 30_000;

/** Input of {@link resolveEndpointConfig}. */
export interface EndpointInput {
  baseUrl?: string | undefined;
  allowInsecureHttp?: boolean | undefined;
  /** Already resolved (by an earlier step of the chain): kept as it is. */
  endpoint?: Endpoint | undefined;
}

/**
 * Checks the base URL (with {@link resolveBaseUrl}, in the SDK's words) and adds it as an
 * {@link Endpoint}; an input that has one already is returned as it is.
 *
 * @example
 * ```ts
 * resolveEndpointConfig({ baseUrl: "http://127.0.0.1:8787/" }).endpoint.origin; // "http://127.0.0.1:8787"
 * ```
 */
export function resolveEndpointConfig<T extends EndpointInput>(input: T): T & { endpoint: Endpoint } {
  if (input.endpoint !== undefined) return input as T & { endpoint: Endpoint };
  return { ...input, endpoint: endpointOf(input.baseUrl, input.allowInsecureHttp) };
}

/** The {@link Endpoint} of a base URL (checked). */
export function endpointOf(baseUrl: string | undefined, allowInsecureHttp: boolean | undefined): Endpoint {
  const url = resolveBaseUrl(baseUrl ?? DEFAULT_BASE_URL, allowInsecureHttp ?? false);
  return Object.freeze({
    href: url.href,
    origin: url.origin,
    pathname: url.pathname,
    pathPrefix: url.pathname.replace(/\/+$/, ""),
    host: url.host,
  });
}

/**
 * Fills in the retry defaults and checks the numbers.
 *
 * @example
 * ```ts
 * resolveRetryConfig({ retries: 0 }).baseDelayMs; // 200
 * ```
 */
export function resolveRetryConfig(options: RetryOptions | undefined): RetryPolicy {
  const policy = {
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
  return Object.freeze(policy);
}

/** The clock of an input; default the wall clock. */
export function resolveClockConfig(clock: Clock | undefined): Clock {
  return clock ?? systemClock;
}

/**
 * The transport of token-endpoint calls (grants, revoke): base URL checked, timeout checked (default
 * {@link DEFAULT_TOKEN_TIMEOUT_MS}), dispatcher, clock. A resolved one is returned as it is.
 *
 * @example
 * ```ts
 * const transport = resolveTransportConfig({ baseUrl: emu.url, timeoutMs: 5_000 });
 * ```
 */
export function resolveTransportConfig(options: (TokenCallOptions & { endpoint?: Endpoint }) | TransportConfig): TransportConfig {
  if (isResolved<TransportConfig>(options)) return options;
  const { endpoint } = resolveEndpointConfig(options);
  return Object.freeze({
    [RESOLVED]: true as const,
    endpoint,
    dispatcher: options.dispatcher,
    timeoutMs: timeoutOf(options.timeoutMs, DEFAULT_TOKEN_TIMEOUT_MS),
    signal: options.signal,
    grantType: options.grantType !== false,
    clock: resolveClockConfig(options.clock),
  });
}

/** Checks a session's credentials; names the field (`credentials.password`…), never the value. */
export function resolveCredentialsConfig(c: SessionCredentials | undefined): CheckedCredentials {
  if (typeof c !== "object" || c === null) {
    throw new ConfigError('"credentials" must be { username, password }, { refreshToken } or a token set', { field: "credentials" });
  }
  if (typeof (c as TokenSet).accessToken === "string") {
    const t = c as TokenSet;
    requireString(t.accessToken, "credentials.accessToken");
    // Infinity is allowed: a bare access token whose lifetime nobody told us.
    if (typeof t.expiresAt !== "number" || Number.isNaN(t.expiresAt)) {
      throw new ConfigError('"credentials.expiresAt" must be a time in epoch milliseconds', { field: "credentials.expiresAt" });
    }
    const refreshToken = t.refreshToken !== undefined ? requireString(t.refreshToken, "credentials.refreshToken") : undefined;
    return Object.freeze({ kind: "tokens" as const, tokens: { ...t }, ...(refreshToken !== undefined ? { refreshToken } : {}) });
  }
  if ((c as { refreshToken?: unknown }).refreshToken !== undefined) {
    return Object.freeze({ kind: "refresh" as const, refreshToken: requireString((c as { refreshToken: string }).refreshToken, "credentials.refreshToken") });
  }
  const p = c as { username: string; password: string; mfaToken?: string };
  return Object.freeze({
    kind: "password" as const,
    username: requireString(p.username, "credentials.username"),
    password: requireString(p.password, "credentials.password"),
    ...(p.mfaToken !== undefined ? { mfaToken: requireString(p.mfaToken, "credentials.mfaToken") } : {}),
  });
}

/**
 * A session's configuration: credentials checked, refresh timing checked, retry policy, clock, and the
 * token calls' transport (its problem kept for the first token call, as sessions always reported it).
 * A resolved one is returned as it is.
 *
 * @example
 * ```ts
 * const config = resolveSessionConfig({ credentials: { refreshToken }, keepAlive: true });
 * ```
 */
export function resolveSessionConfig(options: (SessionOptions & { endpoint?: Endpoint }) | SessionConfig): SessionConfig {
  if (isResolved<SessionConfig>(options)) return options;
  const credentials = resolveCredentialsConfig(options?.credentials);
  for (const key of ["refreshBeforeMs", "minRefreshIntervalMs"] as const) {
    const v = options[key];
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 0)) {
      throw new ConfigError(`"${key}" must be a non-negative number of milliseconds`, { field: key });
    }
  }
  const retry = resolveRetryConfig(options.retry);
  const clock = resolveClockConfig(options.clock);
  let transport: TransportConfig | ConfigError;
  try {
    const { baseUrl, allowInsecureHttp, endpoint, dispatcher, timeoutMs, grantType } = options;
    transport = resolveTransportConfig({
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      ...(allowInsecureHttp !== undefined ? { allowInsecureHttp } : {}),
      ...(endpoint !== undefined ? { endpoint } : {}),
      ...(dispatcher !== undefined ? { dispatcher } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(grantType !== undefined ? { grantType } : {}),
      clock,
    });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    transport = err;
  }
  return Object.freeze({
    [RESOLVED]: true as const,
    credentials,
    transport,
    refreshBeforeMs: options.refreshBeforeMs,
    keepAlive: options.keepAlive ?? false,
    minRefreshIntervalMs: options.minRefreshIntervalMs ?? 1000,
    onTokens: options.onTokens,
    onError: options.onError,
    retry,
    clock,
  });
}
