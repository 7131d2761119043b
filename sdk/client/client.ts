import { inspect } from "node:util";
import type { Dispatcher } from "undici";
import type { z } from "zod";
import {
  type AccountLimits,
  accountLimitsSchema,
  type Device,
  type DeviceCreate,
  type DeviceUpdate,
  deviceSchema,
  type DnsServer,
  type DnsServerCreate,
  type DnsServerUpdate,
  dnsServerSchema,
  errorResponseSchema,
} from "./api-schemas";
import { ConfigError, fieldProblems, HttpError, serverDetails } from "../errors";
import { timeoutOf } from "../options";
import { type Operation, parseOperations } from "./operations";
import { joinPath, operationPath, pathSegment as seg } from "./path";
import { backoffDelay, isTransient, isTransientStatus, type RetryOptions, retryPolicy, sleep } from "../http/retry";
import { Session, type SessionCredentials, type SessionOptions } from "../session";
import { decodeJson, validate } from "../auth/token-response";
import {
  API_PREFIX,
  type Clock,
  header,
  parseRetryAfter,
  proxyAwareAgent,
  type RawResponse,
  resolveBaseUrl,
  send,
  systemClock,
} from "../http/transport";
import { USER_AGENT } from "../version";

/** Options of {@link createClient}. */
export interface ClientOptions {
  baseUrl?: string;
  /** A session to take tokens from (shared, not closed by the client). */
  session?: Session;
  /** Or credentials: the client then makes (and owns) its own session. */
  credentials?: SessionCredentials;
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
  allowInsecureHttp?: boolean;
  /** Largest response body read; default 16 MiB. */
  maxBodyBytes?: number;
  clock?: Clock;
}

/** One call of {@link Client.request}. */
export interface RequestOptions<T> {
  method?: "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "HEAD";
  /** Path under `/oapi/v1`, e.g. `/devices/abc`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON body (buffered, so it can be replayed after a refresh). */
  body?: unknown;
  /** zod schema the response must match; failures are ProtocolErrors naming the field. */
  schema?: z.ZodType<T>;
  /** Retry on transient failures; default true for idempotent methods, `retryNonIdempotent` otherwise. */
  retry?: boolean;
  signal?: AbortSignal;
}

/** Arguments of {@link Client.call}. */
export interface CallArgs {
  path?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  retry?: boolean;
}

const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);
const DEFAULT_API_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BODY = 16 * 1024 * 1024;

/**
 * The configured API client: Bearer tokens from a {@link Session}, one forced refresh and replay on a
 * 401, retries of idempotent calls with full jitter and Retry-After, typed methods for account limits,
 * devices and DNS servers, and `call()` by operationId from the service's OpenAPI description.
 *
 * @example
 * ```ts
 * const client = createClient({ credentials: { refreshToken: process.env.DNS_ACCOUNT_REFRESH_TOKEN! } });
 * const limits = await client.account.limits();
 * await client.close();
 * ```
 */
export class Client {
  /** The session that supplies access tokens. */
  readonly session: Session;
  readonly #base: URL;
  /** Origin and path prefix of every call, e.g. `https://api.adguard-dns.io` (built once). */
  readonly #prefix: string;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #ownsSession: boolean;
  readonly #timeoutMs: number;
  readonly #policy;
  readonly #retryPost: boolean;
  readonly #maxBody: number;
  readonly #clock: Clock;
  #operations: Promise<Operation[]> | undefined;

  constructor(options: ClientOptions) {
    this.#base = resolveBaseUrl(options.baseUrl, options.allowInsecureHttp);
    this.#prefix = `${this.#base.origin}${this.#base.pathname.replace(/\/+$/, "")}`;
    this.#timeoutMs = timeoutOf(options.timeoutMs, DEFAULT_API_TIMEOUT_MS);
    this.#policy = retryPolicy(options.retry);
    this.#retryPost = options.retryNonIdempotent ?? false;
    this.#maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    this.#clock = options.clock ?? systemClock;
    if (options.session && options.credentials) {
      throw new ConfigError('Pass either "session" or "credentials", not both', { field: "credentials" });
    }
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? proxyAwareAgent({ keepAliveTimeout: 10_000 });
    if (options.session) {
      this.session = options.session;
      this.#ownsSession = false;
    } else if (options.credentials) {
      this.session = new Session({
        ...options.sessionOptions,
        ...(options.clock ? { clock: options.clock } : {}),
        credentials: options.credentials,
        ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
        ...(options.allowInsecureHttp !== undefined ? { allowInsecureHttp: options.allowInsecureHttp } : {}),
        dispatcher: this.#dispatcher,
      });
      this.#ownsSession = true;
    } else {
      throw new ConfigError('Pass "session" or "credentials"', { field: "credentials" });
    }
  }

  /** `GET /account/limits`. */
  readonly account = {
    limits: (): Promise<AccountLimits> => this.request({ path: "/account/limits", schema: accountLimitsSchema() }),
  };

  /** Devices: list, get, create, update, remove. */
  readonly devices = {
    list: (): Promise<Device[]> => this.request({ path: "/devices", schema: deviceSchema().array() }),
    get: async (id: string): Promise<Device> => this.request({ path: `/devices/${seg(id, "id")}`, schema: deviceSchema() }),
    create: (body: DeviceCreate): Promise<Device> => this.request({ method: "POST", path: "/devices", body, schema: deviceSchema() }),
    update: async (id: string, body: DeviceUpdate): Promise<void> => {
      await this.request({ method: "PUT", path: `/devices/${seg(id, "id")}`, body });
    },
    remove: async (id: string): Promise<void> => {
      await this.request({ method: "DELETE", path: `/devices/${seg(id, "id")}` });
    },
  };

  /** DNS servers (profiles): list, get, create, update, remove. */
  readonly dnsServers = {
    list: (): Promise<DnsServer[]> => this.request({ path: "/dns_servers", schema: dnsServerSchema().array() }),
    get: async (id: string): Promise<DnsServer> => this.request({ path: `/dns_servers/${seg(id, "id")}`, schema: dnsServerSchema() }),
    create: (body: DnsServerCreate): Promise<DnsServer> =>
      this.request({ method: "POST", path: "/dns_servers", body, schema: dnsServerSchema() }),
    update: async (id: string, body: DnsServerUpdate): Promise<void> => {
      await this.request({ method: "PUT", path: `/dns_servers/${seg(id, "id")}`, body });
    },
    remove: async (id: string): Promise<void> => {
      await this.request({ method: "DELETE", path: `/dns_servers/${seg(id, "id")}` });
    },
  };

  /**
   * Calls any operation. Returns the parsed JSON body (validated by `schema` when given), or undefined
   * for an empty body.
   */
  request<T = unknown>(options: RequestOptions<T>): Promise<T> {
    if (typeof options?.path !== "string" || !options.path.startsWith("/")) {
      return Promise.reject(new ConfigError('"path" must start with "/"', { field: "path" }));
    }
    return this.#request(`${API_PREFIX}${options.path}`, options);
  }

  /** The operations of the service's OpenAPI description (`/static/swagger/openapi.json`), loaded once. */
  operations(): Promise<Operation[]> {
    this.#operations ??= this.#loadOperations().catch((err: unknown) => {
      this.#operations = undefined;
      throw err;
    });
    return this.#operations;
  }

  /**
   * Calls an operation by its operationId, checking its required parameters and body before sending.
   *
   * @example
   * ```ts
   * const device = await client.call("getDevice", { path: { device_id: "b3e82cd1" } });
   * ```
   */
  async call(operationId: string, args: CallArgs = {}): Promise<unknown> {
    const op = (await this.operations()).find((o) => o.operationId === operationId);
    if (!op) throw new ConfigError(`No operation "${operationId}" in the API description`, { field: "operationId" });
    for (const name of op.pathParams) {
      if (args.path?.[name] === undefined) {
        throw new ConfigError(`"path.${name}" is required by ${operationId}`, { field: `path.${name}` });
      }
    }
    for (const q of op.queryParams) {
      if (q.required && args.query?.[q.name] === undefined) {
        throw new ConfigError(`"query.${q.name}" is required by ${operationId}`, { field: `query.${q.name}` });
      }
    }
    if (op.bodyRequired && args.body === undefined) {
      throw new ConfigError(`"body" is required by ${operationId}`, { field: "body" });
    }
    // The template comes from the server: it may name a path on this origin and nothing else.
    const path = operationPath(op.path, args.path);
    joinPath(this.#prefix, path);
    return this.#request(path, {
      method: op.method,
      ...(args.query ? { query: args.query } : {}),
      ...(args.body !== undefined ? { body: args.body } : {}),
      ...(args.retry !== undefined ? { retry: args.retry } : {}),
    });
  }

  /** Releases connections (when the client owns its agent) and stops its own session's timer. */
  async close(): Promise<void> {
    if (this.#ownsSession) this.session.close();
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  [inspect.custom](): string {
    return `Client { baseUrl: ${JSON.stringify(this.#base.origin + this.#base.pathname)} }`;
  }

  async #loadOperations(): Promise<Operation[]> {
    const res = await send(`${this.#prefix}/static/swagger/openapi.json`, {
      method: "GET",
      headers: { accept: "application/json", "user-agent": USER_AGENT },
      dispatcher: this.#dispatcher,
      timeoutMs: this.#timeoutMs,
      maxBodyBytes: this.#maxBody,
    });
    if (res.status !== 200) throw new HttpError(res.status, `The OpenAPI description answered HTTP ${res.status}`);
    return parseOperations(decodeJson(res));
  }

  async #request<T>(fullPath: string, options: Omit<RequestOptions<T>, "path">): Promise<T> {
    const method = options.method ?? "GET";
    const mayRetry = options.retry ?? (IDEMPOTENT.has(method) || this.#retryPost);
    let url = `${this.#prefix}${fullPath}`;
    if (options.query) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(options.query)) if (v !== undefined) q.set(k, String(v));
      const text = q.toString();
      if (text) url += `?${text}`;
    }
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    let replayed = false;
    for (let attempt = 0; ; ) {
      const token = this.session.currentToken() ?? (await this.session.accessToken());
      let res: RawResponse;
      try {
        res = await send(url, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: "application/json",
            "user-agent": USER_AGENT,
            ...(body !== undefined ? { "content-type": "application/json" } : {}),
          },
          ...(body !== undefined ? { body } : {}),
          dispatcher: this.#dispatcher,
          timeoutMs: this.#timeoutMs,
          signal: options.signal,
          maxBodyBytes: this.#maxBody,
        });
      } catch (err) {
        const delay = mayRetry && isTransient(err) && attempt < this.#policy.retries ? backoffDelay(this.#policy, attempt) : undefined;
        if (delay === undefined) throw err;
        await sleep(delay);
        attempt++;
        continue;
      }
      if (res.status === 401 && !replayed) {
        // One forced refresh and one replay; concurrent 401s for the same token share the refresh.
        replayed = true;
        await this.session.invalidate(token);
        continue;
      }
      if (mayRetry && attempt < this.#policy.retries && isTransientStatus(res.status)) {
        const delay = backoffDelay(this.#policy, attempt, parseRetryAfter(header(res, "retry-after"), this.#clock.now()));
        if (delay !== undefined) {
          await sleep(delay);
          attempt++;
          continue;
        }
      }
      return parseApiResponse(res, method, options.schema, this.#clock.now());
    }
  }
}

/** Turns an API response into a value or a typed error. */
export function parseApiResponse<T>(res: RawResponse, method: string, schema: z.ZodType<T> | undefined, now = Date.now()): T {
  if (res.status >= 200 && res.status < 300) {
    if (res.body.length === 0 || method === "HEAD") return undefined as T;
    const value = decodeJson(res);
    return schema ? validate(schema, value, res.status) : (value as T);
  }
  let decoded: unknown;
  try {
    decoded = decodeJson(res);
  } catch {
    decoded = undefined;
  }
  const retryAfterMs = parseRetryAfter(header(res, "retry-after"), now);
  const init = { ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  const validation = errorResponseSchema().safeParse(decoded);
  if (validation.success) {
    const fields = fieldProblems(validation.data.fields);
    const server = serverDetails(decoded);
    const list = fields.map((f) => `${f.field} (${f.errorCode})`).join(", ");
    throw new HttpError(res.status, `The API rejected the request${list ? `: ${list}` : server?.errorCode ? ` (${server.errorCode})` : ""}`, {
      ...init,
      fields,
      ...(server ? { server } : {}),
    });
  }
  const server = serverDetails(decoded);
  const said = server?.errorCode ?? server?.error;
  const what =
    res.status === 401 ? "The API refused the access token" : res.status === 404 ? "Not found" : res.status === 429 ? "Too many requests, or a quota is used up" : `The API answered HTTP ${res.status}`;
  throw new HttpError(res.status, `${what}${said ? ` (${said})` : ""}`, { ...init, ...(server ? { server } : {}) });
}

/**
 * Creates the configured API client.
 *
 * @example
 * ```ts
 * const client = createClient({ baseUrl: emu.url, credentials: { username, password } });
 * console.log(await client.devices.list());
 * ```
 */
export function createClient(options: ClientOptions): Client {
  return new Client(options);
}
