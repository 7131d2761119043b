// The user's input of a client (issue 26 §2): see ./input. A module of its own because it names the
// Session class, whose module reads ./input.
import type { Dispatcher } from "undici";
import type { Clock } from "../http/transport";
import type { Session } from "../session";
import type { SessionCredentials } from "./credentials";
import type { RetryOptions, SessionOptions } from "./input";

/** Options of `createClient`. */
export interface ClientOptions {
  baseUrl?: string;
  /** A session to take tokens from (shared, not closed by the client). */
  session?: Session;
  /** Or credentials: the client then makes (and owns) its own session. */
  credentials?: SessionCredentials;
  /**
   * Or an API key (issued in the service's dashboard, valid until deleted there): sent as
   * `Authorization: ApiKey <key>` on every call, never to a token endpoint. A 401 is terminal
   * (`InvalidApiKeyError`, `invalid_api_key`): there is nothing to refresh.
   */
  apiKey?: string;
  /** Further options of the session the client makes from `credentials`. */
  sessionOptions?: Omit<SessionOptions, "credentials" | "baseUrl" | "dispatcher" | "allowInsecureHttp">;
  /** Whole-request timeout of API calls in ms; default 30 000. */
  timeoutMs?: number;
  /** Retries of idempotent calls on 408/429/5xx and connection failures. */
  retry?: RetryOptions;
  /** Also retry POST (non-idempotent) calls. Default false: a retried POST may create twice. */
  retryNonIdempotent?: boolean;
  /** undici dispatcher; default an own keep-alive, proxy-aware agent that `close()` releases. */
  dispatcher?: Dispatcher;
  /**
   * Most connections the client's own agent opens to the service at once (ignored with `dispatcher`).
   * Default `DEFAULT_CONNECTIONS` (16): calls beyond that wait for a free connection instead of
   * opening hundreds of sockets (a hundred concurrent creates would otherwise each open one, and each
   * costs a TLS handshake). At 32 concurrent callers a handful of keep-alive connections carry the load;
   * lower it when the service or a proxy limits connections per client, or when many clients or
   * processes share a host.
   *
   * @example
   * ```ts
   * createClient({ apiKey, connections: 4 });
   * ```
   */
  connections?: number;
  allowInsecureHttp?: boolean;
  /** Largest response body read; default 16 MiB. */
  maxBodyBytes?: number;
  clock?: Clock;
}

/** Options of `sharedClient`: credentials or an API key, never a session (the registry makes it). */
export type SharedClientOptions =
  | (Omit<ClientOptions, "session" | "apiKey"> & { credentials: SessionCredentials })
  | (Omit<ClientOptions, "session" | "credentials" | "sessionOptions"> & { apiKey: string });
