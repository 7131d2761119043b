import { randomBytes } from "node:crypto";

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

interface RefreshRecord {
  username: string;
  revoked: boolean;
}

interface AccessRecord {
  username: string;
  refreshToken?: string;
  expiresAt: number;
}

/** Why a bearer token was refused. */
export type BearerFailure = "missing_token" | "invalid_token" | "token_expired" | "token_revoked";

/** Issued tokens and MFA codes: the emulator's authentication state. */
export class TokenStore {
  private readonly refresh = new Map<string, RefreshRecord>();
  private readonly access = new Map<string, AccessRecord>();
  private readonly usedCodes = new Map<string, Set<string>>();
  private readonly users = new Map<string, EmulatorUser>();

  constructor(users: EmulatorUser[], private readonly now: () => number) {
    for (const u of users) this.users.set(u.username, { ...u, mfa: Array.isArray(u.mfa) ? [...u.mfa] : u.mfa ?? false });
  }

  /** Adds a single-use MFA code for a user (turning MFA on with a list of codes). */
  addMfaCode(username: string, code: string): void {
    const user = this.users.get(username);
    if (!user) throw new Error(`unknown user ${username}`);
    user.mfa = Array.isArray(user.mfa) ? [...user.mfa, code] : [code];
  }

  /** Checks credentials; returns the failure's `error_code` or the username. */
  authenticate(username: string, password: string, mfaToken: string | undefined): { ok: true } | { ok: false; errorCode: string } {
    const user = this.users.get(username);
    if (!user || user.password !== password) return { ok: false, errorCode: "bad_credentials" };
    if (!user.mfa) return { ok: true };
    if (mfaToken === undefined || mfaToken === "") return { ok: false, errorCode: "2fa_required" };
    const used = this.usedCodes.get(username) ?? new Set<string>();
    const valid = Array.isArray(user.mfa) ? user.mfa.includes(mfaToken) : /^\d{6}$/.test(mfaToken);
    if (!valid || used.has(mfaToken)) return { ok: false, errorCode: "2fa_invalid" };
    used.add(mfaToken);
    this.usedCodes.set(username, used);
    return { ok: true };
  }

  /** Issues a new refresh token for a user. */
  newRefreshToken(username: string): string {
    const token = randomBytes(20).toString("base64url");
    this.refresh.set(token, { username, revoked: false });
    return token;
  }

  /** The user of a live refresh token, or undefined when unknown or revoked. */
  refreshOwner(token: string): string | undefined {
    const r = this.refresh.get(token);
    return r && !r.revoked ? r.username : undefined;
  }

  /** How many refresh tokens are live (issued and not revoked), for one user or all. */
  liveRefreshTokens(username?: string): number {
    let n = 0;
    for (const r of this.refresh.values()) if (!r.revoked && (username === undefined || r.username === username)) n++;
    return n;
  }

  /** Issues an access token valid for `lifetimeSeconds`. */
  newAccessToken(username: string, lifetimeSeconds: number, refreshToken?: string): string {
    const token = randomBytes(20).toString("base64url");
    this.access.set(token, {
      username,
      expiresAt: this.now() + lifetimeSeconds * 1000,
      ...(refreshToken !== undefined ? { refreshToken } : {}),
    });
    return token;
  }

  /** Revokes a refresh token and every access token issued from it. Returns whether it was known. */
  revoke(token: string): boolean {
    const r = this.refresh.get(token);
    if (!r) return false;
    r.revoked = true;
    return true;
  }

  /** Moves a refresh token's record to a new token (for servers that rotate refresh tokens). */
  rotate(token: string): string {
    const r = this.refresh.get(token);
    if (!r) throw new Error("unknown refresh token");
    r.revoked = true;
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
    if (a.refreshToken !== undefined && this.refresh.get(a.refreshToken)?.revoked) return { failure: "token_revoked" };
    if (this.now() >= a.expiresAt) return { failure: "token_expired" };
    return { username: a.username };
  }
}
