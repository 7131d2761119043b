import assert from "node:assert/strict";
import { request } from "undici";
import { TokenStore } from "../../../emulator/auth/tokens";
import { _useEmulator, USER } from "../../support/helpers";

describe("emulator: token state stays bounded", () => {
  it("100,000 grants with expiring access tokens keep the maps flat (expired tokens pruned)", () => {
    let now = 0;
    const store = new TokenStore([{ username: "u", password: "p" }], () => now);
    const refresh = store.newRefreshToken("u");
    let peak = 0;
    for (let i = 0; i < 100_000; i++) {
      store.newAccessToken("u", 60, refresh);
      now += 1000; // each token outlives 60 later grants, then expires
      peak = Math.max(peak, store.counts().accessTokens);
    }
    assert.ok(peak <= 2048, `peak ${peak} access tokens held`);
    assert.equal(store.counts().refreshTokens, 1);
  });

  it("revoked refresh tokens are dropped and their access tokens stay refused", () => {
    const store = new TokenStore([{ username: "u", password: "p" }], () => 0);
    const refresh = store.newRefreshToken("u");
    const access = store.newAccessToken("u", 60, refresh);
    assert.ok(store.revoke(refresh));
    assert.equal(store.counts().refreshTokens, 0);
    assert.deepEqual(store.bearer(access), { failure: "token_revoked" });
    assert.equal(store.revoke(refresh), false);
  });

  describe("tokenCounts() (live refresh tokens after several logins)", () => {
    const emu = _useEmulator();
    it("counts live refresh tokens per user; revocation lowers the count", async () => {
      const login = async () => {
        const res = await request(`${emu().url}/oapi/v1/oauth_token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: "password", ...USER }).toString(),
        });
        return ((await res.body.json()) as { refresh_token: string }).refresh_token;
      };
      const tokens = [await login(), await login(), await login()];
      assert.equal(emu().tokenCounts(USER.username).refreshTokens, 3);
      assert.equal(emu().tokenCounts("mfa@example.com").refreshTokens, 0);
      emu().revokeRefreshToken(tokens[0]!);
      assert.equal(emu().tokenCounts(USER.username).refreshTokens, 2);
    });
  });
});
