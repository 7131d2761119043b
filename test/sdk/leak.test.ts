import assert from "node:assert/strict";
import {
  authorizeUrl,
  issueToken,
  parseAuthorizeRedirect,
  parseTokenResponse,
  refreshToken,
  resolveBaseUrl,
  revokeToken,
} from "../../sdk";
import { _assertNoSecrets, _errorText, _raw, _rejects, _useEmulator } from "../support/helpers";

// Distinctive values, so a hit can only be a leak.
const PASSWORD = "pw-LEAK-c4f1e9b2a7";
const MFA = "927461";
const REFRESH = "rt-LEAK-0d9e8f7a6b5c";
const ACCESS = "at-LEAK-1a2b3c4d5e6f";
// Lowercase hex, which a shape rule would take for an error code.
const LOWER = "9c1f0e7d3b5a42e8a6d0c4b2f1e3a5c7";
const SECRETS = [PASSWORD, MFA, REFRESH, ACCESS, LOWER];

describe("no secret in any SDK error (message, stack, toJSON, util.inspect)", () => {
  const emu = _useEmulator({
    users: [
      { username: "leak@example.com", password: PASSWORD },
      { username: "leak-mfa@example.com", password: PASSWORD, mfa: [MFA] },
    ],
  });
  const errors: unknown[] = [];
  const collect = async (p: Promise<unknown>) => errors.push(await _rejects(p));

  after(() => {
    assert.ok(errors.length >= 15, `collected ${errors.length} errors`);
    _assertNoSecrets(errors.map(_errorText).join("\n"), SECRETS);
  });

  it("password, MFA and refresh grants", async () => {
    const base = { baseUrl: emu().url };
    await collect(issueToken({ ...base, username: "leak@example.com", password: `${PASSWORD}x` }));
    await collect(issueToken({ ...base, username: "leak-mfa@example.com", password: PASSWORD }));
    await collect(issueToken({ ...base, username: "leak-mfa@example.com", password: PASSWORD, mfaToken: "000000" }));
    const ok = await issueToken({ ...base, username: "leak-mfa@example.com", password: PASSWORD, mfaToken: MFA });
    await collect(issueToken({ ...base, username: "leak-mfa@example.com", password: PASSWORD, mfaToken: MFA }));
    SECRETS.push(ok.accessToken, ok.refreshToken);
    await collect(refreshToken({ ...base, refreshToken: REFRESH }));
    await revokeToken({ ...base, refreshToken: ok.refreshToken });
    await collect(refreshToken({ ...base, refreshToken: ok.refreshToken }));
  });

  it("transport failures, including revoke (whose URL carries the token)", async () => {
    const base = { baseUrl: emu().url };
    emu().inject({ kind: "hang", path: "/oapi/v1/revoke_token" });
    await collect(revokeToken({ ...base, refreshToken: REFRESH, timeoutMs: 100 }));
    emu().inject({ kind: "reset", path: "/oapi/v1/revoke_token" });
    await collect(revokeToken({ ...base, refreshToken: REFRESH }));
    emu().inject({ kind: "status", status: 500, path: "/oapi/v1/revoke_token", body: JSON.stringify({ error: REFRESH, error_code: ACCESS }) });
    await collect(revokeToken({ ...base, refreshToken: REFRESH }));
    // A server echoing the lowercase token back in every word it sends.
    const echo = JSON.stringify({ error: LOWER, error_code: LOWER, error_description: LOWER, fields: [{ field: LOWER, error_code: LOWER }] });
    emu().inject({ kind: "status", status: 400, count: 2, path: "/oapi/v1/revoke_token", body: echo });
    await collect(revokeToken({ ...base, refreshToken: LOWER }));
    emu().inject({ kind: "status", status: 400, path: "/oapi/v1/oauth_token", body: echo });
    await collect(refreshToken({ ...base, refreshToken: LOWER }));
    emu().inject({ kind: "status", status: 503, path: "/oapi/v1/oauth_token", body: echo });
    await collect(refreshToken({ ...base, refreshToken: LOWER }));
    emu().inject({ kind: "reset", path: "/oapi/v1/oauth_token" });
    await collect(issueToken({ ...base, username: "leak@example.com", password: PASSWORD }));
  });

  it("malformed bodies that echo secrets", async () => {
    const echo = (body: object) => _rejects(Promise.resolve().then(() => parseTokenResponse(_raw(200, body), { grant: "password" })));
    errors.push(await echo({ access_token: ACCESS, token_type: REFRESH, expires_in: 1, refresh_token: REFRESH }));
    errors.push(await echo({ access_token: ACCESS, token_type: "bearer", expires_in: PASSWORD, refresh_token: REFRESH }));
    errors.push(await echo({ access_token: ACCESS, token_type: "bearer", expires_in: 1 }));
    errors.push(await _rejects(Promise.resolve().then(() => parseTokenResponse(_raw(401, { error: PASSWORD, error_code: MFA }), { grant: "password" }))));
  });

  it("config errors and authorize redirects", async () => {
    errors.push(await _rejects(Promise.resolve().then(() => resolveBaseUrl(`https://u:${PASSWORD}@x.example`))));
    errors.push(await _rejects(Promise.resolve().then(() => authorizeUrl({ clientId: "c", redirectUri: PASSWORD }))));
    const frag = `http://127.0.0.1/cb#access_token=${ACCESS}&token_type=Bearer`;
    errors.push(await _rejects(Promise.resolve().then(() => parseAuthorizeRedirect(`${frag}&expires_in=${REFRESH}`))));
    errors.push(await _rejects(Promise.resolve().then(() => parseAuthorizeRedirect(`${frag}&expires_in=5&state=${REFRESH}`, { state: "mine" }))));
    errors.push(await _rejects(Promise.resolve().then(() => parseAuthorizeRedirect(`http://127.0.0.1/cb#error=${ACCESS}`))));
  });
});
