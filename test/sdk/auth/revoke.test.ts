import assert from "node:assert/strict";
import { startEmulator } from "../../../emulator";
import { HttpError, InvalidGrantError, issueToken, parseRevokeResponse, RevocationError, refreshToken, revokeToken } from "../../../sdk";
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

  it("sends the token in the form body (token and refresh_token), never in the URL, then proves it dead", async () => {
    const set = await issueToken({ baseUrl: emu().url, ...USER });
    emu().resetStats();
    await revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken });
    assert.equal(emu().stats.revokeCalls, 1);
    const sent = emu().requests.find((r) => r.path === "/oapi/v1/revoke_token")!;
    assert.deepEqual(sent.query, {});
    assert.equal(sent.form.token, set.refreshToken);
    assert.equal(sent.form.refresh_token, set.refreshToken);
    assert.equal(emu().stats.refreshGrants, 1, "one refresh grant proves the token dead");
    assert.ok(emu().requests.every((r) => !JSON.stringify(r.query).includes(set.refreshToken)), "no URL carried the token");
  });

  it("moves the token to the query only after a 400 that names the missing refresh_token", async () => {
    const only = await startEmulator({ revokeReads: "query" });
    try {
      const set = await issueToken({ baseUrl: only.url, ...USER });
      only.resetStats();
      await revokeToken({ baseUrl: only.url, refreshToken: set.refreshToken });
      const revokes = only.requests.filter((r) => r.path === "/oapi/v1/revoke_token");
      assert.equal(revokes.length, 2);
      assert.deepEqual(revokes[0]!.query, {}, "the first request has no token in its URL");
      assert.equal(revokes[1]!.query.refresh_token, set.refreshToken);
      assert.ok((await _rejects(refreshToken({ baseUrl: only.url, refreshToken: set.refreshToken }))) instanceof InvalidGrantError);
    } finally {
      await only.close();
    }
  });

  it("against a server that reads only the query and answers 200 without it: the token still works, so it is revoked once more by query, and proven", async () => {
    const silent = await startEmulator({ revokeReads: "query", revokeMissingOk: true });
    try {
      const set = await issueToken({ baseUrl: silent.url, ...USER });
      silent.resetStats();
      await revokeToken({ baseUrl: silent.url, refreshToken: set.refreshToken });
      const revokes = silent.requests.filter((r) => r.path === "/oapi/v1/revoke_token");
      assert.equal(revokes.length, 2);
      assert.deepEqual(revokes[0]!.query, {});
      assert.equal(revokes[1]!.query.refresh_token, set.refreshToken);
      assert.equal(silent.liveRefreshTokens(USER.username), 0);
    } finally {
      await silent.close();
    }
  });

  it("any other error answer (an HTML page, invalid_client) is an HttpError and never puts the token in a URL", async () => {
    const set = await issueToken({ baseUrl: emu().url, ...USER });
    for (const body of ["<html><body>Request blocked by the firewall</body></html>", JSON.stringify({ error: "invalid_client" })]) {
      emu().resetStats();
      emu().inject({ kind: "status", status: 400, path: "/oapi/v1/revoke_token", body, contentType: body.startsWith("<") ? "text/html" : "application/json" });
      const err = await _rejects(revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken }));
      assert.ok(err instanceof HttpError && err.code === "http_400", body);
      assert.equal(emu().stats.requests, 1, "no second request (the one that would carry the token in its URL)");
    }
    await revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken });
  });

  it("a token that still works after both revokes is a RevocationError, and so is a check that cannot be made", async () => {
    const set = await issueToken({ baseUrl: emu().url, ...USER });
    // A server that answers success and revokes nothing.
    emu().inject({ kind: "status", status: 200, count: 2, path: "/oapi/v1/revoke_token", body: "" });
    const err = await _rejects(revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken }));
    assert.ok(err instanceof RevocationError);
    assert.equal(err.code, "revocation_unproven");
    assert.ok(!err.message.includes(set.refreshToken));
    assert.ok(await refreshToken({ baseUrl: emu().url, refreshToken: set.refreshToken }), "it really still works");
    emu().inject({ kind: "status", status: 200, count: 1, path: "/oapi/v1/revoke_token", body: "" });
    emu().inject({ kind: "status", status: 400, count: 1, path: "/oapi/v1/oauth_token", body: "<html>maintenance</html>", contentType: "text/html" });
    assert.equal((await _rejects(revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken }))).code, "revocation_unproven");
    await revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken });
  });

  it("a 400 'already revoked' is success (proven by the refresh grant)", async () => {
    const set = await issueToken({ baseUrl: emu().url, ...USER });
    await revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken });
    emu().resetStats();
    emu().inject({ kind: "status", status: 400, path: "/oapi/v1/revoke_token", body: JSON.stringify({ error: "invalid_grant" }) });
    await revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken });
    assert.equal(emu().stats.requests, 2, "the revoke (answered by the fault) and the refresh grant that proves it; no query");
  });

  it("is idempotent: revoking an already revoked or unknown token succeeds", async () => {
    const set = await issueToken({ baseUrl: emu().url, ...USER });
    await revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken });
    await revokeToken({ baseUrl: emu().url, refreshToken: set.refreshToken });
    await revokeToken({ baseUrl: emu().url, refreshToken: "never-issued" });
  });

  for (const reads of ["token", "refresh_token"] as const) {
    describe(`against a server that reads only the form field ${reads}`, () => {
      const only = _useEmulator({ revokeReads: reads });
      it("revokes with one request, nothing in the URL", async () => {
        const set = await issueToken({ baseUrl: only().url, ...USER });
        only().resetStats();
        await revokeToken({ baseUrl: only().url, refreshToken: set.refreshToken });
        assert.equal(only().stats.revokeCalls, 1);
        assert.deepEqual(only().requests.find((r) => r.path === "/oapi/v1/revoke_token")!.query, {});
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
