// The shapes a request takes, shared by the client core (client.ts) and the API groups (groups/): a
// module of their own so that neither imports the other (issue 26 §3).
import type { Validator } from "../schema";

/** Query parameters: an array is sent as repeated keys (`devices=a&devices=b`), as the API expects. */
export type QueryParams = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

/** One call of {@link Client.request}. */
export interface RequestOptions<T> {
  method?: "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "HEAD";
  /**
   * Path under `/oapi/v1`, e.g. `/devices/abc`; a path starting with `/oapi/` (e.g. `/oapi/v2/devices`)
   * is taken from the base URL instead. Either way the call stays on the base URL's origin and path.
   */
  path: string;
  query?: QueryParams;
  /**
   * `json` (default): the body is parsed (and validated by `schema`). `bytes`: the body is returned as
   * a Buffer whatever its type (e.g. a `.mobileconfig` file).
   */
  responseType?: "json" | "bytes";
  /** JSON body (buffered, so it can be replayed after a refresh). */
  body?: unknown;
  /** Validator the response must pass (a zod schema will do); failures are ProtocolErrors naming the field. */
  schema?: Validator<T>;
  /** Retry on transient failures; default true for idempotent methods, `retryNonIdempotent` otherwise. */
  retry?: boolean;
  signal?: AbortSignal;
  /**
   * A byte budget shared by the calls of one listing: the body may be at most `remaining` bytes (a larger
   * one is a `ProtocolError` with field `body`), and its size is counted down from it.
   */
  budget?: { remaining: number };
}

/**
 * What an API group needs from the client core: one authenticated, retried, validated call.
 *
 * @example
 * ```ts
 * const core: ApiCore = client; // a Client is one
 * ```
 */
export interface ApiCore {
  request<T>(options: RequestOptions<T>): Promise<T>;
}
