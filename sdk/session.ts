import { inspect } from "node:util";
import { ConfigError, InvalidCredentialsError, InvalidGrantError, MfaRequiredError } from "./errors";
import { tokenRequest } from "./auth/grants";
import { revokeWith } from "./auth/revoke";
import { isTransient, withRetries } from "./http/retry";
import { parseTokenResponse, type TokenGrant, type TokenSet } from "./auth/token-response";
import { header } from "./http/transport";
import type { PasswordCredentials } from "./config/credentials";
import type { SessionOptions } from "./config/input";
import { resolveSessionConfig } from "./config/resolve";
import type { SessionConfig, TransportConfig } from "./config/resolved";
import { isoTime } from "./time";

export type { PasswordCredentials, RefreshCredentials, SessionCredentials } from "./config/credentials";
export { resolveSessionConfig } from "./config/resolve";
export type { SessionConfig } from "./config/resolved";

/** Node's setTimeout limit: a longer delay fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
const FIVE_MINUTES = 5 * 60_000;

/** The default refresh window for a lifetime in seconds: 5 minutes or 10 % of it, whichever is smaller. */
export function refreshWindowMs(expiresInSeconds: number): number {
  return Math.min(FIVE_MINUTES, expiresInSeconds * 100);
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
  /** Everything the session reads of its options, resolved once (its credentials taken out, below). */
  readonly #config: Omit<SessionConfig, "credentials">;
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

  /** Resolves `options` once into the configuration the session reads; a resolved one is taken as it is. */
  constructor(options: SessionOptions | SessionConfig) {
    // The credentials move into the session's own fields (which revoke() and a spent MFA code clear).
    const { credentials: c, ...config } = resolveSessionConfig(options);
    this.#config = config;
    if (c.kind === "tokens") {
      this.#tokens = { ...c.tokens };
      if (c.refreshToken !== undefined) this.#refreshToken = c.refreshToken;
    } else if (c.kind === "refresh") {
      this.#refreshToken = c.refreshToken;
    } else {
      this.#password = { username: c.username, password: c.password, ...(c.mfaToken !== undefined ? { mfaToken: c.mfaToken } : {}) };
    }
    if (this.#tokens) this.#schedule();
  }

  /**
   * A valid access token. Logs in on first use; refreshes when the token is inside the refresh window.
   * If a refresh fails transiently while the current token is still valid, the current token is returned.
   */
  async accessToken(): Promise<string> {
    if (this.#terminal !== undefined) throw this.#terminal;
    const current = this.#tokens;
    const now = this.#config.clock.now();
    if (current && now < this.#refreshAt(current)) return current.accessToken;
    const minInterval = this.#config.minRefreshIntervalMs;
    if (current && now < current.expiresAt && now - this.#lastRefreshAt < minInterval) return current.accessToken;
    try {
      return (await this.#refresh()).accessToken;
    } catch (err) {
      if (current && isTransient(err) && this.#tokens === current && this.#config.clock.now() < current.expiresAt) {
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
    return t && this.#terminal === undefined && this.#config.clock.now() < this.#refreshAt(t) ? t.accessToken : undefined;
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
    if (token !== undefined) work.push(this.#revokeOne(token));
    if (flight) {
      work.push(
        flight.then(
          () => undefined,
          async () => {
            // #obtain parked what the flight returned after the revocation began: revoke it too.
            const late = this.#late;
            this.#late = undefined;
            if (late !== undefined && late !== token) await this.#revokeOne(late);
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
    return t.expiresAt - (this.#config.refreshBeforeMs ?? refreshWindowMs(t.expiresIn));
  }

  async #revokeOne(refreshToken: string): Promise<void> {
    await revokeWith(this.#transport(), refreshToken);
  }

  /** The token calls' transport; a bad base URL or timeout is reported here, on the first token call. */
  #transport(): TransportConfig {
    const transport = this.#config.transport;
    if (transport instanceof ConfigError) throw transport;
    return transport;
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
    const sentAt = this.#config.clock.now();
    const res = await tokenRequest(grant, form, this.#transport());
    const set = parseTokenResponse(res, { grant, clock: { now: () => sentAt } });
    const date = Date.parse(header(res, "date") ?? "");
    if (!Number.isNaN(date)) this.#skewMs = date - this.#config.clock.now();
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
    const set = await withRetries(this.#config.retry, () => this.#grant("refresh_token", { refresh_token: token }));
    return { ...set, refreshToken: set.refreshToken ?? token };
  }

  async #accept(set: TokenSet): Promise<void> {
    this.#tokens = set;
    if (set.refreshToken !== undefined) this.#refreshToken = set.refreshToken;
    this.#lastRefreshAt = this.#config.clock.now();
    this.#schedule();
    if (this.#config.onTokens) {
      try {
        await this.#config.onTokens({ ...set });
      } catch (err) {
        this.#config.onError?.(err);
      }
    }
  }

  #schedule(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#config.keepAlive || this.#closed || this.#terminal !== undefined || !this.#tokens) return;
    const minInterval = this.#config.minRefreshIntervalMs;
    this.#arm(Math.max(this.#refreshAt(this.#tokens) - this.#config.clock.now(), minInterval));
  }

  /** Arms the background timer, in chunks no longer than Node's timer limit. */
  #arm(delay: number): void {
    const chunk = Math.min(delay, MAX_TIMER_MS);
    this.#timer = setTimeout(() => {
      if (delay > MAX_TIMER_MS) return this.#arm(delay - MAX_TIMER_MS);
      this.#refresh().catch((err: unknown) => {
        this.#config.onError?.(err);
        if (this.#terminal === undefined && !this.#closed) this.#arm(Math.max(this.#config.minRefreshIntervalMs, 30_000));
      });
    }, chunk);
    this.#timer.unref();
  }
}
