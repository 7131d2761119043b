import assert from "node:assert/strict";
import { HttpError, InvalidGrantError, issueToken, parseRevokeResponse, refreshToken, revokeToken } from "../../../sdk";
import { _raw, _rejects, _useEmulator, USER } from "../../support/helpers";

describe("revokeToken", () => {
  const emu = _useEmulator();

  it("revokes: the refresh token and the access tokens issued from it stop working", async () => {
    const set = await issueToken({ baseUrl: emu().url, ...USER });
    await revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken });
    assert.ok((await _rejects(refreshToken({ baseUrl: emu().url, refreshToken: set.refreshToken }))) instanceof InvalidGrantError);
    const { request } = await import("undici");
    const res = await request(`${emu().url}/oapi/v1/account/limits`, { headers: { authorization: `Bearer ${set.accessToken}` } });
    await res.body.dump();
    assert.equal(res.statusCode, 401);
  });

  it("sends the token in the form body (token and refresh_token), never in the URL", async () => {
    const set = await issueToken({ baseUrl: emu().url, ...USER });
    emu().resetStats();
    await revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken });
    assert.equal(emu().stats.revokeCalls, 1);
    const sent = emu().requests.at(-1)!;
    assert.equal(sent.path, "/oapi/v1/revoke_token");
    assert.deepEqual(sent.query, {});
    assert.equal(sent.form.token, set.refreshToken);
    assert.equal(sent.form.refresh_token, set.refreshToken);
  });

  it("uses the query only after a 400 that does not say 'already revoked', and then only once", async () => {
    const set = await issueToken({ baseUrl: emu().url, ...USER });
    emu().resetStats();
    emu().inject({ kind: "status", status: 400, path: "/oapi/v1/revoke_token", body: JSON.stringify({ error: "invalid_request", error_code: "missing_parameters" }) });
    await revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken });
    assert.equal(emu().stats.requests, 2);
    assert.equal(emu().requests.at(-1)!.query.refresh_token, set.refreshToken);
    assert.ok((await _rejects(refreshToken({ baseUrl: emu().url, refreshToken: set.refreshToken }))) instanceof InvalidGrantError);
    emu().resetStats();
    emu().inject({ kind: "status", status: 400, path: "/oapi/v1/revoke_token", body: JSON.stringify({ error: "invalid_grant" }) });
    await revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken });
    assert.equal(emu().stats.requests, 1, "'already revoked' is success, without the query");
    emu().resetStats();
    emu().inject({ kind: "status", status: 400, count: 5, path: "/oapi/v1/revoke_token", body: "" });
    assert.equal((await _rejects(revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken }))).code, "http_400");
    assert.equal(emu().stats.requests, 2, "one fallback, no loop");
  });

  it("is idempotent: revoking an already revoked or unknown token succeeds", async () => {
    const set = await issueToken({ baseUrl: emu().url, ...USER });
    await revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken });
    await revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken });
    await revokeToken({ baseUrl: emu().url, refreshToken: "never-issued" });
  });

  for (const reads of ["query", "token", "refresh_token"] as const) {
    describe(`against a server that reads only ${reads === "query" ? "the query" : `the form field ${reads}`}`, () => {
      const only = _useEmulator({ revokeReads: reads });
      it("revokes", async () => {
        const set = await issueToken({ baseUrl: only().url, ...USER });
        only().resetStats();
        await revokeToken({ baseUrl: only().url, refreshToken: set.refreshToken });
        // Only a server that shows it needs the query (a 400 for the body-only request) gets it.
        assert.equal(only().stats.revokeCalls, reads === "query" ? 2 : 1);
        assert.deepEqual(only().requests.at(reads === "query" ? -2 : -1)!.query, {}, "the first request has no token in its URL");
        assert.ok((await _rejects(refreshToken({ baseUrl: only().url, refreshToken: set.refreshToken }))) instanceof InvalidGrantError);
      });
    });
  }

  it("surfaces server errors as HttpError", async () => {
    emu().inject({ kind: "status", status: 503, retryAfter: 2, path: "/oapi/v1/revoke_token" });
    const err = await _rejects(revokeToken({ baseUrl: emu().url, refreshToken: "x" }));
    assert.ok(err instanceof HttpError);
    assert.equal(err.code, "http_503");
  });
});

describe("parseRevokeResponse (from bare responses)", () => {
  it("treats 2xx, 404, 410 and 400/401 'already invalid' bodies as success", () => {
    for (const res of [
      _raw(200, ""),
      _raw(204, ""),
      _raw(404, ""),
      _raw(410, ""),
      _raw(400, { error: "invalid_grant" }),
      _raw(401, { error: "unauthorized", error_code: "invalid_token" }),
      _raw(400, { error: "invalid_request", error_code: "token_not_found" }),
    ]) {
      assert.doesNotThrow(() => parseRevokeResponse(res), String(res.status));
    }
  });

  it("throws HttpError for other failures", () => {
    assert.throws(() => parseRevokeResponse(_raw(400, { error: "invalid_request", error_code: "missing_parameters" })), { code: "http_400" });
    assert.throws(() => parseRevokeResponse(_raw(401, "")), { code: "http_401" });
    assert.throws(() => parseRevokeResponse(_raw(500, "<html>oops</html>")), { code: "http_500" });
    assert.throws(() => parseRevokeResponse(_raw(429, "", { "retry-after": "4" }), 0), { code: "http_429", retryAfterMs: 4000 });
  });
});
