import { randomBytes, randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Account, DEFAULT_LIMITS, type EmulatorLimits, type Outcome } from "./accounts";
import { type Fault, FaultQueue } from "./faults";
import { BodyTooLarge, cookie, parseForm, readBody, sendEmpty, sendHtml, sendJson } from "./http-util";
import { openApiDocument } from "./openapi";
import { errorPage, loginPage } from "./pages";
import { type EmulatorUser, TokenStore } from "./tokens";

export type { EmulatorUser } from "./tokens";
export type { Fault } from "./faults";
export type { EmulatorLimits } from "./accounts";

/** An OAuth client approved for the implicit grant. */
export interface EmulatorClient {
  clientId: string;
  /**
   * Registered redirect URIs. A loopback URI (127.0.0.1, [::1], localhost) matches any port, as native
   * apps need (RFC 8252 §7.3).
   */
  redirectUris: string[];
}

/** Users every emulator has unless `users` is given. The MFA user accepts any 6-digit code, once. */
export const DEFAULT_USERS: readonly EmulatorUser[] = [
  { username: "user@example.com", password: "emulator-password" },
  { username: "mfa@example.com", password: "emulator-password", mfa: true },
];

/** The client every emulator has unless `clients` is given. */
export const DEFAULT_CLIENTS: readonly EmulatorClient[] = [
  { clientId: "dns-account-cli", redirectUris: ["http://127.0.0.1/callback"] },
];

/** Which form of the revoke request the emulator reads (to prove a client satisfies each). */
export type RevokeReads = "any" | "query" | "token" | "refresh_token";

/** Options of {@link startEmulator}. */
export interface EmulatorOptions {
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /** Port; default 0 (a free one). */
  port?: number;
  users?: readonly EmulatorUser[];
  clients?: readonly EmulatorClient[];
  /** Access-token lifetime in seconds, fixed or drawn per response. Default: 55 to 65 minutes, varying. */
  tokenLifetimeSeconds?: number | (() => number);
  /** Answer 400 when `grant_type` is absent, as newer versions of the service do. */
  requireGrantType?: boolean;
  /** Which revoke form is honoured; default `any`. */
  revokeReads?: RevokeReads;
  /** Return a new refresh token on each refresh grant (the real service does not). */
  rotateRefreshTokens?: boolean;
  /** Offset of the emulator's `Date` header from its clock, in ms (a server whose clock is off). */
  dateOffsetMs?: number;
  /** Per-account quotas. */
  limits?: Partial<EmulatorLimits>;
  /** Time source for token expiry; default `Date.now`. */
  now?: () => number;
  /** Called with one line per request: method, path (never the query) and status. */
  log?: (line: string) => void;
  /** Randomness for faults with a `probability` (seed it for repeatable tests); default Math.random. */
  random?: () => number;
}

/** Counters of what the emulator served. */
export interface EmulatorStats {
  requests: number;
  tokenCalls: number;
  passwordGrants: number;
  refreshGrants: number;
  revokeCalls: number;
  authorizeCalls: number;
  apiCalls: number;
}

/** A request the emulator received, as parsed (for tests asserting what a client sent). */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  form: Record<string, string>;
  headers: IncomingMessage["headers"];
}

/** A running emulator. */
export interface Emulator {
  /** Base URL, e.g. `http://127.0.0.1:39123`. */
  readonly url: string;
  readonly port: number;
  readonly stats: EmulatorStats;
  /** Requests to the token and revoke endpoints, oldest first (the last 1,000). */
  readonly requests: readonly RecordedRequest[];
  resetStats(): void;
  /** Arms a fault for the next matching request(s). */
  inject(fault: Fault): void;
  clearFaults(): void;
  /** Revokes a refresh token out of band, as a user would in the web UI. */
  revokeRefreshToken(token: string): void;
  /** Expires every access token now. */
  expireAccessTokens(): void;
  /** How many refresh tokens are live (issued and not revoked), for one user or all: leak checks in tests. */
  liveRefreshTokens(username?: string): number;
  setTokenLifetime(seconds: number | (() => number)): void;
  addMfaCode(username: string, code: string): void;
  close(): Promise<void>;
}

const API = "/oapi/v1";

function isLoopbackHost(host: string): boolean {
  return host === "127.0.0.1" || host === "[::1]" || host === "localhost";
}

function redirectAllowed(client: EmulatorClient, redirectUri: string): boolean {
  let target: URL;
  try {
    target = new URL(redirectUri);
  } catch {
    return false;
  }
  return client.redirectUris.some((registered) => {
    const r = new URL(registered);
    if (isLoopbackHost(r.hostname) && r.hostname === target.hostname) {
      return r.protocol === target.protocol && r.pathname === target.pathname;
    }
    return r.href === target.href;
  });
}

function tokenError(res: ServerResponse, status: number, error: string, errorCode: string, description: string): void {
  sendJson(res, status, { error, error_code: errorCode, error_description: description }, { "cache-control": "no-store" });
}

/**
 * Starts an emulator of the Account API on loopback: token, revoke and authorize endpoints, a login page,
 * bearer-protected business endpoints (account limits, devices, DNS servers) and its OpenAPI description,
 * with fault injection for tests.
 *
 * @example
 * ```ts
 * const emu = await startEmulator();
 * const tokens = await issueToken({ baseUrl: emu.url, username: "user@example.com", password: "emulator-password" });
 * await emu.close();
 * ```
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const now = options.now ?? (() => Date.now());
  const store = new TokenStore([...(options.users ?? DEFAULT_USERS)], now);
  const clients = [...(options.clients ?? DEFAULT_CLIENTS)];
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const faults = new FaultQueue(options.random);
  const accounts = new Map<string, Account>();
  const sessions = new Map<string, string>();
  const requests: RecordedRequest[] = [];
  let lifetime: number | (() => number) = options.tokenLifetimeSeconds ?? (() => 3300 + randomInt(600));
  const stats: EmulatorStats = {
    requests: 0, tokenCalls: 0, passwordGrants: 0, refreshGrants: 0, revokeCalls: 0, authorizeCalls: 0, apiCalls: 0,
  };
  let base = "";

  const lifetimeSeconds = (): number => (typeof lifetime === "function" ? lifetime() : lifetime);
  const account = (username: string): Account => {
    let a = accounts.get(username);
    if (!a) accounts.set(username, (a = new Account(limits)));
    return a;
  };
  const record = (req: IncomingMessage, url: URL, form: Record<string, string>): void => {
    requests.push({ method: req.method ?? "", path: url.pathname, query: Object.fromEntries(url.searchParams), form, headers: req.headers });
    if (requests.length > 1000) requests.shift();
  };

  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    stats.tokenCalls++;
    const type = req.headers["content-type"] ?? "";
    const form = parseForm(await readBody(req));
    record(req, url, form);
    if (!type.startsWith("application/x-www-form-urlencoded")) {
      return tokenError(res, 400, "invalid_request", "unsupported_content_type", "Send an application/x-www-form-urlencoded body");
    }
    let grant = form.grant_type;
    if (grant === undefined) {
      if (options.requireGrantType) return tokenError(res, 400, "invalid_request", "grant_type_required", "grant_type is required");
      grant = form.refresh_token !== undefined ? "refresh_token" : "password";
    }
    let username: string;
    let refreshToken: string;
    if (grant === "password") {
      stats.passwordGrants++;
      if (!form.username || !form.password) {
        return tokenError(res, 400, "invalid_request", "missing_parameters", "username and password are required");
      }
      const check = store.authenticate(form.username, form.password, form.mfa_token);
      if (!check.ok) {
        const description = check.errorCode === "2fa_required" ? "2FA is required" : check.errorCode === "2fa_invalid" ? "2FA code is invalid" : "Invalid credentials";
        return tokenError(res, 401, "unauthorized", check.errorCode, description);
      }
      username = form.username;
      refreshToken = store.newRefreshToken(username);
    } else if (grant === "refresh_token") {
      stats.refreshGrants++;
      if (!form.refresh_token) return tokenError(res, 400, "invalid_request", "missing_parameters", "refresh_token is required");
      const owner = store.refreshOwner(form.refresh_token);
      if (owner === undefined) return tokenError(res, 401, "unauthorized", "invalid_grant", "Refresh token is invalid or revoked");
      username = owner;
      refreshToken = options.rotateRefreshTokens ? store.rotate(form.refresh_token) : form.refresh_token;
    } else {
      return tokenError(res, 400, "unsupported_grant_type", "unsupported_grant_type", "Only password and refresh_token grants are supported");
    }
    const expiresIn = lifetimeSeconds();
    const accessToken = store.newAccessToken(username, expiresIn, refreshToken);
    sendJson(
      res,
      200,
      { access_token: accessToken, token_type: "bearer", refresh_token: refreshToken, expires_in: expiresIn },
      { "cache-control": "no-store" },
    );
  }

  async function revokeEndpoint(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    stats.revokeCalls++;
    const type = req.headers["content-type"] ?? "";
    const text = await readBody(req);
    const form = type.startsWith("application/x-www-form-urlencoded") ? parseForm(text) : {};
    record(req, url, form);
    const reads = options.revokeReads ?? "any";
    const candidates = [
      reads === "any" || reads === "query" ? url.searchParams.get("refresh_token") ?? undefined : undefined,
      reads === "any" || reads === "token" ? form.token : undefined,
      reads === "any" || reads === "refresh_token" ? form.refresh_token : undefined,
    ].filter((t): t is string => typeof t === "string" && t !== "");
    if (candidates.length === 0) return tokenError(res, 400, "invalid_request", "missing_parameters", "refresh_token is required");
    for (const token of new Set(candidates)) store.revoke(token);
    sendEmpty(res, 200);
  }

  function authorize(req: IncomingMessage, res: ServerResponse, url: URL): void {
    stats.authorizeCalls++;
    const q = url.searchParams;
    const client = clients.find((c) => c.clientId === q.get("client_id"));
    if (!client) return sendHtml(res, 400, errorPage("Unknown client", "client_id is not an approved client."));
    const redirectUri = q.get("redirect_uri") ?? "";
    if (!redirectAllowed(client, redirectUri)) {
      return sendHtml(res, 400, errorPage("Redirect URI not registered", "redirect_uri is not registered for this client."));
    }
    const state = q.get("state");
    const fragment = (fields: Record<string, string>): string => {
      const p = new URLSearchParams(fields);
      if (state !== null) p.set("state", state);
      return `${redirectUri}#${p.toString()}`;
    };
    if (q.get("response_type") !== "token") {
      return sendEmpty(res, 302, { location: fragment({ error: "unsupported_response_type" }) });
    }
    const session = cookie(req, "emu_session");
    const username = session ? sessions.get(session) : undefined;
    if (!username) {
      return sendEmpty(res, 302, { location: `/login?return_to=${encodeURIComponent(url.pathname + url.search)}` });
    }
    const expiresIn = lifetimeSeconds();
    const accessToken = store.newAccessToken(username, expiresIn);
    sendEmpty(res, 302, {
      location: fragment({ access_token: accessToken, token_type: "Bearer", expires_in: String(expiresIn) }),
      "cache-control": "no-store",
    });
  }

  async function login(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const safeReturn = (value: string | null | undefined): string =>
      value && value.startsWith(`${API}/oauth_authorize?`) ? value : `${API}/oauth_authorize`;
    if (req.method === "GET") return sendHtml(res, 200, loginPage(safeReturn(url.searchParams.get("return_to"))));
    const form = parseForm(await readBody(req));
    const returnTo = safeReturn(form.return_to);
    const check = store.authenticate(form.username ?? "", form.password ?? "", form.mfa_token || undefined);
    if (!check.ok) {
      const message = check.errorCode === "2fa_required" ? "Enter your two-factor code." : "Wrong e-mail, password or code.";
      return sendHtml(res, 401, loginPage(returnTo, message));
    }
    const session = randomBytes(16).toString("base64url");
    sessions.set(session, form.username!);
    sendEmpty(res, 302, { location: returnTo, "set-cookie": `emu_session=${session}; Path=/; HttpOnly; SameSite=Lax` });
  }

  function sendOutcome<T>(res: ServerResponse, outcome: Outcome<T>, emptyOnSuccess = false): void {
    if (outcome.ok) return emptyOnSuccess || outcome.value === null ? sendEmpty(res, 200) : sendJson(res, 200, outcome.value);
    if (outcome.kind === "not_found") return sendEmpty(res, 404);
    if (outcome.kind === "limit") return sendEmpty(res, 429);
    sendJson(res, 400, { error_code: "BAD_REQUEST", message: outcome.message ?? "Validation failed", fields: outcome.errors });
  }

  /** The business endpoints; returns false when the path is not one of them. */
  async function business(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const m = /^\/oapi\/v1\/(account\/limits|devices|dns_servers)(?:\/([^/]+))?$/.exec(url.pathname);
    if (!m || (m[1] === "account/limits" && m[2] !== undefined)) return false;
    const collection = m[1]!;
    const id = m[2];
    stats.apiCalls++;
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
    const who = store.bearer(bearer);
    if ("failure" in who) {
      res.setHeader("www-authenticate", 'Bearer error="invalid_token"');
      tokenError(res, 401, "unauthorized", who.failure, "The bearer token is missing, invalid, expired or revoked");
      return true;
    }
    const acct = account(who.username);
    acct.apiCalls++;
    const method = req.method ?? "GET";
    let body: unknown;
    if (method === "POST" || method === "PUT") {
      try {
        body = JSON.parse(await readBody(req));
      } catch (err) {
        if (err instanceof BodyTooLarge) throw err;
        sendJson(res, 400, { error_code: "BAD_REQUEST", message: "The body is not valid JSON", fields: [] });
        return true;
      }
    }
    const found = <T>(value: T | undefined): Outcome<T> => (value === undefined ? { ok: false, kind: "not_found" } : { ok: true, value });
    const routes: Record<string, () => void> =
      collection === "account/limits"
        ? { GET: () => sendJson(res, 200, acct.limitsView()) }
        : collection === "devices"
          ? id === undefined
            ? { GET: () => sendJson(res, 200, [...acct.devices.values()]), POST: () => sendOutcome(res, acct.createDevice(body)) }
            : {
                GET: () => sendOutcome(res, found(acct.devices.get(id))),
                PUT: () => sendOutcome(res, acct.updateDevice(id, body), true),
                DELETE: () => sendOutcome(res, acct.removeDevice(id)),
              }
          : id === undefined
            ? { GET: () => sendJson(res, 200, [...acct.dnsServers.values()]), POST: () => sendOutcome(res, acct.createDnsServer(body)) }
            : {
                GET: () => sendOutcome(res, found(acct.dnsServers.get(id))),
                PUT: () => sendOutcome(res, acct.updateDnsServer(id, body), true),
                DELETE: () => sendOutcome(res, acct.removeDnsServer(id)),
              };
    const route = routes[method];
    if (route) route();
    else sendEmpty(res, 405, { allow: Object.keys(routes).join(", ") });
    return true;
  }

  /** Applies a fault; returns true when the fault answered (or swallowed) the request. */
  async function applyFault(fault: Fault, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    switch (fault.kind) {
      case "status": {
        const headers: Record<string, string> = {};
        if (fault.retryAfter !== undefined) headers["retry-after"] = String(fault.retryAfter);
        const body = fault.body ?? JSON.stringify({ error: "unavailable", error_code: `http_${fault.status}`, error_description: "Injected fault" });
        res.writeHead(fault.status, { "content-type": fault.contentType ?? "application/json", "content-length": Buffer.byteLength(body), ...headers });
        res.end(body);
        return true;
      }
      case "reset":
        req.socket.destroy();
        return true;
      case "hang":
        return true;
      case "latency":
        await new Promise((r) => setTimeout(r, fault.ms));
        return false;
      case "slow-body": {
        const end = res.end.bind(res);
        const write = res.write.bind(res);
        res.end = ((chunk?: unknown) => {
          const data = typeof chunk === "string" || Buffer.isBuffer(chunk) ? Buffer.from(chunk as string) : Buffer.alloc(0);
          let offset = 0;
          const step = (): void => {
            if (res.destroyed) return;
            if (offset >= data.length) return void end();
            write(data.subarray(offset, offset + 8));
            offset += 8;
            setTimeout(step, fault.chunkDelayMs);
          };
          step();
          return res;
        }) as typeof res.end;
        return false;
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.requests++;
    const url = new URL(req.url ?? "/", "http://emulator.invalid");
    if (options.dateOffsetMs !== undefined) res.setHeader("date", new Date(now() + options.dateOffsetMs).toUTCString());
    const fault = faults.take(url.pathname);
    if (fault && (await applyFault(fault, req, res))) return;
    const route = `${req.method} ${url.pathname}`;
    if (route === `POST ${API}/oauth_token`) return tokenEndpoint(req, res, url);
    if (route === `POST ${API}/revoke_token`) return revokeEndpoint(req, res, url);
    if (route === `GET ${API}/oauth_authorize`) return authorize(req, res, url);
    if (route === "GET /login" || route === "POST /login") return login(req, res, url);
    if (route === "GET /static/swagger/openapi.json") return sendJson(res, 200, openApiDocument(base));
    if (await business(req, res, url)) return;
    const known = [`${API}/oauth_token`, `${API}/revoke_token`, `${API}/oauth_authorize`, "/login", "/static/swagger/openapi.json"];
    if (known.includes(url.pathname)) return sendEmpty(res, 405);
    sendJson(res, 404, { error: "not_found", error_code: "not_found", error_description: "No such path" });
  }

  const server = createServer((req, res) => {
    if (options.log) {
      const path = (req.url ?? "/").split("?")[0];
      res.on("finish", () => options.log?.(`${req.method} ${path} ${res.statusCode}`));
    }
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (err instanceof BodyTooLarge) return sendJson(res, 413, { error: "request_too_large", error_code: "request_too_large" });
      sendJson(res, 500, { error: "internal", error_code: "internal", error_description: "Emulator error" });
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  base = `http://${host}:${address.port}`;

  return {
    url: base,
    port: address.port,
    stats,
    requests,
    resetStats: () => {
      for (const k of Object.keys(stats) as (keyof EmulatorStats)[]) stats[k] = 0;
      requests.length = 0;
    },
    inject: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    revokeRefreshToken: (token) => void store.revoke(token),
    expireAccessTokens: () => store.expireAccessTokens(),
    liveRefreshTokens: (username) => store.liveRefreshTokens(username),
    setTokenLifetime: (seconds) => {
      lifetime = seconds;
    },
    addMfaCode: (username, code) => store.addMfaCode(username, code),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
