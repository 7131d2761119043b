import { inspect } from "node:util";
import {
  type AccountApi,
  accountApi,
  type DedicatedIpv4Api,
  dedicatedIpv4Api,
  type DevicesApi,
  devicesApi,
  type DnsServersApi,
  dnsServersApi,
  type ListApi,
  type QueryLogApi,
  queryLogApi,
  referenceDataApis,
  type StatsApi,
  statsApi,
} from "./groups";
import type { FilterList, ParentalControlFilteringCategory, WebService } from "./model";
import {
  errorResponseSchema,
  type Validator,
  validateResponse,
} from "./api-schemas";
import { ConfigError, fieldProblems, HttpError, InvalidApiKeyError, serverDetails } from "../errors";
import { type Operation, parseOperations } from "./operations";
import { joinPath, operationPath } from "./path";
import { backoffDelay, isTransient, isTransientStatus, sleep } from "../http/retry";
import { sleepUnlessStopped, stoppedBy, untilStopped } from "../http/stop";
import { stopSignalOf } from "../options";
import type { Session } from "../session";
import type { ClientOptions } from "../config/client-input";
import { type ClientConfig, resolveClientConfig } from "../config/client";
import { decodeJson } from "../auth/token-response";
import {
  API_PREFIX,
  header,
  parseRetryAfter,
  type RawResponse,
  sendTo,
} from "../http/transport";
import { USER_AGENT } from "../version";
import type { QueryParams, RequestOptions } from "./request";

export type { QueryParams, RequestOptions } from "./request";
export { type ClientConfig, DEFAULT_CONNECTIONS, resolveClientConfig } from "../config/client";

/** Arguments of {@link Client.call}. */
export interface CallArgs {
  path?: Record<string, string | number>;
  query?: QueryParams;
  body?: unknown;
  retry?: boolean;
}

/** Where the service serves its OpenAPI description: today's path first, then the older one. */
const OPENAPI_PATHS = ["/swagger/openapi.json", "/static/swagger/openapi.json"] as const;
/** Token, revoke and authorize endpoints: an API key must never reach them. */
const TOKEN_ENDPOINT = /\/(oauth_token|revoke_token|oauth_authorize)\/?$/i;
/**
 * Whether a path names a token endpoint as a server would route it: percent-escapes are decoded first
 * (a server that decodes `%5F` before routing reads `oauth%5Ftoken` as `oauth_token`); a path that
 * cannot be decoded counts as one, to be safe.
 */
const isTokenEndpoint = (path: string): boolean => {
  const bare = path.split(/[?#]/, 1)[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(bare);
  } catch {
    return true;
  }
  return TOKEN_ENDPOINT.test(bare) || TOKEN_ENDPOINT.test(decoded);
};
const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

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
  /** Everything the client reads of its options, resolved once (see resolveClientConfig). */
  readonly #config: ClientConfig;
  readonly #session: Session | undefined;
  readonly #apiKey: string | undefined;
  /** What the client and its {@link Client.withStop} views share: the API key's refusal, the operations. */
  #shared: SharedState = { apiKeyRefused: false, operations: undefined };
  /** A view's stop signal (undefined on a client made by `createClient`): see {@link Client.withStop}. */
  #stop: AbortSignal | undefined;
  /** The views of this client by stop signal, made on first use. */
  #views: WeakMap<AbortSignal, Client> | undefined;
  /** Set on a view: its `close()` leaves the client's connections and session alone. */
  #isView = false;

  /** Resolves `options` once into the configuration every call reads; a resolved one is taken as it is. */
  constructor(options: ClientOptions | ClientConfig) {
    const config = resolveClientConfig(options);
    this.#config = config;
    this.#apiKey = config.auth.kind === "apiKey" ? config.auth.apiKey : undefined;
    this.#session = config.auth.kind === "session" ? config.auth.session : undefined;
  }

  /**
   * This client, stopped by `signal`: the same configuration, session, connections and API-key state,
   * and every request it makes gives up with a `stopped` {@link StoppedError} once `signal` aborts —
   * retry and Retry-After waits and the wait for a login at once, a GET/PUT/DELETE (idempotent) in flight
   * cut off; a POST already sent is let finish (its outcome is known), and none is sent after. One view per
   * signal; its `close()` does nothing (close the client). The OpenTofu face gives each call its
   * StopProvider signal this way.
   *
   * @example
   * ```ts
   * const stoppable = client.withStop(controller.signal);
   * controller.abort(); // stoppable.devices.list() now rejects with code "stopped"
   * ```
   */
  withStop(signal: AbortSignal): Client {
    const stop = stopSignalOf(signal)!;
    if (this.#isView) throw new ConfigError("withStop is a method of the client, not of a view", { field: "signal" });
    this.#views ??= new WeakMap();
    let view = this.#views.get(stop);
    if (!view) {
      view = new Client(this.#config);
      view.#shared = this.#shared;
      view.#stop = stop;
      view.#isView = true;
      this.#views.set(stop, view);
    }
    return view;
  }

  /** The session that supplies access tokens. An API-key client has none: reading it is a ConfigError. */
  get session(): Session {
    if (!this.#session) throw new ConfigError("A client with an API key has no session", { field: "session" });
    return this.#session;
  }

  /** The base URL's host (and port), for messages: e.g. `api.adguard-dns.io`. Never carries a credential. */
  get host(): string {
    return this.#config.endpoint.host;
  }

  /** The base URL (origin and path prefix, no trailing slash), e.g. `https://api.adguard-dns.io`. Never carries a credential. */
  get baseUrl(): string {
    return this.#config.endpoint.origin + this.#config.endpoint.pathPrefix;
  }

  /** How the client authenticates: `apiKey` or `session` (tokens). */
  get authMode(): "apiKey" | "session" {
    return this.#apiKey !== undefined ? "apiKey" : "session";
  }

  /** The account's quotas: `limits()`. */
  readonly account: AccountApi = accountApi(this);
  /** Devices: `list`/`pages` (v2 cursors), CRUD, settings, DoH password, `.mobileconfig`, dedicated IPv4. */
  readonly devices: DevicesApi = devicesApi(this);
  /** DNS servers (profiles): `list`/`pages` (v2 cursors), CRUD and settings. */
  readonly dnsServers: DnsServersApi = dnsServersApi(this);
  /** Dedicated IPv4 addresses: `list`, `allocate`. */
  readonly dedicatedIpv4: DedicatedIpv4Api = dedicatedIpv4Api(this);
  readonly #reference = referenceDataApis(this);
  /** Filter lists the service offers: `list()`. */
  readonly filterLists: ListApi<FilterList> = this.#reference.filterLists;
  /** Web services that can be blocked: `list()`. */
  readonly webServices: ListApi<WebService> = this.#reference.webServices;
  /** Parental-control categories: `list()`. */
  readonly parentalControlCategories: ListApi<ParentalControlFilteringCategory> = this.#reference.parentalControlCategories;
  /** The DNS query log: `get`, `pages`, `clear`. */
  readonly queryLog: QueryLogApi = queryLogApi(this);
  /** Query statistics: `time`, `domains`, `companies`, `companiesDetailed`, `countries`, `devices`, `categories`, `blockedParentalCategories`. */
  readonly stats: StatsApi = statsApi(this);

  /**
   * Calls any operation. Returns the parsed JSON body (validated by `schema` when given), or undefined
   * for an empty body.
   */
  request<T = unknown>(options: RequestOptions<T>): Promise<T> {
    if (typeof options?.path !== "string" || !options.path.startsWith("/")) {
      return Promise.reject(new ConfigError('"path" must start with "/"', { field: "path" }));
    }
    // The path is appended to the base URL's origin and path, so it cannot name another host; dot
    // segments (which the URL parser would resolve upwards), backslashes, a query or a fragment could
    // still move the call elsewhere under that origin, so they are refused (`query` takes parameters).
    if (/[?#\\]/.test(options.path) || /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(options.path)) {
      return Promise.reject(new ConfigError('"path" must be a plain path: no dot segments, "?", "#" or "\\"', { field: "path" }));
    }
    const full = options.path.startsWith("/oapi/") ? options.path : `${API_PREFIX}${options.path}`;
    if ((options.method ?? "GET") === "GET") return this.#request(full, options);
    // Whatever a write did, success or not, what was read before it may be stale now.
    return this.#request(full, options).finally(countWrite);
  }

  /**
   * The operations of the service's OpenAPI description, loaded once: `/swagger/openapi.json`, or the
   * older `/static/swagger/openapi.json` when the first answers 404. Redirects are not followed.
   */
  operations(): Promise<Operation[]> {
    const shared = this.#shared;
    shared.operations ??= this.#loadOperations().catch((err: unknown) => {
      shared.operations = undefined;
      throw err;
    });
    return shared.operations;
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
    joinPath(`${this.#config.endpoint.origin}${this.#config.endpoint.pathPrefix}`, path);
    const sent = this.#request(path, {
      method: op.method,
      ...(args.query ? { query: args.query } : {}),
      ...(args.body !== undefined ? { body: args.body } : {}),
      ...(args.retry !== undefined ? { retry: args.retry } : {}),
    });
    return op.method === "GET" ? sent : sent.finally(countWrite);
  }

  /** Releases connections (when the client owns its agent) and stops its own session's timer. */
  async close(): Promise<void> {
    if (this.#isView) return;
    const { auth, ownsDispatcher, dispatcher } = this.#config;
    if (auth.kind === "session" && auth.owned) auth.session.close();
    if (ownsDispatcher) await dispatcher.close();
  }

  [inspect.custom](): string {
    return `Client { baseUrl: ${JSON.stringify(this.#config.endpoint.origin + this.#config.endpoint.pathname)}, auth: ${this.authMode} }`;
  }

  async #loadOperations(): Promise<Operation[]> {
    const { endpoint, dispatcher, timeoutMs, maxBodyBytes } = this.#config;
    let res: RawResponse | undefined;
    for (const path of OPENAPI_PATHS) {
      res = await sendTo({ origin: endpoint.origin, path: `${endpoint.pathPrefix}${path}` }, {
        method: "GET",
        headers: { accept: "application/json", "user-agent": USER_AGENT },
        dispatcher,
        timeoutMs,
        maxBodyBytes,
        signal: this.#stop,
      });
      if (res.status !== 404) break;
    }
    if (res!.status !== 200) throw new HttpError(res!.status, `The OpenAPI description answered HTTP ${res!.status}`);
    return parseOperations(decodeJson(res!));
  }

  async #request<T>(fullPath: string, options: Omit<RequestOptions<T>, "path">): Promise<T> {
    const method = options.method ?? "GET";
    if (this.#apiKey !== undefined && isTokenEndpoint(fullPath)) {
      throw new ConfigError("An API key is never sent to a token endpoint", { field: "path" });
    }
    // The client sends JSON with a credential header; the token endpoints take a form and no credential
    // (the service answers JSON with 415). The grants are the one way there.
    if (isTokenEndpoint(fullPath)) {
      throw new ConfigError("The client does not call the token endpoints: use issueToken, refreshToken, exchangeCode or revokeToken", { field: "path" });
    }
    const config = this.#config;
    const policy = config.retry;
    const mayRetry = options.retry ?? (IDEMPOTENT.has(method) || config.retryNonIdempotent);
    let path = `${config.endpoint.pathPrefix}${fullPath}`;
    if (options.query) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(options.query)) {
        if (Array.isArray(v)) for (const item of v) q.append(k, String(item));
        else if (v !== undefined) q.append(k, String(v));
      }
      const text = q.toString();
      if (text) path += `?${text}`;
    }
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const target = { origin: config.endpoint.origin, path };
    // A view's stop signal (withStop); undefined on a plain client, which then allocates nothing for it.
    const stop = this.#stop;
    // An idempotent request in flight is cut off by it; a non-idempotent one is only never sent after it.
    const signal = stop === undefined || !IDEMPOTENT.has(method) ? options.signal : options.signal === undefined ? stop : AbortSignal.any([options.signal, stop]);
    let replayed = false;
    for (let attempt = 0; ; ) {
      if (stop?.aborted) throw stoppedBy(stop);
      let token: string | undefined;
      let authorization: string;
      if (this.#apiKey !== undefined) {
        if (this.#shared.apiKeyRefused) throw new InvalidApiKeyError();
        authorization = `ApiKey ${this.#apiKey}`;
      } else {
        const session = this.#session!;
        // A login is not cut off (its tokens stay with the session, which revokes them): only the wait is.
        token = session.currentToken() ?? (await (stop === undefined ? session.accessToken() : untilStopped(session.accessToken(), stop)));
        if (stop?.aborted) throw stoppedBy(stop);
        authorization = `Bearer ${token}`;
      }
      let res: RawResponse;
      try {
        res = await sendTo(target, {
          method,
          // Literal objects, no spreads: this runs on every call.
          headers:
            body === undefined
              ? { authorization, accept: options.responseType === "bytes" ? "*/*" : "application/json", "user-agent": USER_AGENT }
              : { authorization, accept: "application/json", "user-agent": USER_AGENT, "content-type": "application/json" },
          body,
          dispatcher: config.dispatcher,
          timeoutMs: config.timeoutMs,
          signal,
          maxBodyBytes: options.budget === undefined ? config.maxBodyBytes : Math.max(0, Math.min(config.maxBodyBytes, options.budget.remaining)),
        });
      } catch (err) {
        if (stop !== undefined && stop.aborted && err === stop.reason) throw stoppedBy(stop);
        const delay = mayRetry && isTransient(err) && attempt < policy.retries ? backoffDelay(policy, attempt) : undefined;
        if (delay === undefined) throw err;
        await (stop === undefined ? sleep(delay) : sleepUnlessStopped(delay, stop));
        attempt++;
        continue;
      }
      if (res.status === 401 && this.#apiKey !== undefined) {
        // Nothing to refresh: the key was deleted or never existed. Terminal, and remembered.
        this.#shared.apiKeyRefused = true;
        const server = serverDetails(tryJson(res));
        throw new InvalidApiKeyError({ status: 401, ...(server ? { server } : {}) });
      }
      if (res.status === 401 && !replayed) {
        // One forced refresh and one replay; concurrent 401s for the same token share the refresh.
        replayed = true;
        await this.#session!.invalidate(token!);
        continue;
      }
      if (mayRetry && attempt < policy.retries && isTransientStatus(res.status)) {
        const delay = backoffDelay(policy, attempt, parseRetryAfter(header(res, "retry-after"), config.clock.now()));
        if (delay !== undefined) {
          await (stop === undefined ? sleep(delay) : sleepUnlessStopped(delay, stop));
          attempt++;
          continue;
        }
      }
      if (options.budget !== undefined) options.budget.remaining -= res.body.length;
      if (options.responseType === "bytes" && res.status >= 200 && res.status < 300) return res.body as T;
      return parseApiResponse(res, method, options.schema, config.clock.now());
    }
  }
}

/** What a client and its views share. */
interface SharedState {
  /** Set once the server refused the API key: later calls fail without sending it again. */
  apiKeyRefused: boolean;
  operations: Promise<Operation[]> | undefined;
}

// One count per process, shared by every copy of the package (a program and a provider host may each
// load their own): a write by any client may change what another client of the same account read.
const WRITES = Symbol.for("pulumi-dns-account.writes");

function countWrite(): void {
  const g = globalThis as unknown as Record<symbol, number | undefined>;
  g[WRITES] = (g[WRITES] ?? 0) + 1;
}

/**
 * How many requests other than `GET` the clients of this process have finished (succeeded or failed):
 * a cache of something read through a client is stale once this has changed since the read began.
 *
 * @example
 * ```ts
 * const before = writesSoFar();
 * const list = await client.dedicatedIpv4.list();
 * if (writesSoFar() === before) cache = list; // no write of this process can have changed it
 * ```
 */
export function writesSoFar(): number {
  return (globalThis as unknown as Record<symbol, number | undefined>)[WRITES] ?? 0;
}

function tryJson(res: RawResponse): unknown {
  try {
    return decodeJson(res);
  } catch {
    return undefined;
  }
}

/** Turns an API response into a value or a typed error. */
export function parseApiResponse<T>(res: RawResponse, method: string, schema: Validator<T> | undefined, now = Date.now()): T {
  if (res.status >= 200 && res.status < 300) {
    if (res.body.length === 0 || method === "HEAD") return undefined as T;
    const value = decodeJson(res);
    return schema ? validateResponse(schema, value, res.status) : (value as T);
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
