import assert from "node:assert/strict";
import sinon from "sinon";
import type { Dispatcher } from "undici";
import { createClient, HttpError, InvalidGrantError, Session, TransportError, type TokenSet } from "../../sdk";
import { send } from "../../sdk/http/transport";
import { _rejects, _useEmulator, USER } from "../support/helpers";

const noWait = { retries: 4, baseDelayMs: 1, maxDelayMs: 1, random: () => 0 };

/** A small seeded PRNG, so random faults are the same on every run. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("faults: bounded retries, no loops, clear errors", function () {
  this.timeout(60_000);
  const emu = _useEmulator({ tokenLifetimeSeconds: 3600 });
  beforeEach(() => emu().resetStats());
  const client = (extra: Parameters<typeof createClient>[0] = {}) => createClient({ baseUrl: emu().url, credentials: USER, retry: noWait, ...extra });

  it("429 with Retry-After: waits exactly as long as asked (fake timers), then succeeds", async () => {
    const c = client({ retry: { retries: 2 } });
    await c.account.limits();
    emu().resetStats();
    const fake = sinon.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      emu().inject({ kind: "status", status: 429, retryAfter: 30, path: "/oapi/v1/account" });
      const call = c.account.limits();
      for (let i = 0; i < 200 && emu().stats.requests < 1; i++) await new Promise((r) => setImmediate(r));
      await fake.tickAsync(29_000);
      assert.equal(emu().stats.requests, 1, "not before Retry-After");
      await fake.tickAsync(1_001);
      await call;
      assert.equal(emu().stats.requests, 2);
    } finally {
      fake.restore();
      await c.close();
    }
  });

  it("bursts of 503: a short burst is absorbed; a long one fails after the cap with http_503", async () => {
    const c = client();
    try {
      await c.account.limits();
      emu().resetStats();
      emu().inject({ kind: "status", status: 503, count: 3, path: "/oapi/v1/account" });
      await c.account.limits();
      assert.equal(emu().stats.requests, 4);
      emu().resetStats();
      emu().inject({ kind: "status", status: 503, count: 100, path: "/oapi/v1/account" });
      const err = await _rejects(c.account.limits());
      assert.ok(err instanceof HttpError);
      assert.equal(err.code, "http_503");
      assert.equal(emu().stats.requests, 5);
    } finally {
      await c.close();
    }
  });

  it("connection resets: GET retried, POST not (it may have been applied)", async () => {
    const c = client();
    try {
      await c.account.limits();
      emu().resetStats();
      emu().inject({ kind: "reset", count: 2, path: "/oapi/v1/account" });
      await c.account.limits();
      assert.equal(emu().stats.requests, 3);
      emu().resetStats();
      emu().inject({ kind: "reset", path: "/oapi/v1/dns_servers" });
      assert.equal((await _rejects(c.dnsServers.create({ name: "x" }))).code, "network");
      assert.equal(emu().stats.requests, 1);
    } finally {
      await c.close();
    }
  });

  it("hung responses time out, are retried within the cap, and end with a timeout error", async () => {
    const c = client({ timeoutMs: 100 });
    try {
      await c.account.limits();
      emu().resetStats();
      emu().inject({ kind: "hang", count: 100, path: "/oapi/v1/account" });
      const err = await _rejects(c.account.limits());
      assert.ok(err instanceof TransportError);
      assert.equal(err.code, "timeout");
      assert.equal(emu().stats.requests, 5);
    } finally {
      emu().clearFaults();
      await c.close();
    }
  });

  describe("timeoutMs is one deadline for the whole request (fake timers)", () => {
    /** Settles into "pending", the value, or the error: lets a test look without awaiting. */
    const watch = (p: Promise<unknown>): { readonly outcome: unknown } => {
      let outcome: unknown = "pending";
      p.then((v) => (outcome = v), (e: unknown) => (outcome = e));
      return {
        get outcome() {
          return outcome;
        },
      };
    };
    const untilRequests = async (n: number) => {
      for (let i = 0; i < 10_000 && emu().stats.requests < n; i++) await new Promise((r) => setImmediate(r));
      assert.equal(emu().stats.requests, n);
    };

    it("a connection that never opens (the dispatcher never answers) ends at the 30 s default", async () => {
      const never = { dispatch: () => true, close: async () => {}, destroy: async () => {} } as unknown as Dispatcher;
      const fake = sinon.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      try {
        const call = watch(send("https://api.example.test/oapi/v1/account/limits", { method: "GET", headers: {}, dispatcher: never, timeoutMs: 30_000 }));
        await fake.tickAsync(29_999);
        assert.equal(call.outcome, "pending");
        await fake.tickAsync(1);
        const err: unknown = call.outcome;
        assert.ok(err instanceof TransportError, "settled at the deadline");
        assert.equal(err.code, "timeout");
      } finally {
        fake.restore();
      }
    });

    it("headers that never come end at timeoutMs (10 s), not at connect + headers + body timers", async () => {
      const c = client({ timeoutMs: 10_000, retry: { retries: 0 } });
      await c.account.limits();
      emu().resetStats();
      emu().inject({ kind: "hang", path: "/oapi/v1/account" });
      const fake = sinon.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      try {
        const call = watch(c.account.limits());
        await untilRequests(1);
        await fake.tickAsync(9_999);
        assert.equal(call.outcome, "pending");
        await fake.tickAsync(1);
        assert.equal((call.outcome as { code?: string }).code, "timeout");
      } finally {
        fake.restore();
        emu().clearFaults();
        await c.close();
      }
    });

    it("a slow-loris body (8 bytes a second, each byte resetting undici's body timer) ends at timeoutMs", async () => {
      const c = client({ timeoutMs: 10_000, retry: { retries: 0 } });
      await c.account.limits();
      emu().resetStats();
      emu().inject({ kind: "slow-body", chunkDelayMs: 1_000, path: "/oapi/v1/account" });
      const fake = sinon.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      try {
        const call = watch(c.account.limits());
        await untilRequests(1);
        for (let t = 0; t < 10_000 && call.outcome === "pending"; t += 500) {
          await fake.tickAsync(500);
          // Lets the dripped bytes cross the loopback socket before the next tick.
          for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
        }
        assert.equal((call.outcome as { code?: string }).code, "timeout", "ended by the 10 s deadline; the body needs about 25 s");
      } finally {
        fake.restore();
        emu().clearFaults();
        await c.close();
      }
    });
  });

  describe("a server that rotates refresh tokens", () => {
    const rotating = _useEmulator({ rotateRefreshTokens: true, tokenLifetimeSeconds: 60 });
    it("the session follows the rotation and reports each new refresh token", async () => {
      let now = Date.now();
      const seen: TokenSet[] = [];
      const s = new Session({ baseUrl: rotating().url, credentials: USER, clock: { now: () => now }, onTokens: (t) => void seen.push(t) });
      for (let i = 0; i < 4; i++) {
        await s.accessToken();
        now += 60_000;
      }
      assert.equal(seen.length, 4);
      assert.equal(new Set(seen.map((t) => t.refreshToken)).size, 4);
      assert.equal(rotating().stats.passwordGrants, 1);
    });
  });

  describe("a server whose clock is hours off", () => {
    for (const offset of [-6 * 3600_000, 6 * 3600_000]) {
      const skewed = _useEmulator({ dateOffsetMs: offset, tokenLifetimeSeconds: 3600 });
      it(`(${offset > 0 ? "ahead" : "behind"}) causes neither a refresh loop nor early expiry`, async () => {
        const c = createClient({ baseUrl: skewed().url, credentials: USER });
        try {
          for (let i = 0; i < 50; i++) await c.account.limits();
          assert.equal(skewed().stats.tokenCalls, 1);
          assert.ok(Math.abs(c.session.serverSkewMs - offset) < 5_000);
        } finally {
          await c.close();
        }
      });
    }
  });

  it("a revoked refresh token is surfaced once and never retried in a loop", async () => {
    let now = Date.now();
    const first = new Session({ baseUrl: emu().url, credentials: USER });
    await first.accessToken();
    const s = new Session({ baseUrl: emu().url, credentials: { refreshToken: first.tokens!.refreshToken! }, clock: { now: () => now } });
    const c = createClient({ baseUrl: emu().url, session: s, retry: noWait });
    try {
      await c.account.limits();
      emu().revokeRefreshToken(first.tokens!.refreshToken!);
      emu().resetStats();
      now += 3600_000;
      const errors = await Promise.all(Array.from({ length: 20 }, () => _rejects(c.account.limits())));
      assert.ok(errors.every((e) => e instanceof InvalidGrantError));
      assert.equal(emu().stats.tokenCalls, 1, "twenty callers, one refresh attempt");
      await Promise.all(Array.from({ length: 20 }, () => _rejects(c.account.limits())));
      assert.equal(emu().stats.tokenCalls, 1, "no token calls after a terminal error");
    } finally {
      await c.close();
    }
  });
});

describe("load: 10,000 calls, 1-second token lifetimes, random 503s", function () {
  this.timeout(120_000);
  let now = 1_800_000_000_000;
  const clock = { now: () => now };
  const emu = _useEmulator({ tokenLifetimeSeconds: 1, now: clock.now, random: mulberry32(42) });

  it("no failure reaches the caller and each token lifetime sees exactly one refresh", async () => {
    const issued: number[] = [];
    const c = createClient({
      baseUrl: emu().url,
      credentials: USER,
      clock,
      retry: { retries: 8, baseDelayMs: 1, maxDelayMs: 2 },
      sessionOptions: { onTokens: () => void issued.push(now), retry: { retries: 8, baseDelayMs: 1, maxDelayMs: 2 } },
    });
    try {
      await c.account.limits(); // log in before the faults: the password grant is never retried
      emu().inject({ kind: "status", status: 503, probability: 0.05, count: Number.POSITIVE_INFINITY, path: "/oapi/v1/" });
      let failures = 0;
      // 100 batches of 100 concurrent calls; the shared clock moves 100 ms between batches (10 s in all).
      for (let batch = 0; batch < 100; batch++) {
        const results = await Promise.allSettled(Array.from({ length: 100 }, () => c.account.limits()));
        failures += results.filter((r) => r.status === "rejected").length;
        now += 100;
      }
      emu().clearFaults();
      assert.equal(failures, 0);
      const refreshes = emu().stats.refreshGrants;
      // A token lives 1,000 ms; the session's minimum refresh interval (1 s) outranks its 100 ms refresh
      // window at this lifetime, so each token is renewed when it expires: 9 renewals in 10 s of calls.
      assert.ok(refreshes >= 9 && refreshes <= 11, `${refreshes} refresh grants`);
      const gaps = issued.slice(1).map((t, i) => t - issued[i]!);
      assert.ok(gaps.every((g) => g >= 900 && g <= 1000), `not one refresh per lifetime: ${gaps.join(", ")}`);
      assert.equal(issued.length, refreshes + 1);
    } finally {
      await c.close();
    }
  });
});
