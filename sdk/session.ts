import { inspect } from "node:util";
import { ConfigError, InvalidCredentialsError, InvalidGrantError, MfaRequiredError } from "./errors";
import { type TokenCallOptions, tokenRequest } from "./auth/grants";
import { requireString } from "./options";
import { revokeToken } from "./auth/revoke";
import { isTransient, type RetryOptions, retryPolicy, withRetries } from "./http/retry";
import { parseTokenResponse, type TokenGrant, type TokenSet } from "./auth/token-response";
import { type Clock, header, systemClock } from "./http/transport";
import { isoTime } from "./time";

/** Log in with username and password (and the current MFA code, used once). */
export interface PasswordCredentials {
  username: string;
  password: string;
  mfaToken?: string;
}

/** Start from a stored refresh token. */
export interface RefreshCredentials {
  refreshToken: string;
}

/** What a {@link Session} starts from: a password, a refresh token, or a token set to resume. */
export type SessionCredentials = PasswordCredentials | RefreshCredentials | TokenSet;

/** Options of {@link Session}. */
export interface SessionOptions extends Omit<TokenCallOptions, "clock" | "signal"> {
  credentials: SessionCredentials;
  /**
   * Refresh this long before expiry. Default: 5 minutes or 10 % of the token's lifetime, whichever is
   * smaller (lifetimes vary per response, so the window is computed per token).
   */
  refreshBeforeMs?: number;
  /** Refresh in the background ahead of expiry, on an unref'd timer. Default false. */
  keepAlive?: boolean;
  /** Least time between two refreshes while the current token is still valid. Default 1 000 ms. */
  minRefreshIntervalMs?: number;
  /** Called (and awaited) with every new token set, so a store can persist it. */
  onTokens?: (tokens: TokenSet) => void | Promise<void>;
  /** Receives errors that have no caller: background refreshes and `onTokens` failures. */
  onError?: (error: unknown) => void;
  /** Retries of the refresh grant on 429, 5xx and network errors. The password grant is never retried. */
  retry?: RetryOptions;
  clock?: Clock;
}

/** Node's setTimeout limit: a longer delay fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
const FIVE_MINUTES = 5 * 60_000;

/** The default refresh window for a lifetime in seconds: 5 minutes or 10 % of it, whichever is smaller. */
export function refreshWindowMs(expiresInSeconds: number): number {
  return Math.min(FIVE_MINUTES, expiresInSeconds * 100);
}

function isTokenSet(c: SessionCredentials): c is TokenSet {
  return typeof (c as TokenSet).accessToken === "string";
}

function isRefresh(c: SessionCredentials): c is RefreshCredentials {
  return !isTokenSet(c) && (c as RefreshCredentials).refreshToken !== undefined;
}

/** Errors after which asking again cannot help: the session stops calling the token endpoint. */
function isTerminal(err: unknown): boolean {
  return err instanceof InvalidGrantError || err instanceof InvalidCredentialsError || err instanceof MfaRequiredError || err instanceof ConfigError;
}

/**
 * Keeps an access token valid: logs in on first use, refreshes inside the refresh window (one in-flight
 * refresh shared by all concurrent callers), optionally ahead of time in the background, and retries
 * transient refresh failures with full-jitter backoff. Terminal failures (`invalid_grant`,
 * `invalid_credentials`, `mfa_required`) are surfaced once and remembered: no retry loop.
 *
 * @example
 * ```ts
 * const session = new Session({ credentials: { refreshToken: stored }, keepAlive: true, onTokens: save });
 * const token = await session.accessToken();
 * session.close();
 * ```
 */
export class Session {
  readonly #options: SessionOptions;
  readonly #clock: Clock;
  readonly #policy;
  #password: PasswordCredentials | undefined;
  #refreshToken: string | undefined;
  #tokens: TokenSet | undefined;
  #inflight: Promise<TokenSet> | undefined;
  #terminal: unknown;
  #lastRefreshAt = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #skewMs = 0;
  /** A refresh token a grant returned after `revoke()` began, waiting to be revoked by it. */
  #late: string | undefined;
  #revoked = false;

  constructor(options: SessionOptions) {
    const c = options?.credentials;
    if (typeof c !== "object" || c === null) {
      throw new ConfigError('"credentials" must be { username, password }, { refreshToken } or a token set', { field: "credentials" });
    }
    if (isTokenSet(c)) {
      requireString(c.accessToken, "credentials.accessToken");
      // Infinity is allowed: a bare access token whose lifetime nobody told us.
      if (typeof c.expiresAt !== "number" || Number.isNaN(c.expiresAt)) {
        throw new ConfigError('"credentials.expiresAt" must be a time in epoch milliseconds', { field: "credentials.expiresAt" });
      }
      if (c.refreshToken !== undefined) this.#refreshToken = requireString(c.refreshToken, "credentials.refreshToken");
      this.#tokens = { ...c };
    } else if (isRefresh(c)) {
      this.#refreshToken = requireString(c.refreshToken, "credentials.refreshToken");
    } else {
      const p = c as PasswordCredentials;
      this.#password = {
        username: requireString(p.username, "credentials.username"),
        password: requireString(p.password, "credentials.password"),
        ...(p.mfaToken !== undefined ? { mfaToken: requireString(p.mfaToken, "credentials.mfaToken") } : {}),
      };
    }
    for (const key of ["refreshBeforeMs", "minRefreshIntervalMs"] as const) {
      const v = options[key];
      if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 0)) {
        throw new ConfigError(`"${key}" must be a non-negative number of milliseconds`, { field: key });
      }
    }
    this.#policy = retryPolicy(options.retry);
    this.#options = { ...options };
    delete (this.#options as Partial<SessionOptions>).credentials;
    this.#clock = options.clock ?? systemClock;
    if (this.#tokens) this.#schedule();
  }

  /**
   * A valid access token. Logs in on first use; refreshes when the token is inside the refresh window.
   * If a refresh fails transiently while the current token is still valid, the current token is returned.
   */
  async accessToken(): Promise<string> {
    if (this.#terminal !== undefined) throw this.#terminal;
    const current = this.#tokens;
    const now = this.#clock.now();
    if (current && now < this.#refreshAt(current)) return current.accessToken;
    const minInterval = this.#options.minRefreshIntervalMs ?? 1000;
    if (current && now < current.expiresAt && now - this.#lastRefreshAt < minInterval) return current.accessToken;
    try {
      return (await this.#refresh()).accessToken;
    } catch (err) {
      if (current && isTransient(err) && this.#tokens === current && this.#clock.now() < current.expiresAt) {
        return current.accessToken;
      }
      throw err;
    }
  }

  /**
   * The current access token when it needs no refresh (outside the refresh window), else undefined.
   * Synchronous: the client's fast path, so a call with a fresh token costs no extra await.
   */
  currentToken(): string | undefined {
    const t = this.#tokens;
    return t && this.#terminal === undefined && this.#clock.now() < this.#refreshAt(t) ? t.accessToken : undefined;
  }

  /**
   * Reports that the server refused `failedToken` (a 401) and returns a token to replay with. Many
   * callers reporting the same token share one refresh; a token already replaced is not refreshed again.
   */
  async invalidate(failedToken: string): Promise<string> {
    if (this.#terminal !== undefined) throw this.#terminal;
    if (this.#inflight) return (await this.#inflight).accessToken;
    if (this.#tokens && this.#tokens.accessToken !== failedToken) return this.#tokens.accessToken;
    return (await this.#refresh()).accessToken;
  }

  /** The current token set (a copy), or undefined before the first login. Contains secrets. */
  get tokens(): TokenSet | undefined {
    return this.#tokens ? { ...this.#tokens } : undefined;
  }

  /** True once {@link Session.revoke} was called: the session hands out no token any more. */
  get revoked(): boolean {
    return this.#revoked;
  }

  /** Offset of the server's clock from ours (its `Date` header minus our clock), in ms. */
  get serverSkewMs(): number {
    return this.#skewMs;
  }

  /**
   * Revokes the refresh token and ends the session: later calls fail with `invalid_grant`. A login or
   * refresh still in flight is waited for, and the refresh token it returns is revoked too, so no token
   * minted by this session outlives it.
   */
  async revoke(): Promise<void> {
    const token = this.#refreshToken;
    const flight = this.#inflight;
    this.close();
    this.#tokens = undefined;
    this.#refreshToken = undefined;
    this.#password = undefined;
    this.#terminal = new InvalidGrantError("The session was revoked");
    this.#revoked = true;
    const work: Promise<void>[] = [];
    if (token !== undefined) work.push(revokeToken({ ...this.#transport(), refreshToken: token }));
    if (flight) {
      work.push(
        flight.then(
          () => undefined,
          async () => {
            // #obtain parked what the flight returned after the revocation began: revoke it too.
            const late = this.#late;
            this.#late = undefined;
            if (late !== undefined && late !== token) await revokeToken({ ...this.#transport(), refreshToken: late });
          },
        ),
      );
    }
    const results = await Promise.allSettled(work);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  }

  /** Stops the background timer. The session still answers `accessToken()` on demand. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  [inspect.custom](): string {
    const state = this.#terminal !== undefined ? "failed" : this.#tokens ? `valid until ${isoTime(this.#tokens.expiresAt)}` : "not logged in";
    return `Session { ${state} }`;
  }

  toJSON(): Record<string, unknown> {
    return { expiresAt: this.#tokens?.expiresAt, failed: this.#terminal !== undefined };
  }

  #refreshAt(t: TokenSet): number {
    return t.expiresAt - (this.#options.refreshBeforeMs ?? refreshWindowMs(t.expiresIn));
  }

  #transport(): TokenCallOptions {
    const { baseUrl, dispatcher, timeoutMs, grantType, allowInsecureHttp } = this.#options;
    return {
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      ...(dispatcher !== undefined ? { dispatcher } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(grantType !== undefined ? { grantType } : {}),
      ...(allowInsecureHttp !== undefined ? { allowInsecureHttp } : {}),
    };
  }

  #refresh(): Promise<TokenSet> {
    if (!this.#inflight) {
      const flight = this.#obtain();
      this.#inflight = flight;
      const clear = (): void => {
        if (this.#inflight === flight) this.#inflight = undefined;
      };
      flight.then(clear, clear);
    }
    return this.#inflight;
  }

  async #obtain(): Promise<TokenSet> {
    let set: TokenSet;
    try {
      try {
        if (this.#refreshToken !== undefined) set = await this.#refreshGrant(this.#refreshToken);
        else if (this.#password) set = await this.#passwordGrant(this.#password);
        else throw new InvalidGrantError("The access token has expired and there is no refresh token to renew it");
      } catch (err) {
        // A revoked refresh token with a password at hand (and no spent MFA code): log in again, once.
        if (!(err instanceof InvalidGrantError) || !this.#password || this.#refreshToken === undefined) throw err;
        this.#refreshToken = undefined;
        set = await this.#passwordGrant(this.#password);
      }
    } catch (err) {
      if (isTerminal(err) && this.#terminal === undefined) {
        this.#terminal = err;
        clearTimeout(this.#timer);
      }
      throw err;
    }
    if (this.#terminal !== undefined) {
      // Revoked while the grant was in flight: never hand out or keep what it returned.
      this.#late = set.refreshToken;
      throw this.#terminal;
    }
    await this.#accept(set);
    return set;
  }

  async #grant(grant: TokenGrant, form: Record<string, string>): Promise<TokenSet> {
    // Expiry counts from when the request left: the server started the lifetime no earlier.
    const sentAt = this.#clock.now();
    const res = await tokenRequest(grant, form, this.#transport());
    const set = parseTokenResponse(res, { grant, clock: { now: () => sentAt } });
    const date = Date.parse(header(res, "date") ?? "");
    if (!Number.isNaN(date)) this.#skewMs = date - this.#clock.now();
    return set;
  }

  async #passwordGrant(p: PasswordCredentials): Promise<TokenSet> {
    const form: Record<string, string> = { username: p.username, password: p.password };
    if (p.mfaToken !== undefined) form.mfa_token = p.mfaToken;
    try {
      return await this.#grant("password", form);
    } finally {
      // An MFA code is single-use: never send it twice, and never log in again with a spent one.
      if (p.mfaToken !== undefined) this.#password = undefined;
    }
  }

  async #refreshGrant(token: string): Promise<TokenSet> {
    const set = await withRetries(this.#policy, () => this.#grant("refresh_token", { refresh_token: token }));
    return { ...set, refreshToken: set.refreshToken ?? token };
  }

  async #accept(set: TokenSet): Promise<void> {
    this.#tokens = set;
    if (set.refreshToken !== undefined) this.#refreshToken = set.refreshToken;
    this.#lastRefreshAt = this.#clock.now();
    this.#schedule();
    if (this.#options.onTokens) {
      try {
        await this.#options.onTokens({ ...set });
      } catch (err) {
        this.#options.onError?.(err);
      }
    }
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#options.keepAlive || this.#closed || this.#terminal !== undefined || !this.#tokens) return;
    const minInterval = this.#options.minRefreshIntervalMs ?? 1000;
    this.#arm(Math.max(this.#refreshAt(this.#tokens) - this.#clock.now(), minInterval));
  }

  /** Arms the background timer, in chunks no longer than Node's timer limit. */
  #arm(delay: number): void {
    const chunk = Math.min(delay, MAX_TIMER_MS);
    this.#timer = setTimeout(() => {
      if (delay > MAX_TIMER_MS) return this.#arm(delay - MAX_TIMER_MS);
      this.#refresh().catch((err: unknown) => {
        this.#options.onError?.(err);
        if (this.#terminal === undefined && !this.#closed) this.#arm(Math.max(this.#options.minRefreshIntervalMs ?? 1000, 30_000));
      });
    }, chunk);
    this.#timer.unref();
  }
}
