import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A user account of the emulator. */
export interface EmulatorUser {
  username: string;
  password: string;
  /**
   * Two-factor authentication: `true` accepts any 6-digit code once; a list accepts only those codes,
   * each once. Absent or `false`: no MFA.
   */
  mfa?: boolean | string[];
}

/** An API key (`Authorization: ApiKey <key>`), valid until revoked, acting as its user. */
export interface EmulatorApiKey {
  key: string;
  username: string;
}

interface RefreshRecord {
  username: string;
  revoked: boolean;
}

interface AccessRecord {
  username: string;
  /** The refresh token's record (not its string), so revocation reaches tokens after the record is dropped. */
  refresh?: RefreshRecord;
  expiresAt: number;
}

/** A pending authorization code (code flow with PKCE). */
export interface CodeRecord {
  username: string;
  clientId: string;
  redirectUri: string;
  challenge: string;
  expiresAt: number;
  /** Set once redeemed: a second use revokes what the first use issued (RFC 6749 §4.1.2). */
  redeemed?: RefreshRecord;
}

/** Why a bearer token was refused. */
export type BearerFailure = "missing_token" | "invalid_token" | "token_expired" | "token_revoked";

/** How long an authorization code stays valid. */
export const CODE_LIFETIME_MS = 60_000;

// Tokens are drawn from a pooled block of randomness: one CSPRNG call per 204 tokens instead of one each
// (what crypto.randomUUID does too), which is most of the token endpoint's CPU otherwise.
let pool = Buffer.alloc(0);
let poolOffset = 0;

/** A fresh random token of `bytes` bytes, base64url. */
export function randomToken(bytes = 20): string {
  if (poolOffset + bytes > pool.length) {
    pool = randomBytes(4096);
    poolOffset = 0;
  }
  const token = pool.toString("base64url", poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return token;
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Issued tokens, codes, API keys and MFA codes: the emulator's authentication state. Expired access
 * tokens and codes are pruned as new ones are issued (amortised: a sweep each time the map has doubled
 * since the last one), so memory stays flat however many grants are served.
 *
 * @example
 * ```ts
 * const store = new TokenStore([{ username: "u", password: "p" }], Date.now);
 * const refresh = store.newRefreshToken("u");
 * ```
 */
export class TokenStore {
  private readonly refresh = new Map<string, RefreshRecord>();
  private readonly access = new Map<string, AccessRecord>();
  private readonly codes = new Map<string, CodeRecord>();
  private readonly apiKeys = new Map<string, string>();
  private readonly usedCodes = new Map<string, Set<string>>();
  private readonly users = new Map<string, EmulatorUser>();
  private sweepAt = 1024;

  constructor(users: EmulatorUser[], private readonly now: () => number, apiKeys: readonly EmulatorApiKey[] = []) {
    for (const u of users) this.users.set(u.username, { ...u, mfa: Array.isArray(u.mfa) ? [...u.mfa] : u.mfa ?? false });
    for (const k of apiKeys) this.apiKeys.set(k.key, k.username);
  }

  /** Adds a single-use MFA code for a user (turning MFA on with a list of codes). */
  addMfaCode(username: string, code: string): void {
    const user = this.users.get(username);
    if (!user) throw new Error("unknown user");
    user.mfa = Array.isArray(user.mfa) ? [...user.mfa, code] : [code];
  }

  /** Checks credentials; returns the failure's `error_code` or ok. */
  authenticate(username: string, password: string, mfaToken: string | undefined): { ok: true } | { ok: false; errorCode: string } {
    const user = this.users.get(username);
    if (!user || !sameString(user.password, password)) return { ok: false, errorCode: "bad_credentials" };
    if (!user.mfa) return { ok: true };
    if (mfaToken === undefined || mfaToken === "") return { ok: false, errorCode: "2fa_required" };
    const used = this.usedCodes.get(username) ?? new Set<string>();
    const valid = Array.isArray(user.mfa) ? user.mfa.includes(mfaToken) : /^\d{6}$/.test(mfaToken);
    if (!valid || used.has(mfaToken)) return { ok: false, errorCode: "2fa_invalid" };
    // Bounded: a 6-digit space, and codes older than the last 1,000 may be forgotten.
    if (used.size >= 1000) used.delete(used.values().next().value as string);
    used.add(mfaToken);
    this.usedCodes.set(username, used);
    return { ok: true };
  }

  /** Issues a new refresh token for a user. */
  newRefreshToken(username: string): string {
    const token = randomToken();
    this.refresh.set(token, { username, revoked: false });
    return token;
  }

  /** The user of a live refresh token, or undefined when unknown or revoked. */
  refreshOwner(token: string): string | undefined {
    const r = this.refresh.get(token);
    return r && !r.revoked ? r.username : undefined;
  }

  /** Issues an access token valid for `lifetimeSeconds`, tied to a refresh token if given. */
  newAccessToken(username: string, lifetimeSeconds: number, refreshToken?: string): string {
    this.maybeSweep();
    const token = randomToken();
    const refresh = refreshToken === undefined ? undefined : this.refresh.get(refreshToken);
    this.access.set(token, { username, expiresAt: this.now() + lifetimeSeconds * 1000, ...(refresh ? { refresh } : {}) });
    return token;
  }

  /** Revokes a refresh token (and so every access token issued from it). Returns whether it was live. */
  revoke(token: string): boolean {
    const r = this.refresh.get(token);
    if (!r) return false;
    r.revoked = true;
    this.refresh.delete(token);
    return true;
  }

  /** Moves a refresh token's grant to a new token (for servers that rotate refresh tokens). */
  rotate(token: string): string {
    const r = this.refresh.get(token);
    if (!r) throw new Error("unknown refresh token");
    this.revoke(token);
    return this.newRefreshToken(r.username);
  }

  /** Marks every access token expired (the refresh tokens stay valid). */
  expireAccessTokens(): void {
    for (const a of this.access.values()) a.expiresAt = Number.NEGATIVE_INFINITY;
  }

  /** The user of a bearer token, or why it is refused. */
  bearer(token: string | undefined): { username: string } | { failure: BearerFailure } {
    if (!token) return { failure: "missing_token" };
    const a = this.access.get(token);
    if (!a) return { failure: "invalid_token" };
    if (a.refresh?.revoked) return { failure: "token_revoked" };
    if (this.now() >= a.expiresAt) return { failure: "token_expired" };
    return { username: a.username };
  }

  /** The user of an API key, or undefined. */
  apiKeyOwner(key: string | undefined): string | undefined {
    return key ? this.apiKeys.get(key) : undefined;
  }

  /** Adds an API key for a user (a fresh random one unless given) and returns it. */
  addApiKey(username: string, key: string = `emu_${randomBytes(24).toString("base64url")}`): string {
    this.apiKeys.set(key, username);
    return key;
  }

  /** Deletes an API key, as the dashboard does. Returns whether it existed. */
  revokeApiKey(key: string): boolean {
    return this.apiKeys.delete(key);
  }

  /** Stores a one-time authorization code bound to client, redirect URI and S256 challenge. */
  newCode(record: Omit<CodeRecord, "expiresAt" | "redeemed">): string {
    this.maybeSweep();
    const code = randomBytes(24).toString("base64url");
    this.codes.set(code, { ...record, expiresAt: this.now() + CODE_LIFETIME_MS });
    return code;
  }

  /**
   * Redeems a code: the verifier must hash (S256) to the challenge and client and redirect URI must
   * match. A code is good once; a replay revokes the refresh token its first use issued.
   */
  redeemCode(code: string, clientId: string, redirectUri: string, verifier: string): { username: string; bind(refreshToken: string): void } | undefined {
    const c = this.codes.get(code);
    if (!c) return undefined;
    if (c.redeemed) {
      c.redeemed.revoked = true;
      for (const [token, r] of this.refresh) if (r === c.redeemed) this.refresh.delete(token);
      return undefined;
    }
    if (this.now() >= c.expiresAt || c.clientId !== clientId || c.redirectUri !== redirectUri) return undefined;
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return undefined;
    if (!sameString(createHash("sha256").update(verifier).digest("base64url"), c.challenge)) return undefined;
    return {
      username: c.username,
      bind: (refreshToken) => {
        c.redeemed = this.refresh.get(refreshToken) ?? { username: c.username, revoked: false };
      },
    };
  }

  /** Live refresh tokens (optionally of one user), access tokens and codes held: for tests and leak checks. */
  counts(username?: string): { refreshTokens: number; accessTokens: number; codes: number } {
    let refreshTokens = 0;
    for (const r of this.refresh.values()) if (!r.revoked && (username === undefined || r.username === username)) refreshTokens++;
    return { refreshTokens, accessTokens: this.access.size, codes: this.codes.size };
  }

  private maybeSweep(): void {
    if (this.access.size + this.codes.size < this.sweepAt) return;
    const now = this.now();
    for (const [t, a] of this.access) if (now >= a.expiresAt || a.refresh?.revoked) this.access.delete(t);
    // Redeemed codes are kept until they expire so a replay within their lifetime is still caught.
    for (const [c, r] of this.codes) if (now >= r.expiresAt) this.codes.delete(c);
    this.sweepAt = Math.max(1024, 2 * (this.access.size + this.codes.size));
  }
}
