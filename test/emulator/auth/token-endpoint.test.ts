import assert from "node:assert/strict";
import { request } from "undici";
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from "../../../emulator/server";
import { _useEmulator, USER } from "../../support/helpers";

/** Posts `body` with `type` to the token endpoint; returns status, headers and the parsed body. */
async function post(base: string, type: string | undefined, body: string) {
  const res = await request(`${base}/oapi/v1/oauth_token`, { method: "POST", headers: type === undefined ? {} : { "content-type": type }, body });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, json: JSON.parse(text) as Record<string, unknown> };
}

describe("emulator: the token endpoint as the service behaves", () => {
  describe("by default", () => {
    const emu = _useEmulator();

    it("answers a JSON body (or any non-form body) with 415 Unsupported Media Type, saying which type it takes", async () => {
      for (const type of ["application/json", "text/plain", undefined]) {
        const res = await post(emu().url, type, JSON.stringify({ grant_type: "password", ...USER }));
        assert.equal(res.status, 415, String(type));
        assert.equal(res.headers.accept, "application/x-www-form-urlencoded");
        assert.equal(res.json.error_code, "UNSUPPORTED_MEDIA_TYPE");
      }
      assert.equal(emu().stats.passwordGrants, 0, "the body is not read as a grant");
    });

    it("issues access tokens that live about 30 days (expires_in varying around 2,592,000 s)", async () => {
      const lifetimes = new Set<number>();
      for (let i = 0; i < 6; i++) {
        const res = await post(emu().url, "application/x-www-form-urlencoded", new URLSearchParams({ grant_type: "password", ...USER }).toString());
        assert.equal(res.status, 200);
        const expiresIn = res.json.expires_in as number;
        assert.ok(expiresIn >= DEFAULT_TOKEN_LIFETIME_SECONDS.min && expiresIn <= DEFAULT_TOKEN_LIFETIME_SECONDS.max, String(expiresIn));
        lifetimes.add(expiresIn);
      }
      assert.equal(DEFAULT_TOKEN_LIFETIME_SECONDS.min, 30 * 86_400);
      assert.ok(lifetimes.size > 1, "varies per response");
    });
  });

  describe("with tokenMediaTypeStatus: 400 and tokenLifetimeSeconds: 3600 (the behaviour before 0.3)", () => {
    const emu = _useEmulator({ tokenMediaTypeStatus: 400, tokenLifetimeSeconds: 3600 });

    it("answers a JSON body with 400 BAD_REQUEST, and tokens live an hour", async () => {
      const bad = await post(emu().url, "application/json", JSON.stringify({ grant_type: "password", ...USER }));
      assert.equal(bad.status, 400);
      assert.equal(bad.json.error_code, "BAD_REQUEST");
      const ok = await post(emu().url, "application/x-www-form-urlencoded", new URLSearchParams({ grant_type: "password", ...USER }).toString());
      assert.equal(ok.json.expires_in, 3600);
    });
  });
});
