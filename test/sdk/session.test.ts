import assert from "node:assert/strict";
import { inspect } from "node:util";
import sinon from "sinon";
import { startEmulator } from "../../emulator";
import {
  ConfigError,
  HttpError,
  InvalidGrantError,
  issueToken,
  MAX_TIMER_MS,
  MfaRequiredError,
  refreshToken,
  Session,
  sharedSession,
  type TokenSet,
} from "../../sdk";
import { _rejects, _useEmulator, MFA_USER, USER } from "../support/helpers";

/** A clock the test moves by hand; the emulator reads the same one so expiry agrees on both sides. */
function manualClock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms), set: (ms: number) => void (t = ms) };
}

const noWait = { retries: 4, baseDelayMs: 1, maxDelayMs: 1, random: () => 0 };

describe("Session", () => {
  const clock = manualClock();
  const emu = _useEmulator({ tokenLifetimeSeconds: 3600, now: clock.now });
  const opts = () => ({ baseUrl: emu().url, clock, retry: noWait });
  beforeEach(() => emu().resetStats());

  it("logs in on first use and reuses the token until the refresh window", async () => {
    const s = new Session({ ...opts(), credentials: USER });
    const a = await s.accessToken();
    assert.equal(await s.accessToken(), a);
    assert.equal(emu().stats.passwordGrants, 1);
    // Lifetime 3600 s: the window is min(5 min, 10 %) = 5 min.
    clock.advance(3600_000 - 300_000 - 1);
    assert.equal(await s.accessToken(), a);
    assert.equal(emu().stats.refreshGrants, 0);
    clock.advance(2);
    const b = await s.accessToken();
    assert.notEqual(b, a);
    assert.equal(emu().stats.refreshGrants, 1);
    assert.equal(emu().stats.passwordGrants, 1);
  });

  it("uses 10 % of a short lifetime as the window, and honours refreshBeforeMs", async () => {
    emu().setTokenLifetime(60);
    try {
      const s = new Session({ ...opts(), credentials: USER });
      await s.accessToken();
      clock.advance(53_999);
      await s.accessToken();
      assert.equal(emu().stats.refreshGrants, 0);
      clock.advance(2);
      await s.accessToken();
      assert.equal(emu().stats.refreshGrants, 1);

      const early = new Session({ ...opts(), credentials: USER, refreshBeforeMs: 30_000 });
      await early.accessToken();
      clock.advance(30_001);
      await early.accessToken();
      assert.equal(emu().stats.refreshGrants, 2);
    } finally {
      emu().setTokenLifetime(3600);
    }
  });

  it("coalesces concurrent callers onto one token call (single-flight)", async () => {
    const s = new Session({ ...opts(), credentials: USER });
    const first = await Promise.all(Array.from({ length: 200 }, () => s.accessToken()));
    assert.equal(new Set(first).size, 1);
    assert.equal(emu().stats.tokenCalls, 1);
    clock.advance(3600_000);
    const second = await Promise.all(Array.from({ length: 200 }, () => s.accessToken()));
    assert.equal(new Set(second).size, 1);
    assert.equal(emu().stats.tokenCalls, 2);
  });

  it("computes expiry from expires_in against the server's clock, whatever its Date header says", async () => {
    for (const offset of [-3 * 3600_000, 5 * 3600_000]) {
      const server = await startEmulator({ dateOffsetMs: offset, tokenLifetimeSeconds: 3600 });
      try {
        const real = { now: () => Date.now() };
        const s = new Session({ baseUrl: server.url, credentials: USER, clock: real });
        const before = Date.now();
        await s.accessToken();
        const t = s.tokens!;
        assert.ok(t.expiresAt >= before + 3600_000 && t.expiresAt <= Date.now() + 3600_000, "expiry is expires_in from now");
        assert.ok(Math.abs(s.serverSkewMs - offset) < 5_000, `skew ${s.serverSkewMs}`);
        await s.accessToken();
        assert.equal(server.stats.tokenCalls, 1, "no refresh because of the skewed Date header");
      } finally {
        await server.close();
      }
    }
  });

  it("does not refresh more often than minRefreshIntervalMs while the token is valid (no storms)", async () => {
    emu().setTokenLifetime(2);
    try {
      // A window longer than the lifetime would refresh on every call without the interval.
      const s = new Session({ ...opts(), credentials: USER, refreshBeforeMs: 300_000, minRefreshIntervalMs: 1000 });
      await s.accessToken();
      for (let i = 0; i < 20; i++) await s.accessToken();
      assert.equal(emu().stats.tokenCalls, 1);
      clock.advance(1001);
      for (let i = 0; i < 20; i++) await s.accessToken();
      assert.equal(emu().stats.tokenCalls, 2);
    } finally {
      emu().setTokenLifetime(3600);
    }
  });

  it("treats invalid_grant as terminal: surfaced once, never retried, remembered", async () => {
    const issued = await issueToken({ baseUrl: emu().url, ...USER });
    emu().revokeRefreshToken(issued.refreshToken);
    emu().resetStats();
    const s = new Session({ ...opts(), credentials: { refreshToken: issued.refreshToken } });
    const errors = await Promise.all(Array.from({ length: 10 }, () => _rejects(s.accessToken())));
    for (const e of errors) assert.ok(e instanceof InvalidGrantError);
    for (let i = 0; i < 5; i++) assert.ok((await _rejects(s.accessToken())) instanceof InvalidGrantError);
    assert.equal(emu().stats.tokenCalls, 1);
  });

  it("logs in again with the password (once) when the refresh token was revoked", async () => {
    const tokens: TokenSet[] = [];
    const s = new Session({ ...opts(), credentials: USER, onTokens: (t) => void tokens.push(t) });
    await s.accessToken();
    emu().revokeRefreshToken(tokens[0]!.refreshToken!);
    clock.advance(3600_000);
    await s.accessToken();
    assert.equal(emu().stats.passwordGrants, 2);
    assert.equal(emu().stats.refreshGrants, 1);
    assert.notEqual(tokens[1]!.refreshToken, tokens[0]!.refreshToken);
  });

  it("never sends an MFA code twice: with a spent code, a revoked refresh token is terminal", async () => {
    const s = new Session({ ...opts(), credentials: { ...MFA_USER, mfaToken: "424242" } });
    await s.accessToken();
    emu().revokeRefreshToken(s.tokens!.refreshToken!);
    clock.advance(3600_000);
    assert.ok((await _rejects(s.accessToken())) instanceof InvalidGrantError);
    assert.ok((await _rejects(s.accessToken())) instanceof InvalidGrantError);
    assert.equal(emu().stats.passwordGrants, 1);
    assert.equal(emu().requests.filter((r) => r.form.mfa_token === "424242").length, 1);
  });

  it("surfaces mfa_required without retrying the password grant", async () => {
    const s = new Session({ ...opts(), credentials: MFA_USER });
    assert.ok((await _rejects(s.accessToken())) instanceof MfaRequiredError);
    assert.ok((await _rejects(s.accessToken())) instanceof MfaRequiredError);
    assert.equal(emu().stats.tokenCalls, 1);
  });

  it("never retries the password grant on 5xx", async () => {
    emu().inject({ kind: "status", status: 503, count: 5, path: "/oapi/v1/oauth_token" });
    const s = new Session({ ...opts(), credentials: USER });
    assert.equal((await _rejects(s.accessToken())).code, "http_503");
    assert.equal(emu().stats.requests, 1);
  });

  it("retries the refresh grant on 429/5xx/resets within the cap, honouring Retry-After", async () => {
    const s = new Session({ ...opts(), credentials: USER });
    await s.accessToken();
    clock.advance(3600_000);
    emu().resetStats();
    emu().inject({ kind: "status", status: 429, retryAfter: 0, path: "/oapi/v1/oauth_token" });
    emu().inject({ kind: "reset", path: "/oapi/v1/oauth_token" });
    emu().inject({ kind: "status", status: 502, path: "/oapi/v1/oauth_token" });
    await s.accessToken();
    assert.equal(emu().stats.requests, 4);

    clock.advance(3600_000);
    emu().resetStats();
    emu().inject({ kind: "status", status: 503, count: 50, path: "/oapi/v1/oauth_token" });
    const err = await _rejects(s.accessToken());
    assert.ok(err instanceof HttpError);
    assert.equal(emu().stats.requests, 5, "1 attempt + 4 retries");
    emu().clearFaults();

    emu().resetStats();
    emu().inject({ kind: "status", status: 503, retryAfter: 3600, count: 5, path: "/oapi/v1/oauth_token" });
    assert.equal((await _rejects(s.accessToken())).code, "http_503");
    assert.equal(emu().stats.requests, 1, "a Retry-After beyond maxRetryAfterMs is not waited for");
  });

  it("keeps serving a still-valid token when a refresh fails transiently", async () => {
    const s = new Session({ ...opts(), credentials: USER, retry: { ...noWait, retries: 0 } });
    const a = await s.accessToken();
    clock.advance(3600_000 - 60_000);
    emu().inject({ kind: "status", status: 503, path: "/oapi/v1/oauth_token" });
    assert.equal(await s.accessToken(), a);
    clock.advance(1001);
    assert.notEqual(await s.accessToken(), a);
  });

  it("calls onTokens for each new token set and survives a failing onTokens", async () => {
    const seen: TokenSet[] = [];
    const errors: unknown[] = [];
    const s = new Session({
      ...opts(),
      credentials: USER,
      onTokens: (t) => {
        seen.push(t);
        if (seen.length === 2) throw new Error("disk full");
      },
      onError: (e) => errors.push(e),
    });
    await s.accessToken();
    clock.advance(3600_000);
    await s.accessToken();
    assert.equal(seen.length, 2);
    assert.equal(seen[1]!.refreshToken, seen[0]!.refreshToken);
    assert.equal((errors[0] as Error).message, "disk full");
  });

  it("revoke() revokes the refresh token at the server and ends the session", async () => {
    const s = new Session({ ...opts(), credentials: USER });
    await s.accessToken();
    const refresh = s.tokens!.refreshToken!;
    await s.revoke();
    assert.ok((await _rejects(refreshToken({ baseUrl: emu().url, refreshToken: refresh }))) instanceof InvalidGrantError);
    assert.ok((await _rejects(s.accessToken())) instanceof InvalidGrantError);
  });

  it("revoke() while a login is in flight revokes the token that login returns, and no caller gets it", async () => {
    const live0 = emu().liveRefreshTokens(USER.username);
    const s = new Session({ ...opts(), credentials: USER });
    // accessToken() starts the login synchronously; revoke() is called before its answer arrives.
    const pending = _rejects(s.accessToken());
    await s.revoke();
    assert.ok((await pending) instanceof InvalidGrantError);
    assert.equal(emu().stats.passwordGrants, 1, "the login reached the server");
    assert.equal(emu().liveRefreshTokens(USER.username), live0, "no live refresh token left behind");
    assert.equal(s.tokens, undefined);
    assert.ok((await _rejects(s.accessToken())) instanceof InvalidGrantError);
  });

  it("revoke() while a refresh is in flight revokes the current and any rotated refresh token", async () => {
    const rotating = await startEmulator({ tokenLifetimeSeconds: 3600, now: clock.now, rotateRefreshTokens: true });
    try {
      const s = new Session({ baseUrl: rotating.url, clock, retry: noWait, credentials: USER });
      await s.accessToken();
      clock.advance(3600_000);
      const pending = _rejects(s.accessToken());
      await s.revoke();
      await pending;
      // The refresh in flight, then one refresh grant per revoked token proving it dead (each refused).
      assert.equal(rotating.stats.refreshGrants, 3);
      assert.equal(rotating.liveRefreshTokens(), 0);
    } finally {
      await rotating.close();
    }
  });

  it("a revoked shared session is replaced: a later caller with the same credentials logs in again", async () => {
    const a = sharedSession({ ...opts(), credentials: USER });
    await a.accessToken();
    await a.revoke();
    assert.equal(a.revoked, true);
    const b = sharedSession({ ...opts(), credentials: USER });
    assert.notEqual(b, a);
    assert.ok(await b.accessToken());
    await b.revoke();
  });

  it("resumes from a token set without a token call, then refreshes with its refresh token", async () => {
    const issued = await issueToken({ baseUrl: emu().url, ...USER, clock });
    emu().resetStats();
    const s = new Session({ ...opts(), credentials: issued });
    assert.equal(await s.accessToken(), issued.accessToken);
    assert.equal(emu().stats.tokenCalls, 0);
    clock.advance(3600_000);
    assert.notEqual(await s.accessToken(), issued.accessToken);
    assert.equal(emu().stats.refreshGrants, 1);
    const bare = new Session({ ...opts(), credentials: { accessToken: "a", tokenType: "bearer", expiresIn: 1, expiresAt: clock.now() - 1 } });
    assert.ok((await _rejects(bare.accessToken())) instanceof InvalidGrantError);
  });

  it("refuses wrong options naming the field", () => {
    const cases: [unknown, string][] = [
      [{ credentials: undefined }, "credentials"],
      [{ credentials: { username: "u" } }, "credentials.password"],
      [{ credentials: { refreshToken: "" } }, "credentials.refreshToken"],
      [{ credentials: { accessToken: "a", expiresAt: "soon" } }, "credentials.expiresAt"],
      [{ credentials: USER, refreshBeforeMs: -1 }, "refreshBeforeMs"],
      [{ credentials: USER, retry: { retries: -1 } }, "retry.retries"],
    ];
    for (const [o, field] of cases) {
      assert.throws(() => new Session(o as never), (e: unknown) => e instanceof ConfigError && e.field === field, field);
    }
  });

  it("shows no secret in util.inspect or JSON", async () => {
    const s = new Session({ ...opts(), credentials: USER });
    await s.accessToken();
    const t = s.tokens!;
    const text = `${inspect(s, { showHidden: true, depth: 5 })}${JSON.stringify(s)}`;
    for (const secret of [USER.password, t.accessToken, t.refreshToken!]) assert.ok(!text.includes(secret));
  });
});

describe("Session keepAlive (sinon fake timers)", () => {
  let fake: sinon.SinonFakeTimers;
  const emu = _useEmulator();
  beforeEach(() => {
    emu().resetStats();
    // Only timers and Date: I/O callbacks (setImmediate, nextTick) stay real so HTTP works.
    fake = sinon.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: Date.now() });
  });
  afterEach(() => fake.restore());

  /** Lets real I/O run until `done()` holds (bounded). */
  async function until(done: () => boolean): Promise<void> {
    for (let i = 0; i < 2000 && !done(); i++) await new Promise((r) => setImmediate(r));
    assert.ok(done(), "condition not reached");
  }

  it("refreshes in the background ahead of expiry, on an unref'd timer", async () => {
    emu().setTokenLifetime(600);
    const s = new Session({ baseUrl: emu().url, credentials: USER, keepAlive: true });
    try {
      await s.accessToken();
      await fake.tickAsync(600_000 - 60_000 - 10);
      assert.equal(emu().stats.refreshGrants, 0);
      await fake.tickAsync(20);
      await until(() => emu().stats.refreshGrants === 1);
      await fake.tickAsync(600_000 - 60_000 + 10);
      await until(() => emu().stats.refreshGrants === 2);
    } finally {
      s.close();
    }
  });

  it("a 30-day lifetime does not refresh early (Node's timer limit is chunked)", async () => {
    const days30 = 30 * 86_400;
    assert.ok(days30 * 1000 > MAX_TIMER_MS);
    emu().setTokenLifetime(days30);
    const s = new Session({ baseUrl: emu().url, credentials: USER, keepAlive: true });
    try {
      await s.accessToken();
      await fake.tickAsync(1000);
      await fake.tickAsync(MAX_TIMER_MS);
      await new Promise((r) => setImmediate(r));
      assert.equal(emu().stats.refreshGrants, 0, "no refresh after one timer chunk");
      const refreshAt = s.tokens!.expiresAt - 300_000;
      await fake.tickAsync(refreshAt - Date.now() - 1000);
      await new Promise((r) => setImmediate(r));
      assert.equal(emu().stats.refreshGrants, 0, "none before the window");
      await fake.tickAsync(2000);
      await until(() => emu().stats.refreshGrants === 1);
    } finally {
      s.close();
    }
  });

  it("close() stops background refreshes", async () => {
    emu().setTokenLifetime(60);
    const s = new Session({ baseUrl: emu().url, credentials: USER, keepAlive: true });
    await s.accessToken();
    s.close();
    await fake.tickAsync(120_000);
    await new Promise((r) => setImmediate(r));
    assert.equal(emu().stats.refreshGrants, 0);
  });
});

