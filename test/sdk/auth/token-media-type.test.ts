import assert from "node:assert/strict";
import { ConfigError, createClient, HttpError, issueToken, refreshToken, Session } from "../../../sdk";
import { _errorText, _rejects, _useEmulator, USER } from "../../support/helpers";

describe("the token endpoint takes a form, never JSON (the service answers JSON with 415)", () => {
  const emu = _useEmulator();
  const base = () => ({ baseUrl: emu().url });
  beforeEach(() => emu().resetStats());

  it("every grant the SDK sends is a form, so the emulator's 415 for anything else never fires", async () => {
    const issued = await issueToken({ ...base(), ...USER });
    await refreshToken({ ...base(), refreshToken: issued.refreshToken });
    const session = new Session({ ...base(), credentials: USER });
    await session.accessToken();
    await session.invalidate(session.currentToken()!);
    const client = createClient({ ...base(), credentials: USER });
    try {
      await client.account.limits();
    } finally {
      await client.close();
      session.close();
    }
    const sent = emu().requests.filter((r) => r.path === "/oapi/v1/oauth_token");
    assert.ok(sent.length >= 4, `${sent.length} token requests`);
    for (const r of sent) assert.equal(r.headers["content-type"], "application/x-www-form-urlencoded");
  });

  it("the client refuses to call a token endpoint (it would send JSON and a credential header), before any request", async () => {
    const client = createClient({ ...base(), credentials: USER });
    try {
      // Percent-escaped forms too: a server that decodes before routing reads them as the token endpoint.
      for (const path of ["/oauth_token", "/revoke_token", "/oauth_authorize", "/oauth%5Ftoken", "/oauth%5ftoken/", "/revoke%5Ftoken", "/%6Fauth_authorize"]) {
        const err = await _rejects(client.request({ method: "POST", path, body: { grant_type: "password", ...USER } }));
        assert.ok(err instanceof ConfigError, path);
        assert.equal(err.field, "path");
        assert.match(err.message, /issueToken, refreshToken, exchangeCode or revokeToken/);
        assert.ok(!_errorText(err).includes(USER.password));
      }
      assert.equal(emu().stats.requests, 0);
    } finally {
      await client.close();
    }
  });

  it("a 415 from the token endpoint is an HttpError (http_415) saying the endpoint takes a form", async () => {
    emu().inject({ kind: "status", status: 415, path: "/oapi/v1/oauth_token", body: JSON.stringify({ error_code: "UNSUPPORTED_MEDIA_TYPE", message: "Content type is not supported" }) });
    const err = await _rejects(issueToken({ ...base(), ...USER }));
    assert.ok(err instanceof HttpError);
    assert.equal(err.code, "http_415");
    assert.equal(err.status, 415);
    assert.equal(err.message, "The token endpoint answered HTTP 415 Unsupported Media Type: it takes only an application/x-www-form-urlencoded body");
  });
});
