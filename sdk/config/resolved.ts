// The resolved configuration (issue 26 §2): what the resolve step (./resolve, ./client) makes of the
// user's input, once, frozen. Every layer reads these objects, never the input.
import type { Dispatcher } from "undici";
import type { Clock } from "../http/transport";
import type { TokenSet } from "../auth/token-response";
import type { ConfigError } from "../errors";

/** Brands an object the resolve step made, so that a resolver handed one returns it as it is. */
export const RESOLVED: unique symbol = Symbol.for("pulumi-dns-account.resolved-config") as never;

/** An object the resolve step made (frozen). */
export interface Resolved {
  readonly [RESOLVED]: true;
}

/** True for an object the resolve step made. */
export function isResolved<C extends Resolved>(value: unknown): value is C {
  return typeof value === "object" && value !== null && (value as Partial<Resolved>)[RESOLVED] === true;
}

/** A checked base URL, kept as the strings requests use (a URL object is mutable; these are not). */
export interface Endpoint {
  /** The checked URL (`https://api.adguard-dns.io/`): the key of "the same service". */
  readonly href: string;
  /** `https://host:port`. */
  readonly origin: string;
  /** The URL's path as checked (`/` at least). */
  readonly pathname: string;
  /** The path every call goes under, without a trailing slash (often empty). */
  readonly pathPrefix: string;
  /** Host and port, for messages. Never carries a credential. */
  readonly host: string;
}

/** How retries go: every number filled in and checked. */
export interface RetryPolicy {
  /** Attempts after the first. */
  readonly retries: number;
  /** First backoff ceiling in ms; doubles per attempt. */
  readonly baseDelayMs: number;
  /** Largest backoff in ms. */
  readonly maxDelayMs: number;
  /** A Retry-After longer than this (ms) is not waited for. */
  readonly maxRetryAfterMs: number;
  /** Source of randomness in [0, 1) for full jitter. */
  readonly random: () => number;
}

/** One token-endpoint call's transport: where, through what, how long. */
export interface TransportConfig extends Resolved {
  readonly endpoint: Endpoint;
  /** undefined: the SDK's shared default agent. */
  readonly dispatcher: Dispatcher | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
  /** Send `grant_type` (API 1.15 requires it). */
  readonly grantType: boolean;
  readonly clock: Clock;
}

/** What a checked `SessionCredentials` is: a password, a refresh token, or a token set to resume. */
export type CheckedCredentials =
  | { readonly kind: "password"; readonly username: string; readonly password: string; readonly mfaToken?: string }
  | { readonly kind: "refresh"; readonly refreshToken: string }
  | { readonly kind: "tokens"; readonly tokens: TokenSet; readonly refreshToken?: string };

/** A session's configuration. */
export interface SessionConfig extends Resolved {
  /** The credentials, checked, together with the URL they may travel to (`transport.endpoint`). */
  readonly credentials: CheckedCredentials;
  /**
   * The token calls' transport, or why it cannot be made: a session reports a bad base URL or timeout
   * on its first token call (as it always has), not when it is made.
   */
  readonly transport: TransportConfig | ConfigError;
  /** undefined: the default window per token (`refreshWindowMs`). */
  readonly refreshBeforeMs: number | undefined;
  readonly keepAlive: boolean;
  readonly minRefreshIntervalMs: number;
  readonly onTokens: ((tokens: TokenSet) => void | Promise<void>) | undefined;
  readonly onError: ((error: unknown) => void) | undefined;
  readonly retry: RetryPolicy;
  readonly clock: Clock;
}
