import type { Agent, Dispatcher } from "undici";
import { ConfigError, DnsAccountError, ProtocolError, TransportError } from "../errors";
import { lazy } from "../lazy";

/**
 * The undici classes the transport uses, each loaded on first use from its own module: the package's
 * index loads all of undici (fetch, WebSocket, caches, mocks: about 110 modules, two thirds of the first
 * call's load in a provider host), where an Agent needs about twenty. undici 7 has no `exports` map, so
 * its modules are reachable; should a later version move them, the index is used instead. Each module is
 * named by a literal path, so that a bundler (the plugin's single executable) embeds it rather than
 * leaving a `require` that finds nothing there and silently falls back to the index.
 */
function undiciPart<K extends "Agent" | "Dispatcher">(name: K, load: () => unknown): () => (typeof import("undici"))[K] {
  return lazy(() => {
    try {
      const part = load() as (typeof import("undici"))[K];
      if (typeof part === "function") return part;
    } catch {
      // fall through to the index
    }
    return (require("undici") as typeof import("undici"))[name];
  });
}
const agentClass = undiciPart("Agent", () => require("undici/lib/dispatcher/agent"));
const dispatcherClass = undiciPart("Dispatcher", () => require("undici/lib/dispatcher/dispatcher"));
// The proxy agents open their tunnels with Dispatcher#connect, which only undici's index adds to the
// dispatchers (from lib/api): loaded as a part, EnvHttpProxyAgent fails every CONNECT. Proxies are rare
// enough for the index's cost.
const envProxyAgentClass = lazy(() => (require("undici") as typeof import("undici")).EnvHttpProxyAgent);

/** Default base address: the public AdGuard DNS API. */
export const DEFAULT_BASE_URL = "https://api.adguard-dns.io";
/** Version prefix of every Account API path. */
export const API_PREFIX = "/oapi/v1";
/** Largest response body read from the server; a larger one is refused. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Source of the current time (epoch ms). Inject one to control expiry decisions in tests. */
export interface Clock {
  now(): number;
}

/** The wall clock. Reads `Date.now()` on each call, so sinon fake timers apply to it. */
export const systemClock: Clock = { now: () => Date.now() };

let sharedAgent: Dispatcher | undefined;

/**
 * The default transport: one lazily created undici agent that honours HTTP(S)_PROXY and NO_PROXY (see
 * {@link proxyAwareAgent}). Created on first use so that importing the SDK opens nothing.
 */
export function defaultDispatcher(): Dispatcher {
  sharedAgent ??= proxyAwareAgent({});
  return sharedAgent;
}

/**
 * A plain undici Agent when no proxy variable is set (EnvHttpProxyAgent's per-request lookup costs about
 * 8 %), else a {@link ProxyRouter}: loopback targets go direct, a plain-http target that the proxy
 * would carry is refused (the proxy would read the credentials), everything else follows
 * HTTP(S)_PROXY and NO_PROXY. The variables are read once, when the agent is made.
 *
 * @example
 * ```ts
 * const agent = proxyAwareAgent({ connections: 8 });
 * ```
 */
export function proxyAwareAgent(options: Agent.Options, env: NodeJS.ProcessEnv = process.env): Dispatcher {
  const Agent = agentClass();
  const proxy = proxySettings(env);
  if (!proxy) return new Agent(options);
  const router = new (proxyRouter())(options, proxy);
  routers.add(router);
  return router;
}

interface ProxySettings {
  http: string | undefined;
  https: string | undefined;
  noProxy: string;
}

function proxySettings(env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const http = env.http_proxy || env.HTTP_PROXY || undefined;
  const https = env.https_proxy || env.HTTPS_PROXY || http;
  if (!http && !https) return undefined;
  return { http, https, noProxy: env.no_proxy ?? env.NO_PROXY ?? "" };
}

/** NO_PROXY as undici reads it: `*`, or host[:port] entries, a leading `.`/`*.` meaning subdomains too. */
function bypassesProxy(noProxy: string, hostname: string, port: number): boolean {
  if (noProxy.trim() === "*") return true;
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const m = /^(.+):(\d+)$/.exec(entry);
    const host = (m ? m[1]! : entry).replace(/^\*?\./, "").toLowerCase();
    if (m && Number(m[2]) !== port) continue;
    if (hostname === host || hostname.endsWith(`.${host}`)) return true;
  }
  return false;
}

/** `host:port` of a proxy URL, without any credentials it embeds. */
function proxyName(proxy: string): string {
  try {
    return new URL(proxy).host;
  } catch {
    return "(unparsable)";
  }
}

type Route = { kind: "direct" } | { kind: "proxy"; proxy: string } | { kind: "refuse" };

/** The proxy routers made here, to name a failing proxy in errors. */
const routers = new WeakSet<{ route(origin: string): Route }>();

/**
 * Routes each origin: loopback direct, plain http through a proxy refused, the rest as
 * EnvHttpProxyAgent would. Decided once per origin. A class made on first use: undici is lazy.
 */
const proxyRouter = lazy(() => class ProxyRouter extends dispatcherClass() {
  readonly #direct: Dispatcher;
  readonly #proxied: Dispatcher;
  readonly #settings: ProxySettings;
  readonly #routes = new Map<string, Route>();

  constructor(options: Agent.Options, settings: ProxySettings) {
    super();
    const Agent = agentClass();
    const EnvHttpProxyAgent = envProxyAgentClass();
    this.#settings = settings;
    this.#direct = new Agent(options);
    this.#proxied = new EnvHttpProxyAgent({
      ...options,
      ...(settings.http ? { httpProxy: settings.http } : {}),
      ...(settings.https ? { httpsProxy: settings.https } : {}),
      noProxy: settings.noProxy,
    });
  }

  /** How requests to `origin` travel; the proxy's `host:port` when one carries them. */
  route(origin: string): Route {
    let route = this.#routes.get(origin);
    if (!route) {
      const url = new URL(origin);
      const hostname = url.hostname.toLowerCase();
      const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
      const proxy = url.protocol === "https:" ? this.#settings.https : this.#settings.http;
      if (isLoopback(hostname) || !proxy || bypassesProxy(this.#settings.noProxy, url.host.replace(/:\d*$/, "").toLowerCase(), port)) {
        route = { kind: "direct" };
      } else if (url.protocol !== "https:") {
        route = { kind: "refuse" };
      } else {
        route = { kind: "proxy", proxy: proxyName(proxy) };
      }
      this.#routes.set(origin, route);
    }
    return route;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = String(options.origin);
    const route = this.route(origin.endsWith("/") ? origin.slice(0, -1) : origin);
    if (route.kind === "refuse") {
      const err = new ConfigError(
        '"baseUrl" uses plain http:// and HTTP_PROXY would carry its credentials in clear; use https://, or list the host in NO_PROXY',
        { field: "baseUrl" },
      );
      (handler as { onError?(e: Error): void }).onError?.(err);
      return false;
    }
    return (route.kind === "direct" ? this.#direct : this.#proxied).dispatch(options, handler);
  }

  override async close(): Promise<void> {
    await Promise.all([this.#direct.close(), this.#proxied.close()]);
  }

  override async destroy(): Promise<void> {
    await Promise.all([this.#direct.destroy(), this.#proxied.destroy()]);
  }
});

/**
 * Loopback as far as plain http:// is concerned: `localhost`, 127.0.0.0/8 and `::1` only. Other
 * `*.localhost` names go through DNS, which could send them anywhere.
 */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(host);
}

/** How {@link resolveBaseUrl}'s messages name the URL and the way to allow plain http (a CLI speaks its own words). */
export interface BaseUrlWords {
  /** The URL's name, e.g. `DNS_ACCOUNT_BASE_URL` or `--base-url`; default `"baseUrl"`. */
  name: string;
  /** How to allow http:// to a non-loopback host; default `set allowInsecureHttp`. */
  insecure: string;
}

const SDK_WORDS: BaseUrlWords = { name: '"baseUrl"', insecure: "set allowInsecureHttp" };

/**
 * Validates a base URL and returns it without a trailing slash. Refuses control and format characters
 * (which the URL parser would drop or encode, so the URL someone reads is not the one used), non-http(s)
 * schemes, embedded credentials, query strings, and plain `http://` to a non-loopback host unless
 * `allowInsecureHttp`. The errors are {@link ConfigError}s with `field` `baseUrl`; `words` changes how
 * their messages name it.
 *
 * @example
 * ```ts
 * resolveBaseUrl("http://127.0.0.1:8787/").href; // "http://127.0.0.1:8787/"
 * ```
 */
export function resolveBaseUrl(baseUrl: string = DEFAULT_BASE_URL, allowInsecureHttp = false, words: BaseUrlWords = SDK_WORDS): URL {
  const name = words.name;
  // C0/C1 controls, DEL, Unicode format characters (bidi marks and overrides), line/paragraph separators.
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u.test(baseUrl)) {
    throw new ConfigError(`${name} must not contain control or format characters`, { field: "baseUrl" });
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL`, { field: "baseUrl" });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigError(`${name} must use https:// (or http:// for loopback)`, { field: "baseUrl" });
  }
  if (url.username || url.password) {
    throw new ConfigError(`${name} must not contain credentials`, { field: "baseUrl" });
  }
  if (url.search || url.hash) {
    throw new ConfigError(`${name} must not contain a query or fragment`, { field: "baseUrl" });
  }
  if (url.protocol === "http:" && !allowInsecureHttp && !isLoopback(url.hostname)) {
    throw new ConfigError(`${name} uses http:// for a non-loopback host; use https:// or ${words.insecure}`, { field: "baseUrl" });
  }
  url.pathname = url.pathname.replace(/\/+$/, "");
  return url;
}

/** The URL of an Account API path (`/oauth_token`, `/account/limits`…) under a base URL. */
export function apiUrl(base: URL, path: string): URL {
  const url = new URL(base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}${API_PREFIX}${path}`;
  return url;
}

/** A response read in full: status, lower-case headers, body bytes. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** What {@link send} sends. */
export interface SendInit {
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body?: string | undefined;
  dispatcher?: Dispatcher | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Largest body read; default {@link MAX_BODY_BYTES}. */
  maxBodyBytes?: number;
}

const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

/** Where a request goes: an origin (`https://host:port`) and a path with its query. */
export interface Target {
  origin: string;
  path: string;
}

/**
 * Sends one request and reads the whole body (at most {@link MAX_BODY_BYTES}). Redirects are never
 * followed. Maps failures to {@link TransportError} (`timeout`, `network`) and an oversize body to
 * {@link ProtocolError}; neither message contains the URL's path or query, which may carry a token.
 *
 * `timeoutMs` is a deadline for the whole request (connect, headers and body together): whatever
 * the server does, the promise settles by then.
 *
 * @example
 * ```ts
 * const res = await send("https://api.adguard-dns.io/oapi/v1/account/limits", {
 *   method: "GET", headers: { authorization: `Bearer ${token}` }, timeoutMs: 30_000,
 * });
 * ```
 */
export function send(url: URL | string, init: SendInit): Promise<RawResponse> {
  const u = typeof url === "string" ? new URL(url) : url;
  return sendTo({ origin: u.origin, path: `${u.pathname}${u.search}` }, init);
}

/**
 * {@link send} for a pre-split target: the client's hot path, which builds no URL object per call.
 *
 * @example
 * ```ts
 * await sendTo({ origin: "http://127.0.0.1:8787", path: "/oapi/v1/devices" }, { method: "GET", headers: {}, timeoutMs: 5_000 });
 * ```
 */
export function sendTo(target: Target, init: SendInit): Promise<RawResponse> {
  const dispatcher = init.dispatcher ?? defaultDispatcher();
  return new Promise<RawResponse>((resolve, reject) => {
    const collector = new Collector(resolve, reject, target.origin, init, dispatcher);
    try {
      dispatcher.dispatch(
        { origin: target.origin, path: target.path, method: init.method, headers: init.headers, body: init.body ?? null, headersTimeout: init.timeoutMs, bodyTimeout: init.timeoutMs },
        collector as Dispatcher.DispatchHandler,
      );
    } catch (err) {
      collector.onError(err as Error);
    }
  });
}

/**
 * Collects one response for {@link sendTo}: undici's own dispatch handler interface, with no stream
 * or AbortSignal per request (they cost more than the rest of the call). One timer holds the
 * whole-request deadline; it settles the promise even while undici is still connecting, and aborts
 * the request as soon as undici hands over its abort function.
 */
class Collector {
  #abort: ((err: Error) => void) | undefined;
  #done = false;
  #status = 0;
  #headers: RawResponse["headers"] = {};
  #chunks: Buffer[] = [];
  #size = 0;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #onAbort: (() => void) | undefined;

  constructor(
    private readonly resolve: (res: RawResponse) => void,
    private readonly reject: (err: unknown) => void,
    private readonly origin: string,
    private readonly init: SendInit,
    private readonly dispatcher: Dispatcher,
  ) {
    this.#timer = setTimeout(() => this.#fail(this.#timedOut()), init.timeoutMs);
    const signal = init.signal;
    if (signal) {
      if (signal.aborted) {
        this.#onAbort = undefined;
        this.#fail(signal.reason);
      } else {
        this.#onAbort = () => this.#fail(signal.reason);
        signal.addEventListener("abort", this.#onAbort, { once: true });
      }
    }
  }

  onConnect(abort: (err: Error) => void): void {
    if (this.#done) abort(new TransportError("timeout", "aborted"));
    else this.#abort = abort;
  }

  onHeaders(status: number, raw: Buffer[] | string[] | null): boolean {
    if (this.#done) return false;
    if (status < 200) return true; // 1xx: informational, the real answer follows
    this.#status = status;
    const headers: RawResponse["headers"] = Object.create(null);
    if (raw) {
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const key = raw[i]!.toString().toLowerCase();
        const value = raw[i + 1]!.toString("latin1");
        const had = headers[key];
        headers[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
      }
    }
    this.#headers = headers;
    const declared = Number(headers["content-length"]);
    if (Number.isFinite(declared) && declared > this.#limit) {
      this.#fail(this.#tooLarge());
      return false;
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.#done) return false;
    this.#size += chunk.length;
    if (this.#size > this.#limit) {
      this.#fail(this.#tooLarge());
      return false;
    }
    this.#chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.#done) return;
    this.#settle();
    const chunks = this.#chunks;
    this.resolve({ status: this.#status, headers: this.#headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#size) });
  }

  onError(err: Error): void {
    if (this.#done) return;
    this.#fail(this.#mapError(err));
  }

  onUpgrade(): void {
    this.#fail(new ProtocolError("The server switched protocols", { field: "body" }));
  }

  get #limit(): number {
    return this.init.maxBodyBytes ?? MAX_BODY_BYTES;
  }

  #settle(): void {
    this.#done = true;
    clearTimeout(this.#timer);
    if (this.#onAbort) this.init.signal!.removeEventListener("abort", this.#onAbort);
  }

  #fail(err: unknown): void {
    if (this.#done) return;
    this.#settle();
    // Releases the connection; undici's own onError then arrives here and is ignored.
    this.#abort?.(err instanceof Error ? err : new Error("aborted"));
    this.reject(err);
  }

  #host(): string {
    return this.origin.replace(/^[a-z]+:\/\//i, "");
  }

  #timedOut(): TransportError {
    return new TransportError("timeout", `No complete response from ${this.#host()} within ${this.init.timeoutMs} ms`);
  }

  #tooLarge(): ProtocolError {
    const limit = this.#limit;
    const shown = limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MiB` : `${limit} bytes`;
    return new ProtocolError(`The response body is larger than ${shown}`, { field: "body", status: this.#status });
  }

  #mapError(err: Error): Error {
    if (err instanceof DnsAccountError) return err;
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && TIMEOUT_CODES.has(code)) return this.#timedOut();
    const detail = typeof code === "string" && /^[A-Z_]{1,40}$/.test(code) ? ` (${code})` : "";
    const d = this.dispatcher as unknown as { route(origin: string): Route };
    const route = routers.has(d) ? d.route(this.origin) : undefined;
    if (route?.kind === "proxy") {
      // Through a proxy, a refused or failed connection is the proxy's: say so, or users chase the API.
      return new TransportError("network", `The proxy ${route.proxy} (HTTPS_PROXY) failed to carry the request to ${this.#host()}${detail}`, { cause: err });
    }
    return new TransportError("network", `Request to ${this.#host()} failed${detail}`, { cause: err });
  }
}

/** One header's value as a single string (first of a repeated header). */
export function header(res: Pick<RawResponse, "headers">, name: string): string | undefined {
  const v = res.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** The longest wait a `Retry-After` header can ask for: a day. Beyond it a server's number is absurd. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/**
 * Milliseconds a `Retry-After` header asks to wait (seconds or an HTTP date), at most
 * {@link MAX_RETRY_AFTER_MS}, or undefined. Bounded, so a hostile value never travels on into errors
 * and timers as it was sent.
 *
 * @example
 * ```ts
 * parseRetryAfter("3", Date.now()); // 3000
 * ```
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}
