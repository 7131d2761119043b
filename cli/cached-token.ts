import { lstatSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// kubectl runs `dns-account exec-credential` before every call, so the common case (a stored profile
// whose access token is still fresh) is answered here with node's own modules only: no undici, no zod,
// none of the SDK. Anything this reader does not fully recognise returns undefined and the caller takes
// the full path (TokenStore), which validates, refreshes, and produces the proper error. The store's
// folder rule and the refresh window are repeated from token-store.ts and session.ts; a test keeps the
// copies equal.

/** A fresh access token read from a stored profile. */
export interface CachedToken {
  accessToken: string;
  /** Epoch ms. */
  expiresAt: number;
  /** `expiresAt` as ISO-8601 (made here, so the fast path needs no other module). */
  expiresAtIso: string;
  baseUrl: string;
  profile: string;
}

/**
 * The store's folder, as `defaultStoreDir` in `sdk/credentials/token-store.ts` computes it.
 *
 * @example
 * ```ts
 * const file = path.join(storeDir(process.env), "credentials.json");
 * ```
 */
export function storeDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  if (env.DNS_ACCOUNT_CONFIG_DIR) return env.DNS_ACCOUNT_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, "dns-account");
  if (platform === "win32") return path.join(env.APPDATA ?? path.join(home, "AppData", "Roaming"), "dns-account");
  if (platform === "darwin") return path.join(home, "Library", "Application Support", "dns-account");
  return path.join(home, ".config", "dns-account");
}

/**
 * How long before expiry a token counts as stale: 5 minutes or 10 % of its lifetime, whichever is
 * smaller (`refreshWindowMs` of the session).
 *
 * @example
 * ```ts
 * staleWindowMs(3600); // 300_000
 * ```
 */
export function staleWindowMs(expiresInSeconds: number): number {
  return Math.min(5 * 60_000, expiresInSeconds * 100);
}

const STRINGS = ["baseUrl", "username", "refreshToken", "accessToken", "updatedAt"];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): boolean => typeof v === "string" && v.length > 0;

/** The same shape the store's schema accepts, or false (then the full path decides). */
function wellFormed(p: unknown): p is Record<string, unknown> & { baseUrl: string } {
  if (!isObject(p) || !nonEmpty(p.baseUrl)) return false;
  for (const [key, value] of Object.entries(p)) {
    if (STRINGS.includes(key)) {
      if (typeof value !== "string" || (key !== "updatedAt" && value.length === 0)) return false;
    } else if (key === "expiresAt") {
      if (!Number.isSafeInteger(value)) return false;
    } else if (key === "expiresIn") {
      if (!Number.isSafeInteger(value) || (value as number) <= 0) return false;
    } else return false;
  }
  return true;
}

/**
 * A stored profile's access token when it is fresh and the store is in order (owned by this user, closed
 * to others, well formed); otherwise undefined, and the caller goes through the token store.
 *
 * @example
 * ```ts
 * const cached = cachedToken(process.env, "default");
 * if (cached) console.log(cached.accessToken);
 * ```
 */
export function cachedToken(env: NodeJS.ProcessEnv, profile: string, now = Date.now()): CachedToken | undefined {
  try {
    const dir = path.resolve(storeDir(env));
    const file = path.join(dir, "credentials.json");
    // The store's own rules, read-only: a folder that is ours and closed to writers, and no link.
    const folder = statSync(dir);
    if (typeof process.getuid === "function" && folder.uid !== process.getuid()) return undefined;
    if (process.platform !== "win32" && (folder.mode & 0o022) !== 0) return undefined;
    const info = lstatSync(file);
    if (!info.isFile() || info.size > 1024 * 1024) return undefined;
    if (typeof process.getuid === "function" && info.uid !== process.getuid()) return undefined;
    if (process.platform !== "win32" && (info.mode & 0o077) !== 0) return undefined;
    const data = JSON.parse(readFileSync(file, "utf8")) as unknown;
    if (!isObject(data) || data.version !== 1 || !isObject(data.profiles)) return undefined;
    for (const key of Object.keys(data)) if (key !== "version" && key !== "profiles") return undefined;
    const profiles = data.profiles;
    for (const [name, p] of Object.entries(profiles)) if (name.length === 0 || !wellFormed(p)) return undefined;
    const p = Object.hasOwn(profiles, profile) ? (profiles[profile] as Record<string, unknown> & { baseUrl: string }) : undefined;
    if (!p || typeof p.accessToken !== "string" || typeof p.expiresAt !== "number") return undefined;
    const expiresIn = typeof p.expiresIn === "number" ? p.expiresIn : 3600;
    if (!(now < p.expiresAt - staleWindowMs(expiresIn))) return undefined;
    // A time past the Date range throws here, and the store (which reads it as unknown) decides.
    return { accessToken: p.accessToken, expiresAt: p.expiresAt, expiresAtIso: new Date(p.expiresAt).toISOString(), baseUrl: p.baseUrl, profile };
  } catch {
    return undefined;
  }
}
