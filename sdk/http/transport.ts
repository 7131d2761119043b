import { Agent, type Dispatcher, EnvHttpProxyAgent, request } from "undici";
import { ConfigError, ProtocolError, TransportError } from "../errors";

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

/** Options shared by every network function of the SDK. */
export interface TransportOptions {
  /** Base address of the service; default {@link DEFAULT_BASE_URL}. */
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

let sharedAgent: Dispatcher | undefined;

/**
 * The default transport: one lazily created undici agent that honours HTTP(S)_PROXY and NO_PROXY (see
 * {@link proxyAwareAgent}). Created on first use so that importing the SDK opens nothing.
 */
export function defaultDispatcher(): Dispatcher {
  sharedAgent ??= proxyAwareAgent({});
  return sharedAgent;
}

const PROXY_VARIABLES = ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"];

/**
 * An undici EnvHttpProxyAgent when a proxy variable is set, else a plain Agent: the same behaviour
 * (EnvHttpProxyAgent reads the variables once, when made), without its per-request proxy lookup.
 */
export function proxyAwareAgent(options: Agent.Options, env: NodeJS.ProcessEnv = process.env): Dispatcher {
  return PROXY_VARIABLES.some((v) => env[v]) ? new EnvHttpProxyAgent(options) : new Agent(options);
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Validates a base URL and returns it without a trailing slash. Refuses non-http(s) schemes, embedded
 * credentials, query strings, and plain `http://` to a non-loopback host unless `allowInsecureHttp`.
 *
 * @example
 * ```ts
 * resolveBaseUrl("http://127.0.0.1:8787/").href; // "http://127.0.0.1:8787/"
 * ```
 */
export function resolveBaseUrl(baseUrl: string = DEFAULT_BASE_URL, allowInsecureHttp = false): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError('"baseUrl" must be an absolute http(s) URL', { field: "baseUrl" });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigError('"baseUrl" must use https:// (or http:// for loopback)', { field: "baseUrl" });
  }
  if (url.username || url.password) {
    throw new ConfigError('"baseUrl" must not contain credentials', { field: "baseUrl" });
  }
  if (url.search || url.hash) {
    throw new ConfigError('"baseUrl" must not contain a query or fragment', { field: "baseUrl" });
  }
  if (url.protocol === "http:" && !allowInsecureHttp && !isLoopback(url.hostname)) {
    throw new ConfigError(
      '"baseUrl" uses http:// for a non-loopback host; use https:// or set allowInsecureHttp',
      { field: "baseUrl" },
    );
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
  body?: string;
  dispatcher?: Dispatcher | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Largest body read; default {@link MAX_BODY_BYTES}. */
  maxBodyBytes?: number;
}

/** Timeouts shorter than this use a precise timer; longer ones undici's cheap, coarse ones. */
const PRECISE_TIMEOUT_BELOW_MS = 5_000;
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

function hostOf(url: URL | string): string {
  return typeof url === "string" ? new URL(url).host : url.host;
}

/**
 * Sends one request and reads the whole body (at most {@link MAX_BODY_BYTES}). Redirects are never
 * followed. Maps failures to {@link TransportError} (`timeout`, `network`) and an oversize body to
 * {@link ProtocolError}; neither message contains the URL's query, which may carry a token.
 *
 * The timeout is a whole-request deadline built from undici's own headers and body timeouts (no timer
 * or AbortController per request: they cost about 15 % of throughput) plus a check of the deadline at
 * every body chunk, so a server that drips its body slowly is cut off too. Timeouts under 5 s, which
 * undici's coarse timers would overshoot, use a precise timer signal.
 */
export async function send(url: URL | string, init: SendInit): Promise<RawResponse> {
  const deadline = performance.now() + init.timeoutMs;
  const timedOut = (): TransportError =>
    new TransportError("timeout", `No complete response from ${hostOf(url)} within ${init.timeoutMs} ms`);
  // undici's own timeouts tick about once a second: fine for the default 30 s, too coarse for short
  // timeouts, which get a precise timer signal instead.
  const precise = init.timeoutMs < PRECISE_TIMEOUT_BELOW_MS ? AbortSignal.timeout(init.timeoutMs) : undefined;
  const signal = precise && init.signal ? AbortSignal.any([init.signal, precise]) : (precise ?? init.signal);
  try {
    const res = await request(url, {
      method: init.method,
      headers: init.headers,
      body: init.body ?? null,
      dispatcher: init.dispatcher ?? defaultDispatcher(),
      headersTimeout: init.timeoutMs,
      bodyTimeout: init.timeoutMs,
      ...(signal ? { signal } : {}),
    });
    const limit = init.maxBodyBytes ?? MAX_BODY_BYTES;
    const tooLarge = (): ProtocolError => {
      res.body.destroy();
      const shown = limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MiB` : `${limit} bytes`;
      return new ProtocolError(`The response body is larger than ${shown}`, { field: "body", status: res.statusCode });
    };
    const declared = Number(res.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > limit) throw tooLarge();
      if (performance.now() > deadline) {
        res.body.destroy();
        throw timedOut();
      }
      chunks.push(chunk as Buffer);
    }
    return { status: res.statusCode, headers: res.headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) };
  } catch (err) {
    if (err instanceof ProtocolError || err instanceof TransportError) throw err;
    if (precise?.aborted) throw timedOut();
    if (init.signal?.aborted) throw init.signal.reason;
    const code = (err as { code?: unknown }).code;
    if (typeof code === "string" && TIMEOUT_CODES.has(code)) throw timedOut();
    const detail = typeof code === "string" && /^[A-Z_]{1,40}$/.test(code) ? ` (${code})` : "";
    throw new TransportError("network", `Request to ${hostOf(url)} failed${detail}`, { cause: err });
  }
}

/** One header's value as a single string (first of a repeated header). */
export function header(res: Pick<RawResponse, "headers">, name: string): string | undefined {
  const v = res.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Milliseconds a `Retry-After` header asks to wait (seconds or an HTTP date), or undefined.
 *
 * @example
 * ```ts
 * parseRetryAfter("3", Date.now()); // 3000
 * ```
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
