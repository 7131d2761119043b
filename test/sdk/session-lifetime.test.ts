import assert from "node:assert/strict";
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from "../../emulator/server";
import { createClient, Session } from "../../sdk";
import { _useEmulator, USER } from "../support/helpers";

/** A clock the test moves by hand; the emulator reads the same one so expiry agrees on both sides. */
function manualClock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

// The service's access tokens live about 30 days; the emulator's lived an hour before 0.3. The session
// must reuse a token for its whole life and refresh only in the last five minutes, with either.
for (const [label, lifetime] of [["the service's ~30 days (the emulator's default)", undefined], ["an hour (--token-lifetime 3600)", 3600]] as const) {
  describe(`Session with tokens that live ${label}`, () => {
    const clock = manualClock();
    const emu = _useEmulator({ now: clock.now, ...(lifetime !== undefined ? { tokenLifetimeSeconds: lifetime } : {}) });
    beforeEach(() => emu().resetStats());

    it("reuses the token until five minutes before expiry, then refreshes once; API calls in between need no grant", async () => {
      const session = new Session({ baseUrl: emu().url, credentials: USER, clock });
      const client = createClient({ baseUrl: emu().url, session, clock });
      try {
        const first = await session.accessToken();
        const set = session.tokens!;
        if (lifetime === undefined) {
          assert.ok(set.expiresIn >= DEFAULT_TOKEN_LIFETIME_SECONDS.min && set.expiresIn <= DEFAULT_TOKEN_LIFETIME_SECONDS.max, String(set.expiresIn));
        } else {
          assert.equal(set.expiresIn, lifetime);
        }
        clock.advance(set.expiresIn * 1000 - 300_000 - 1);
        await client.account.limits();
        assert.equal(await session.accessToken(), first);
        assert.deepEqual([emu().stats.passwordGrants, emu().stats.refreshGrants], [1, 0]);
        clock.advance(2);
        assert.notEqual(await session.accessToken(), first);
        await client.account.limits();
        assert.deepEqual([emu().stats.passwordGrants, emu().stats.refreshGrants], [1, 1]);
      } finally {
        await client.close();
        session.close();
      }
    });
  });
}
