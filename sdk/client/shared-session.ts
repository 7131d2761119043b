import { createHash } from "node:crypto";
import { Client, type ClientOptions } from "./client";
import { resolveBaseUrl } from "../http/transport";
import { Session, type SessionCredentials, type SessionOptions } from "../session";

// One registry per process, shared by every copy of the package (a Pulumi program and the provider
// host may each load their own).
const REGISTRY = Symbol.for("pulumi-dns-account.shared-sessions");

interface Entry {
  session?: Session;
  client?: Client;
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
  const c = credentials as Partial<Record<"username" | "password" | "refreshToken" | "accessToken", string>>;
  const kind = c.accessToken !== undefined ? "tokens" : c.refreshToken !== undefined ? "refresh" : "password";
  const secret = kind === "tokens" ? (c.refreshToken ?? c.accessToken) : kind === "refresh" ? c.refreshToken : `${c.username}\u0000${c.password}`;
  return createHash("sha256").update(JSON.stringify([resolveBaseUrl(baseUrl, allowInsecureHttp).href, kind, secret ?? ""])).digest("hex");
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
  const key = credentialKey(options.baseUrl, options.credentials, options.allowInsecureHttp);
  const map = registry();
  let session = map.get(key)?.session;
  // A revoked session (a program revokes what it minted at exit) is replaced, so a late caller logs in again.
  if (!session || session.revoked) {
    session = new Session(options);
    map.set(key, { session });
  }
  return session;
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
export function sharedClient(
  options: (Omit<ClientOptions, "session" | "apiKey"> & { credentials: SessionCredentials }) | (Omit<ClientOptions, "session" | "credentials" | "sessionOptions"> & { apiKey: string }),
): Client {
  if ("apiKey" in options && options.apiKey !== undefined) {
    // Keyed by a SHA-256 of the key, never the key itself.
    const key = createHash("sha256").update(JSON.stringify([resolveBaseUrl(options.baseUrl, options.allowInsecureHttp).href, "apiKey", options.apiKey])).digest("hex");
    const map = registry();
    let entry = map.get(key);
    if (!entry?.client) {
      entry = { client: new Client(options) };
      map.set(key, entry);
    }
    return entry.client!;
  }
  if (!("credentials" in options)) return new Client(options as ClientOptions); // reports the missing credentials
  const session = sharedSession({
    credentials: options.credentials,
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(options.allowInsecureHttp !== undefined ? { allowInsecureHttp: options.allowInsecureHttp } : {}),
  });
  const entry = registry().get(credentialKey(options.baseUrl, options.credentials, options.allowInsecureHttp))!;
  if (!entry.client) {
    const { credentials: _c, sessionOptions: _s, ...rest } = options;
    entry.client = new Client({ ...rest, session });
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
  }
}
