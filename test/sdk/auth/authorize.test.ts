import assert from "node:assert/strict";
import { request } from "undici";
import { inspect } from "node:util";
import {
  AuthorizationError,
  authorizeUrl,
  codeChallengeS256,
  CodeAuthorization,
  ConfigError,
  exchangeCode,
  InvalidGrantError,
  parseAuthorizeRedirect,
  parseCodeRedirect,
  ProtocolError,
} from "../../../sdk";
import { _rejects, _useEmulator, MFA_USER, USER } from "../../support/helpers";

describe("authorizeUrl", () => {
  it("builds the implicit-grant URL with response_type=token", () => {
    const url = new URL(authorizeUrl({ clientId: "app", redirectUri: "https://app.example/cb", state: "s1", aid: "42" }));
    assert.equal(url.origin + url.pathname, "https://api.adguard-dns.io/oapi/v1/oauth_authorize");
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      response_type: "token",
      client_id: "app",
      redirect_uri: "https://app.example/cb",
      state: "s1",
      aid: "42",
    });
  });

  it("omits state and aid when not given and validates its options", () => {
    const url = new URL(authorizeUrl({ clientId: "app", redirectUri: "https://app.example/cb" }));
    assert.equal(url.searchParams.has("state"), false);
    assert.equal(url.searchParams.has("aid"), false);
    assert.throws(() => authorizeUrl({ clientId: "", redirectUri: "https://a.example" }), { field: "clientId" });
    assert.throws(() => authorizeUrl({ clientId: "a", redirectUri: "/relative" }), (e: unknown) => e instanceof ConfigError && e.field === "redirectUri");
  });
});

describe("authorizeUrl with responseType code (PKCE)", () => {
  it("sends response_type=code, an S256 challenge of a fresh verifier and a fresh state", () => {
    const auth = authorizeUrl({ responseType: "code", clientId: "app", redirectUri: "http://127.0.0.1:9/cb", source: "cli" });
    assert.ok(auth instanceof CodeAuthorization);
    const url = new URL(auth.url);
    assert.equal(url.pathname, "/oapi/v1/oauth_authorize");
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      response_type: "code",
      client_id: "app",
      redirect_uri: "http://127.0.0.1:9/cb",
      state: auth.state,
      source: "cli",
      code_challenge: codeChallengeS256(auth.codeVerifier),
      code_challenge_method: "S256",
    });
    assert.match(auth.codeVerifier, /^[A-Za-z0-9_-]{43}$/);
    const other = authorizeUrl({ responseType: "code", clientId: "app", redirectUri: "http://127.0.0.1:9/cb" });
    assert.notEqual(other.codeVerifier, auth.codeVerifier);
    assert.notEqual(other.state, auth.state);
  });

  it("keeps a given state and verifier", () => {
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const auth = authorizeUrl({ responseType: "code", clientId: "app", redirectUri: "https://a.example/cb", state: "st", codeVerifier: verifier });
    assert.equal(auth.state, "st");
    assert.equal(new URL(auth.url).searchParams.get("code_challenge"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("never shows the verifier in inspect, JSON or a spread copy", () => {
    const auth = authorizeUrl({ responseType: "code", clientId: "app", redirectUri: "https://a.example/cb" });
    const verifier = auth.codeVerifier;
    for (const text of [inspect(auth, { showHidden: true, depth: 5 }), JSON.stringify(auth), JSON.stringify({ ...auth }), String(auth.url)]) {
      assert.equal(text.includes(verifier), false);
    }
  });

  it("refuses PKCE options with the implicit grant and an unknown responseType", () => {
    assert.throws(() => authorizeUrl({ clientId: "a", redirectUri: "https://a.example", source: "x" }), { field: "source" });
    assert.throws(() => authorizeUrl({ clientId: "a", redirectUri: "https://a.example", responseType: "id_token" as "code" }), { field: "responseType" });
  });
});

describe("parseCodeRedirect", () => {
  it("returns the code (not enumerable) and checks state before anything else", () => {
    const got = parseCodeRedirect("http://127.0.0.1:5000/cb?code=c0de-secret&state=xyz", { state: "xyz" });
    assert.equal(got.code, "c0de-secret");
    assert.equal(got.state, "xyz");
    assert.equal(inspect(got).includes("c0de-secret"), false);
    assert.equal(JSON.stringify(got).includes("c0de-secret"), false);
    assert.throws(() => parseCodeRedirect("http://h/cb?code=c&state=theirs", { state: "mine" }), (e: unknown) => e instanceof ProtocolError && e.field === "state" && !e.message.includes("theirs"));
    assert.throws(() => parseCodeRedirect("http://h/cb?code=c", { state: "mine" }), { field: "state" });
    assert.throws(() => parseCodeRedirect("http://h/cb?error=access_denied&state=theirs", { state: "mine" }), { field: "state" });
  });

  it("maps error= to AuthorizationError and refuses a missing code or URL", () => {
    assert.throws(() => parseCodeRedirect("http://h/cb?error=access_denied&state=s", { state: "s" }), AuthorizationError);
    assert.throws(() => parseCodeRedirect("http://h/cb?state=s", { state: "s" }), { field: "code" });
    assert.throws(() => parseCodeRedirect("http://h/cb?code=&state=s", { state: "s" }), { field: "code" });
    assert.throws(() => parseCodeRedirect("not a url"), { field: "location" });
  });
});

describe("parseAuthorizeRedirect", () => {
  const clock = { now: () => 1000 };
  it("parses the fragment into a TokenSet without a refresh token", () => {
    const set = parseAuthorizeRedirect("http://127.0.0.1:5000/cb#access_token=tok&token_type=Bearer&expires_in=3600&state=xyz", { state: "xyz", clock });
    assert.deepEqual(set, { accessToken: "tok", tokenType: "bearer", expiresIn: 3600, expiresAt: 1000 + 3_600_000, state: "xyz" });
  });

  it("rejects a missing or different state when one was sent", () => {
    const missing = "http://127.0.0.1/cb#access_token=tok&token_type=Bearer&expires_in=60";
    assert.throws(() => parseAuthorizeRedirect(missing, { state: "mine" }), (e: unknown) => e instanceof ProtocolError && e.field === "state");
    assert.throws(() => parseAuthorizeRedirect(`${missing}&state=theirs`, { state: "mine" }), (e: unknown) => e instanceof ProtocolError && e.field === "state" && !e.message.includes("theirs"));
    assert.equal(parseAuthorizeRedirect(missing).accessToken, "tok");
  });

  it("turns an error fragment into AuthorizationError", () => {
    assert.throws(() => parseAuthorizeRedirect("http://127.0.0.1/cb#error=access_denied&state=s", { state: "s" }), (e: unknown) => {
      assert.ok(e instanceof AuthorizationError);
      assert.equal(e.code, "authorization_failed");
      assert.deepEqual(e.server, { error: "access_denied" });
      return true;
    });
  });

  it("validates the fragment's fields", () => {
    assert.throws(() => parseAuthorizeRedirect("http://h/cb#token_type=Bearer&expires_in=60"), { field: "access_token" });
    assert.throws(() => parseAuthorizeRedirect("http://h/cb#access_token=t&token_type=MAC&expires_in=60"), { field: "token_type" });
    assert.throws(() => parseAuthorizeRedirect("http://h/cb#access_token=t&token_type=Bearer&expires_in=-1"), { field: "expires_in" });
    assert.throws(() => parseAuthorizeRedirect("not a url"), { field: "location" });
  });
});

describe("the implicit grant against the emulator", () => {
  const emu = _useEmulator();
  const redirectUri = "http://127.0.0.1:49152/callback";

  async function get(url: string, cookie?: string) {
    const res = await request(url, { headers: cookie ? { cookie } : {} });
    await res.body.text();
    return res;
  }

  async function loginCookie(user: { username: string; password: string }, mfa?: string): Promise<string> {
    const form = new URLSearchParams({ ...user, return_to: "/oapi/v1/oauth_authorize?x=1", ...(mfa ? { mfa_token: mfa } : {}) });
    const res = await request(`${emu().url}/login`, { method: "POST", body: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
    await res.body.text();
    assert.equal(res.statusCode, 302);
    return String(res.headers["set-cookie"]).split(";")[0]!;
  }

  it("sends a browser without a session to the login page, then back with the token in the fragment", async () => {
    const url = authorizeUrl({ baseUrl: emu().url, clientId: "dns-account-cli", redirectUri, state: "st4te" });
    const first = await get(url);
    assert.equal(first.statusCode, 302);
    const login = new URL(String(first.headers.location), emu().url);
    assert.equal(login.pathname, "/login");
    const page = await request(login);
    assert.match(await page.body.text(), /<form method="post" action="\/login">/);

    const cookie = await loginCookie(USER);
    const back = await get(url, cookie);
    assert.equal(back.statusCode, 302);
    const location = String(back.headers.location);
    assert.ok(location.startsWith(`${redirectUri}#`));
    const set = parseAuthorizeRedirect(location, { state: "st4te" });
    assert.equal(set.refreshToken, undefined);
    const api = await request(`${emu().url}/oapi/v1/account/limits`, { headers: { authorization: `Bearer ${set.accessToken}` } });
    assert.equal(api.statusCode, 200);
    await api.body.json();
  });

  it("asks MFA users for their code at login", async () => {
    const form = new URLSearchParams({ ...MFA_USER, return_to: "/oapi/v1/oauth_authorize?x=1" });
    const res = await request(`${emu().url}/login`, { method: "POST", body: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
    assert.equal(res.statusCode, 401);
    assert.match(await res.body.text(), /two-factor code/);
    assert.ok(await loginCookie(MFA_USER, "135790"));
  });

  it("refuses unknown clients and unregistered redirect URIs without redirecting", async () => {
    const unknown = await get(authorizeUrl({ baseUrl: emu().url, clientId: "nope", redirectUri }));
    assert.equal(unknown.statusCode, 400);
    const evil = await get(authorizeUrl({ baseUrl: emu().url, clientId: "dns-account-cli", redirectUri: "https://evil.example/callback" }));
    assert.equal(evil.statusCode, 400);
    assert.equal(evil.headers.location, undefined);
  });

  it("redirects an unsupported response_type with an error fragment", async () => {
    const url = new URL(authorizeUrl({ baseUrl: emu().url, clientId: "dns-account-cli", redirectUri, state: "s" }));
    url.searchParams.set("response_type", "id_token");
    const res = await get(url.href);
    assert.throws(() => parseAuthorizeRedirect(String(res.headers.location), { state: "s" }), AuthorizationError);
  });
});

describe("the code flow with PKCE against the emulator", () => {
  const emu = _useEmulator();
  const redirectUri = "http://127.0.0.1:49153/callback";
  const clientId = "dns-account-cli";

  async function codeFor(auth: CodeAuthorization): Promise<string> {
    const form = new URLSearchParams({ ...USER, return_to: "/oapi/v1/oauth_authorize?x=1" });
    const login = await request(`${emu().url}/login`, { method: "POST", body: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
    await login.body.text();
    const cookie = String(login.headers["set-cookie"]).split(";")[0]!;
    const res = await request(auth.url, { headers: { cookie } });
    await res.body.text();
    assert.equal(res.statusCode, 302);
    const location = String(res.headers.location);
    assert.ok(location.startsWith(`${redirectUri}?`));
    return parseCodeRedirect(location, { state: auth.state }).code;
  }

  it("authorize (S256) → code in the query → exchange with the verifier → tokens with a refresh token", async () => {
    const auth = authorizeUrl({ baseUrl: emu().url, responseType: "code", clientId, redirectUri });
    const code = await codeFor(auth);
    emu().resetStats();
    const tokens = await exchangeCode({ baseUrl: emu().url, code, codeVerifier: auth.codeVerifier, clientId, redirectUri });
    assert.ok(tokens.refreshToken);
    assert.deepEqual(emu().requests.at(-1)!.form, { grant_type: "authorization_code", code, client_id: clientId, code_verifier: auth.codeVerifier, redirect_uri: redirectUri });
    const api = await request(`${emu().url}/oapi/v1/account/limits`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
    assert.equal(api.statusCode, 200);
    await api.body.json();
    const again = await _rejects(exchangeCode({ baseUrl: emu().url, code, codeVerifier: auth.codeVerifier, clientId, redirectUri }));
    assert.ok(again instanceof InvalidGrantError, "a code is used once");
  });

  it("refuses a code with the wrong verifier or another redirect URI, never quoting them", async () => {
    const auth = authorizeUrl({ baseUrl: emu().url, responseType: "code", clientId, redirectUri });
    const code = await codeFor(auth);
    const other = authorizeUrl({ responseType: "code", clientId, redirectUri }).codeVerifier;
    const wrong = await _rejects(exchangeCode({ baseUrl: emu().url, code, codeVerifier: other, clientId, redirectUri }));
    assert.ok(wrong instanceof InvalidGrantError);
    assert.equal(`${wrong.message}${wrong.stack}`.includes(code) || `${wrong.message}`.includes(other), false);
    const auth2 = authorizeUrl({ baseUrl: emu().url, responseType: "code", clientId, redirectUri });
    const code2 = await codeFor(auth2);
    const moved = await _rejects(exchangeCode({ baseUrl: emu().url, code: code2, codeVerifier: auth2.codeVerifier, clientId, redirectUri: "http://127.0.0.1:1/cb" }));
    assert.ok(moved instanceof InvalidGrantError);
  });
});
