// The user's input (issue 26 §2): the options a program hands to the SDK's network layers, as it wrote
// them. Only the resolve step (sdk/config/) reads them; every layer reads the frozen configuration it
// returns (./resolved). `npm run lint` enforces it: outside sdk/config/, only the public entry points,
// which hand these objects straight to a resolver, may import this module.
import type { Dispatcher } from "undici";
import type { Clock } from "../http/transport";
import type { TokenSet } from "../auth/token-response";
import type { SessionCredentials } from "./credentials";

/** Options shared by every network function of the SDK. */
export interface TransportOptions {
  /** Base address of the service; default `https://api.adguard-dns.io`. */
  baseUrl?: string;
  /** undici dispatcher to send through (an Agent, Pool or MockAgent); default a shared proxy-aware agent. */
  dispatcher?: Dispatcher;
  /** Whole-request timeout in milliseconds (headers and body). */
  timeoutMs?: number;
  /** Allow `http://` for a non-loopback host. Off by default: tokens would cross the network in clear. */
  allowInsecureHttp?: boolean;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** Options shared by the token, refresh and revoke calls. */
export interface TokenCallOptions extends TransportOptions {
  /**
   * Send `grant_type` (default true): API 1.15 requires it on every token request. `false` omits it,
   * only as a compatibility switch for servers that reject unknown fields.
   */
  grantType?: boolean;
  /** Clock for `expiresAt`; default the wall clock. */
  clock?: Clock;
}

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

/** Options of `Session`. */
export interface SessionOptions extends Omit<TokenCallOptions, "clock" | "signal"> {
  credentials: SessionCredentials;
  /**
   * Refresh this long before expiry. Default: 5 minutes or 10 % of the token's lifetime, whichever is
   * smaller (lifetimes vary per response, so the window is computed per token).
   */
  refreshBeforeMs?: number;
  /** Refresh in the background ahead of expiry, on an unref'd timer. Default false. */
  keepAlive?: boolean;
  /** Least time between two refreshes while the current token is still valid. Default 1 000 ms. */
  minRefreshIntervalMs?: number;
  /** Called (and awaited) with every new token set, so a store can persist it. */
  onTokens?: (tokens: TokenSet) => void | Promise<void>;
  /** Receives errors that have no caller: background refreshes and `onTokens` failures. */
  onError?: (error: unknown) => void;
  /** Retries of the refresh grant on 429, 5xx and network errors. The password grant is never retried. */
  retry?: RetryOptions;
  clock?: Clock;
}
