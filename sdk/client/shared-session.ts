import { createHash } from "node:crypto";
import { Client, type ClientOptions } from "./client";
import { resolveBaseUrl } from "../http/transport";
import { Session, type SessionCredentials, type SessionOptions } from "../session";

// One registry per process, shared by every copy of the package (a Pulumi program and the provider
// host may each load their own).
const REGISTRY = Symbol.for("pulumi-dns-account.shared-sessions");

interface Entry {
  session: Session;
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
  let entry = map.get(key);
  // A revoked session (a program revokes what it minted at exit) is replaced, so a late caller logs in again.
  if (!entry || entry.session.revoked) {
    entry = { session: new Session(options) };
    map.set(key, entry);
  }
  return entry.session;
}

/**
 * The process-wide API client for a set of credentials, built on {@link sharedSession}. Do not `close()`
 * it: other callers share it. Its idle connections do not keep the process alive. `allowInsecureHttp`
 * works as in {@link createClient}.
 *
 * @example
 * ```ts
 * const client = sharedClient({ baseUrl: "http://dns-api.lan:8787", allowInsecureHttp: true, credentials: { refreshToken } });
 * ```
 */
export function sharedClient(options: Omit<ClientOptions, "session"> & { credentials: SessionCredentials }): Client {
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
    e.session.close();
    await e.client?.close();
  }
}
