import { randomBytes, randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_LIMITS, type EmulatorLimits } from "./account/account";
import { accountRoutes } from "./account/routes";
import { authenticate, authRoutes } from "./auth/routes";
import { TokenStore } from "./auth/tokens";
import { deviceRoutes } from "./devices/routes";
import { dnsServerRoutes } from "./dns-servers/routes";
import { sendError } from "./http/errors";
import { ConfigError } from "../sdk/errors";
import { type Fault, FaultQueue } from "./http/faults";
import { HostCheck, type HostName, isLoopbackHost, parseAllowedHost } from "./http/host";
import { Router } from "./http/router";
import { BodyTooLarge, readBody, sendEmpty, sendJson } from "./http/util";
import { openApiDocument } from "./openapi/document";
import { referenceDataRoutes } from "./reference-data/routes";
import { statsRoutes } from "./stats/routes";
import { accountFromSeed, seedOfAccount } from "./seed/apply";
import { readJsonFile, writeFileAtomic } from "./seed/file";
import { parseSeed, SEED_VERSION } from "./seed/schema";
import {
  Accounts,
  DEFAULT_API_KEYS,
  DEFAULT_CLIENTS,
  DEFAULT_USERS,
  type EmulatorOptions,
  type EmulatorState,
  type EmulatorStats,
  type RecordedRequest,
} from "./state";

export type { EmulatorApiKey, EmulatorUser } from "./auth/tokens";
export type { Fault } from "./http/faults";
export type { EmulatorLimits } from "./account/account";
export {
  DEFAULT_API_KEYS,
  DEFAULT_CLIENTS,
  DEFAULT_USERS,
  type EmulatorClient,
  type EmulatorOptions,
  type EmulatorStats,
  type RecordedRequest,
  type RevokeReads,
} from "./state";

/** A running emulator. */
export interface Emulator {
  /** Base URL, e.g. `http://127.0.0.1:39123`. */
  readonly url: string;
  readonly port: number;
  readonly stats: EmulatorStats;
  /** Requests to the token and revoke endpoints, oldest first (at least the last 1,000). */
  readonly requests: readonly RecordedRequest[];
  resetStats(): void;
  /** Arms a fault for the next matching request(s). */
  inject(fault: Fault): void;
  clearFaults(): void;
  /** Revokes a refresh token out of band, as a user would in the web UI. */
  revokeRefreshToken(token: string): void;
  /** Expires every access token now. */
  expireAccessTokens(): void;
  /** Shorthand for `tokenCounts(username).refreshTokens`: live refresh tokens, for leak checks in tests. */
  liveRefreshTokens(username?: string): number;
  setTokenLifetime(seconds: number | (() => number)): void;
  addMfaCode(username: string, code: string): void;
  /** Issues an API key for a user (random unless given), as the dashboard does; returns it. */
  addApiKey(username: string, key?: string): string;
  /** Deletes an API key out of band; calls with it then get 401 `invalid_api_key`. */
  revokeApiKey(key: string): void;
  /**
   * Live (unrevoked) refresh tokens, of one user or of all, plus the access tokens and codes held
   * (expired ones are pruned as new ones are issued).
   */
  tokenCounts(username?: string): { refreshTokens: number; accessTokens: number; codes: number };
  close(): Promise<void>;
}

/**
 * Default access-token lifetime of the password and refresh grants, in seconds: about 30 days, as the
 * service issues them (its own examples show 2,620,978), varying per response so clients read
 * `expires_in` instead of assuming it.
 */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = { min: 2_592_000, max: 2_635_200 } as const;

/** One draw of the default lifetime. */
function defaultTokenLifetime(): number {
  return DEFAULT_TOKEN_LIFETIME_SECONDS.min + randomInt(DEFAULT_TOKEN_LIFETIME_SECONDS.max - DEFAULT_TOKEN_LIFETIME_SECONDS.min + 1);
}

/**
 * The accounts at start: the state file's when it exists, else the seed's (for its user), else none
 * (each made on first use). Throws a ConfigError naming the field of a bad seed or state file.
 */
function loadAccounts(options: EmulatorOptions): Accounts {
  const overrides = limitOverridesOf(options);
  const limits = { ...DEFAULT_LIMITS, ...options.limits, ...overrides.limits };
  const accounts = new Accounts(limits, overrides.limits);
  const users = options.users ?? DEFAULT_USERS;
  const known = (username: string, label: string, field: string): string => {
    if (!users.some((u) => u.username === username)) throw new ConfigError(`${label}: ${field} is not a user of the emulator`, { field });
    return username;
  };
  const stateLabel = options.optionNames?.stateFile ?? "stateFile";
  const saved = options.stateFile === undefined ? undefined : readJsonFile(options.stateFile, stateLabel, { noFollow: true, missingOk: true });
  if (saved !== undefined) {
    parseSeed(saved, stateLabel, "state").accounts.forEach((seed, i) => {
      const { account, extras } = accountFromSeed(seed, limits, `${stateLabel}: accounts[${i}]`, overrides);
      accounts.set(known(seed.username!, stateLabel, `accounts[${i}].username`), account, extras);
    });
  } else if (options.seed !== undefined) {
    const label = options.optionNames?.seed ?? "seed";
    const seed = parseSeed(options.seed, label);
    const { account, extras } = accountFromSeed(seed, limits, label, overrides);
    accounts.set(seed.username === undefined ? users[0]!.username : known(seed.username, label, "username"), account, extras);
  }
  return accounts;
}

/** Limit names, in the order `GET /account/limits` gives them. */
const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS).sort() as (keyof EmulatorLimits)[];

/** `limitOverrides`, checked: each a known limit name and an int32 count (the API's `Limit.limit`). */
function limitOverridesOf(options: EmulatorOptions): { limits: Partial<EmulatorLimits>; label: string } {
  const label = options.optionNames?.limitOverrides ?? "limitOverrides";
  const limits: Partial<EmulatorLimits> = {};
  for (const [name, value] of Object.entries(options.limitOverrides ?? {})) {
    if (!(LIMIT_NAMES as string[]).includes(name)) throw new ConfigError(`${label}: the limit name is not one of ${LIMIT_NAMES.join(", ")}`, { field: label });
    if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 2 ** 31 - 1) {
      throw new ConfigError(`${label}: ${name} must be a whole number from 0 to 2147483647`, { field: `${label}.${name}` });
    }
    limits[name as keyof EmulatorLimits] = value as number;
  }
  return { limits, label };
}

/**
 * The listening address, checked: a non-loopback `host` only with `allowRemote`, since the emulator's
 * users, password and API keys are published; and the `allowedHosts` entries, parsed.
 */
function listeningOf(options: EmulatorOptions): { host: string; allowedHosts: HostName[] } {
  const host = options.host ?? "127.0.0.1";
  const names = options.optionNames ?? {};
  const hostLabel = names.host ?? "host";
  if (host.trim() === "") throw new ConfigError(`${hostLabel} is empty: give an address to listen on, such as 127.0.0.1`, { field: hostLabel });
  if (!options.allowRemote && !isLoopbackHost(host)) {
    throw new ConfigError(
      `${hostLabel} is not a loopback address (127.0.0.1, ::1, localhost): the emulator's users, password and API keys are published, so anyone who reaches it could use them; set ${names.allowRemote ?? "allowRemote"} to listen there anyway`,
      { field: hostLabel },
    );
  }
  const allowedLabel = names.allowedHosts ?? "allowedHosts";
  const allowedHosts = (options.allowedHosts ?? []).map((entry, i) => {
    const parsed = parseAllowedHost(entry);
    if (!parsed) throw new ConfigError(`${allowedLabel}: entry ${i + 1} is not a host name or address with an optional :PORT`, { field: allowedLabel });
    return parsed;
  });
  return { host, allowedHosts };
}

/** Paths of the emulator's OpenAPI document: 1.15's and the seed's. */
const DOCUMENT_PATHS = ["/swagger/openapi.json", "/static/swagger/openapi.json"];

/**
 * Starts an emulator of the Account API 1.15 on loopback: token endpoint (password, refresh and
 * authorization-code grants), revoke, authorize (implicit and PKCE code flow) with a login page, every
 * API operation (Bearer or `ApiKey`), its OpenAPI description, and fault injection for tests. It answers
 * only requests whose `Host` names its address (421 otherwise; see `allowedHosts`), and listens beyond
 * loopback only with `allowRemote`: its credentials are published.
 *
 * @example
 * ```ts
 * const emu = await startEmulator();
 * const tokens = await issueToken({ baseUrl: emu.url, username: "user@example.com", password: "emulator-password" });
 * await emu.close();
 * ```
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const listening = listeningOf(options);
  const now = options.now ?? (() => Date.now());
  const store = new TokenStore([...(options.users ?? DEFAULT_USERS)], now, options.apiKeys ?? DEFAULT_API_KEYS);
  const faults = new FaultQueue(options.random);
  const requests: RecordedRequest[] = [];
  let lifetime: number | (() => number) = options.tokenLifetimeSeconds ?? defaultTokenLifetime;
  const accounts = loadAccounts(options);
  const stats: EmulatorStats = {
    requests: 0, tokenCalls: 0, passwordGrants: 0, refreshGrants: 0, codeGrants: 0, revokeCalls: 0, authorizeCalls: 0, apiCalls: 0, apiKeyCalls: 0, connections: 0,
  };
  const state: EmulatorState = {
    options,
    store,
    clients: [...(options.clients ?? DEFAULT_CLIENTS)],
    stats,
    now,
    lifetimeSeconds: () => (typeof lifetime === "function" ? lifetime() : lifetime),
    account: (username) => accounts.get(username),
    accounts,
    record: (req, url, form) => {
      requests.push({ method: req.method ?? "", path: url.pathname, query: Object.fromEntries(url.searchParams), form, headers: req.headers });
      // Trimmed in steps of 100 rather than shifted each time (an O(n) move per token call).
      if (requests.length > 1100) requests.splice(0, requests.length - 1000);
    },
    sessions: new Map(),
    cursorKey: randomBytes(32),
    trafficSeed: options.trafficSeed ?? 1,
  };
  let document = "";

  const router = new Router()
    .add(authRoutes(state))
    .add(DOCUMENT_PATHS.map((path) => ({
      method: "GET",
      path,
      public: true,
      handle: ({ res }) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(document) });
        res.end(document);
      },
    })))
    .add(accountRoutes())
    .add(deviceRoutes(state))
    .add(dnsServerRoutes(state))
    .add(referenceDataRoutes())
    .add(statsRoutes(state));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.requests++;
    // Before anything else, faults included: a page of another site (DNS rebinding) learns nothing,
    // not even which paths exist. The Host value is never echoed (it is the caller's to choose).
    const verdict = hostCheck.check(req);
    if (verdict === "missing") {
      return sendJson(res, 400, { error: "bad_request", error_code: "missing_host", error_description: "The request needs exactly one Host header" });
    }
    if (verdict === "misdirected") {
      return sendJson(res, 421, {
        error: "misdirected_request",
        error_code: "misdirected_request",
        error_description: "The Host header does not name this emulator's address (127.0.0.1, localhost or [::1], with its port)",
      });
    }
    const url = new URL(req.url ?? "/", "http://emulator.invalid");
    if (options.dateOffsetMs !== undefined) res.setHeader("date", new Date(now() + options.dateOffsetMs).toUTCString());
    const fault = faults.take(url.pathname);
    if (fault && (await applyFault(fault, req, res))) return;
    const method = req.method ?? "GET";
    const match = router.match(method, url.pathname);
    const notFound = () => sendJson(res, 404, { error: "not_found", error_code: "not_found", error_description: "No such path" });
    // Every /oapi/ path is authenticated before it is routed, as on the service: without credentials an
    // unknown path is a 401 too, and only an authenticated caller learns that it does not exist.
    if (match === undefined && !url.pathname.startsWith("/oapi/")) return notFound();
    // On API paths a wrong method is answered after authentication (401 first), as before.
    if (match !== undefined && !("route" in match) && match.public) return sendEmpty(res, 405, { allow: match.allowed.join(", ") });
    if (match !== undefined && "route" in match && match.route.public) {
      return match.route.handle({ req, res, url, params: match.params, body: undefined, get account(): never { throw new Error("public route"); } });
    }
    stats.apiCalls++;
    const who = authenticate(state, req);
    if ("failure" in who) {
      res.setHeader("www-authenticate", who.scheme === "ApiKey" ? 'ApiKey error="invalid_key"' : 'Bearer error="invalid_token"');
      const description = who.scheme === "ApiKey" ? "The API key is unknown or deleted" : "The bearer token is missing, invalid, expired or revoked";
      return sendJson(res, 401, { error: "unauthorized", error_code: who.failure, error_description: description });
    }
    if (who.apiKey) stats.apiKeyCalls++;
    const account = state.account(who.username);
    account.apiCalls++;
    if (account.overRequestQuota()) return sendError(res, 429, "TOO_MANY_REQUESTS", "The requests limit is reached");
    if (match === undefined) return notFound();
    if (!("route" in match)) return sendEmpty(res, 405, { allow: match.allowed.join(", ") });
    let body: unknown;
    if (method === "POST" || method === "PUT") {
      const text = await readBody(req);
      if (text.trim() !== "") {
        try {
          body = JSON.parse(text);
        } catch {
          return sendError(res, 400, "BAD_REQUEST", "The body is not valid JSON");
        }
      }
    }
    await match.route.handle({ req, res, url, params: match.params, body, account });
    if (method !== "GET" && res.statusCode < 400) saveState();
  }

  /**
   * Writes every account to the state file, when there is one: at start (where a failure stops the
   * start, so a wrong path is found at once) and after each change (where it is logged).
   */
  function saveState(atStart = false): void {
    if (options.stateFile === undefined) return;
    const state = { version: SEED_VERSION, accounts: accounts.entries().map(([username, account]) => seedOfAccount(username, account, accounts.extras(account))) };
    try {
      writeFileAtomic(options.stateFile, `${JSON.stringify(state)}\n`);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "error";
      const label = options.optionNames?.stateFile ?? "stateFile";
      if (atStart) throw new ConfigError(`${label}: the file cannot be written (${code})`, { field: label });
      (options.warn ?? options.log)?.(`${label}: the file could not be written (${code}); the change is not kept`);
    }
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

  saveState(true);
  // Node's own answer to a missing Host is a bare 400; the emulator answers it with a body, as above.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
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
  server.on("connection", () => void stats.connections++);
  // Above undici's 2 s keep-alive threshold (it subtracts 1 s from the server's hint), so clients reuse
  // connections instead of opening one per request.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, listening.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  // A loopback name that resolved elsewhere (an odd hosts file) is refused as a remote host would be.
  if (!options.allowRemote && !isLoopbackHost(address.address)) {
    server.close();
    const label = options.optionNames?.host ?? "host";
    throw new ConfigError(`${label} resolved to an address that is not loopback; set ${options.optionNames?.allowRemote ?? "allowRemote"} to listen there anyway`, { field: label });
  }
  const hostCheck = new HostCheck({ host: listening.host, address: address.address, port: address.port, allowedHosts: listening.allowedHosts });
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const base = `http://${host}:${address.port}`;
  document = JSON.stringify(openApiDocument(base, { requireGrantType: options.requireGrantType !== false }));

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
    liveRefreshTokens: (username) => store.counts(username).refreshTokens,
    setTokenLifetime: (seconds) => {
      lifetime = seconds;
    },
    addMfaCode: (username, code) => store.addMfaCode(username, code),
    addApiKey: (username, key) => store.addApiKey(username, key),
    revokeApiKey: (key) => void store.revokeApiKey(key),
    tokenCounts: (username) => store.counts(username),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
