import { createHash } from "node:crypto";
import type { Dispatcher } from "undici";
import { Client } from "./client";
import { proxyAwareAgent } from "../http/transport";
import { Session } from "../session";
import type { SessionCredentials } from "../config/credentials";
import type { SessionOptions } from "../config/input";
import type { ClientOptions, SharedClientOptions } from "../config/client-input";
import { DEFAULT_CONNECTIONS } from "../config/client";
import { resolveEndpointConfig, resolveSessionConfig } from "../config/resolve";
import type { Endpoint } from "../config/resolved";

// One registry per process, shared by every copy of the package (a Pulumi program and the provider
// host may each load their own).
const REGISTRY = Symbol.for("pulumi-dns-account.shared-sessions");

interface Entry {
  session?: Session;
  client?: Client;
  /** The connections the session's grants and the client's calls share (one pool, no extra connection for a login). */
  dispatcher?: Dispatcher;
}

function registry(): Map<string, Entry> {
  const g = globalThis as unknown as Record<symbol, Map<string, Entry> | undefined>;
  g[REGISTRY] ??= new Map();
  return g[REGISTRY]!;
}

/**
 * A key for "the same credentials": base URL, kind, username and a SHA-256 of the secret. The secret
 * itself is never kept in the key; an MFA code is not part of it (it is used once).
 */
export function credentialKey(baseUrl: string | undefined, credentials: SessionCredentials, allowInsecureHttp = false): string {
  return keyOf(resolveEndpointConfig({ baseUrl, allowInsecureHttp }).endpoint, credentials);
}

/** {@link credentialKey} of a resolved base URL. */
function keyOf(endpoint: Endpoint, credentials: SessionCredentials): string {
  const c = credentials as Partial<Record<"username" | "password" | "refreshToken" | "accessToken", string>>;
  const kind = c.accessToken !== undefined ? "tokens" : c.refreshToken !== undefined ? "refresh" : "password";
  const secret = kind === "tokens" ? (c.refreshToken ?? c.accessToken) : kind === "refresh" ? c.refreshToken : `${c.username}\u0000${c.password}`;
  return createHash("sha256").update(JSON.stringify([endpoint.href, kind, secret ?? ""])).digest("hex");
}

/**
 * The process-wide session for a set of credentials: the first call makes it, later calls with the same
 * credentials get the same one, so however many callers there are, they cause one login.
 *
 * @example
 * ```ts
 * const a = sharedSession({ credentials: { refreshToken } });
 * const b = sharedSession({ credentials: { refreshToken } }); // a === b
 * ```
 */
export function sharedSession(options: SessionOptions): Session {
  return sessionEntry(options).session!;
}

/** The entry of a session's credentials, with its session made (or replaced, once revoked). */
function sessionEntry(options: SessionOptions & { endpoint?: Endpoint }, connections = DEFAULT_CONNECTIONS): Entry {
  // Resolved once: the key, the session's token calls and (in sharedClient) the client share it.
  const input = resolveEndpointConfig(options);
  const key = keyOf(input.endpoint, input.credentials);
  const map = registry();
  const entry = map.get(key);
  // A revoked session (a program revokes what it minted at exit) is replaced, so a late caller logs in again.
  if (!entry?.session || entry.session.revoked) {
    // The session's grants go through the connections its client will use (given a dispatcher, through that).
    const dispatcher = options.dispatcher ?? entry?.dispatcher ?? proxyAwareAgent({ keepAliveTimeout: 10_000, connections });
    const fresh: Entry = { session: new Session(resolveSessionConfig({ ...input, dispatcher })), ...(options.dispatcher === undefined ? { dispatcher } : {}) };
    map.set(key, fresh);
    return fresh;
  }
  return entry;
}

/**
 * The process-wide API client for a set of credentials (built on {@link sharedSession}) or for an API
 * key. Do not `close()` it: other callers share it. Its idle connections do not keep the process alive.
 * `allowInsecureHttp` works as in {@link createClient}.
 *
 * @example
 * ```ts
 * const client = sharedClient({ baseUrl: "http://dns-api.lan:8787", allowInsecureHttp: true, credentials: { refreshToken } });
 * const keyed = sharedClient({ apiKey: process.env.DNS_ACCOUNT_API_KEY! });
 * ```
 */
export function sharedClient(options: SharedClientOptions): Client {
  if ("apiKey" in options && options.apiKey !== undefined) {
    // The base URL is resolved once, for the key and the client. Keyed by a SHA-256 of the API key, never the key itself.
    const input = resolveEndpointConfig(options);
    const key = createHash("sha256").update(JSON.stringify([input.endpoint.href, "apiKey", options.apiKey])).digest("hex");
    const map = registry();
    let entry = map.get(key);
    if (!entry?.client) {
      entry = { client: new Client(input) };
      map.set(key, entry);
    }
    return entry.client!;
  }
  if (!("credentials" in options)) return new Client(options as ClientOptions); // reports the missing credentials
  // An invalid `connections` is the client's to report (it then makes its own pool, and throws).
  const connections = options.connections === undefined || (Number.isInteger(options.connections) && options.connections > 0) ? options.connections : undefined;
  const input = resolveEndpointConfig(options);
  const entry = sessionEntry(
    {
      credentials: options.credentials,
      endpoint: input.endpoint,
      ...(options.dispatcher !== undefined ? { dispatcher: options.dispatcher } : {}),
    },
    connections,
  );
  if (!entry.client) {
    const { credentials: _c, sessionOptions: _s, ...rest } = input;
    // One pool for the login and the calls: the client borrows the session's (it is closed with the entry).
    entry.client = new Client({ ...rest, session: entry.session!, ...(entry.dispatcher && rest.dispatcher === undefined && connections === options.connections ? { dispatcher: entry.dispatcher } : {}) });
  }
  return entry.client;
}

/** Closes and forgets every shared session and client (for tests and long-lived hosts). */
export async function resetSharedSessions(): Promise<void> {
  const map = registry();
  const entries = [...map.values()];
  map.clear();
  for (const e of entries) {
    e.session?.close();
    await e.client?.close();
    await e.dispatcher?.close();
  }
}
