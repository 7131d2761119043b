import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, MockAgent } from "undici";
import {
  ConfigError,
  exchangeCode,
  HttpError,
  InvalidCredentialsError,
  InvalidGrantError,
  issueToken,
  MfaRequiredError,
  ProtocolError,
  refreshToken,
  TransportError,
  USER_AGENT,
} from "../../../sdk";
import { _rejects, _useEmulator, MFA_USER, USER } from "../../support/helpers";

describe("grants against the emulator", () => {
  const emu = _useEmulator();
  const base = () => ({ baseUrl: emu().url });
  // The emulator infers the password and refresh grants without grant_type, as the service does.
  const lenient = emu;

  describe("issueToken (password grant)", () => {
    it("returns an access token, a refresh token, bearer and the response's own lifetime", async () => {
      const clock = { now: () => 5_000 };
      const set = await issueToken({ ...base(), ...USER, clock });
      assert.equal(set.tokenType, "bearer");
      assert.ok(set.accessToken.length > 10 && set.refreshToken.length > 10);
      assert.ok(Number.isInteger(set.expiresIn) && set.expiresIn > 0);
      assert.equal(set.expiresAt, 5_000 + set.expiresIn * 1000);
    });

    it("posts a form with grant_type=password and no mfa_token unless given", async () => {
      emu().resetStats();
      await issueToken({ ...base(), ...USER });
      const sent = emu().requests.at(-1)!;
      assert.equal(sent.path, "/oapi/v1/oauth_token");
      assert.equal(sent.headers["content-type"], "application/x-www-form-urlencoded");
      assert.equal(sent.headers["user-agent"], USER_AGENT);
      assert.deepEqual(sent.form, { grant_type: "password", ...USER });
    });

    it("omits grant_type when grantType is false", async () => {
      await issueToken({ baseUrl: lenient().url, ...USER, grantType: false });
      assert.deepEqual(lenient().requests.at(-1)!.form, { ...USER });
    });

    it("throws MfaRequiredError without a code, and succeeds with one (each code once)", async () => {
      const err = await _rejects(issueToken({ ...base(), ...MFA_USER }));
      assert.ok(err instanceof MfaRequiredError);
      assert.equal(err.code, "mfa_required");
      const set = await issueToken({ ...base(), ...MFA_USER, mfaToken: "246810" });
      assert.ok(set.refreshToken);
      assert.equal(emu().requests.at(-1)!.form.mfa_token, "246810");
      const reused = await _rejects(issueToken({ ...base(), ...MFA_USER, mfaToken: "246810" }));
      assert.ok(reused instanceof InvalidCredentialsError);
      assert.match(reused.message, /MFA code/);
    });

    it("throws InvalidCredentialsError for a wrong password or unknown user", async () => {
      assert.ok((await _rejects(issueToken({ ...base(), username: USER.username, password: "wrong" }))) instanceof InvalidCredentialsError);
      assert.ok((await _rejects(issueToken({ ...base(), username: "nobody@example.com", password: "x" }))) instanceof InvalidCredentialsError);
    });

    it("refuses missing or empty options before sending, naming the option", async () => {
      emu().resetStats();
      for (const [opts, field] of [
        [{ username: "", password: "p" }, "username"],
        [{ username: "u", password: "" }, "password"],
        [{ username: "u", password: "p", mfaToken: "" }, "mfaToken"],
        [{ username: "u", password: "p", timeoutMs: -1 }, "timeoutMs"],
      ] as const) {
        const err = await _rejects(issueToken({ ...base(), ...opts }));
        assert.ok(err instanceof ConfigError);
        assert.equal(err.field, field);
      }
      assert.equal(emu().stats.tokenCalls, 0);
    });

    it("is never retried: one failed password grant is one token call", async () => {
      emu().resetStats();
      emu().inject({ kind: "status", status: 503, retryAfter: 1, path: "/oapi/v1/oauth_token" });
      const err = await _rejects(issueToken({ ...base(), ...USER }));
      assert.ok(err instanceof HttpError);
      assert.equal(err.code, "http_503");
      assert.equal(err.retryAfterMs, 1000);
      assert.equal(emu().stats.requests, 1);
    });
  });

  describe("refreshToken (refresh grant)", () => {
    it("returns a new access token and the same refresh token, rotated false", async () => {
      const first = await issueToken({ ...base(), ...USER });
      const next = await refreshToken({ ...base(), refreshToken: first.refreshToken });
      assert.notEqual(next.accessToken, first.accessToken);
      assert.equal(next.refreshToken, first.refreshToken);
      assert.equal(next.rotated, false);
      assert.deepEqual(emu().requests.at(-1)!.form, { grant_type: "refresh_token", refresh_token: first.refreshToken });
    });

    it("never assumes a constant lifetime: expires_in varies per response", async () => {
      const first = await issueToken({ ...base(), ...USER });
      const lifetimes = new Set<number>();
      for (let i = 0; i < 8; i++) lifetimes.add((await refreshToken({ ...base(), refreshToken: first.refreshToken })).expiresIn);
      assert.ok(lifetimes.size > 1, "the emulator varies expires_in by default");
    });

    it("throws InvalidGrantError for an unknown refresh token", async () => {
      const err = await _rejects(refreshToken({ ...base(), refreshToken: "never-issued" }));
      assert.ok(err instanceof InvalidGrantError);
      assert.equal(err.code, "invalid_grant");
    });
  });

  describe("a server that requires grant_type", () => {
    const strict = _useEmulator({ requireGrantType: true });
    it("works with the default and fails clearly with grantType false", async () => {
      const set = await issueToken({ baseUrl: strict().url, ...USER });
      assert.ok(set.accessToken);
      const err = await _rejects(issueToken({ baseUrl: strict().url, ...USER, grantType: false }));
      assert.equal(err.code, "http_400");
      assert.match(err.message, /grant_type \(FIELD_REQUIRED\)/);
      assert.deepEqual((err as HttpError).fields, [{ field: "grant_type", errorCode: "FIELD_REQUIRED" }]);
    });
  });

  describe("a server that rotates refresh tokens", () => {
    const rotating = _useEmulator({ rotateRefreshTokens: true });
    it("returns the new refresh token with rotated: true", async () => {
      const first = await issueToken({ baseUrl: rotating().url, ...USER });
      const next = await refreshToken({ baseUrl: rotating().url, refreshToken: first.refreshToken });
      assert.equal(next.rotated, true);
      assert.notEqual(next.refreshToken, first.refreshToken);
      assert.ok((await refreshToken({ baseUrl: rotating().url, refreshToken: next.refreshToken })).accessToken);
    });
  });

  describe("transport", () => {
    it("times out on a hung response with TransportError timeout", async () => {
      emu().inject({ kind: "hang", path: "/oapi/v1/oauth_token" });
      const err = await _rejects(refreshToken({ ...base(), refreshToken: "x", timeoutMs: 150 }));
      assert.ok(err instanceof TransportError);
      assert.equal(err.code, "timeout");
    });

    it("reports a connection reset as TransportError network", async () => {
      emu().inject({ kind: "reset", path: "/oapi/v1/oauth_token" });
      const err = await _rejects(refreshToken({ ...base(), refreshToken: "x" }));
      assert.ok(err instanceof TransportError);
      assert.equal(err.code, "network");
    });

    it("reports a refused connection as network", async () => {
      const server = createServer();
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
      const { port } = server.address() as AddressInfo;
      await new Promise((r) => server.close(r));
      const err = await _rejects(refreshToken({ baseUrl: `http://127.0.0.1:${port}`, refreshToken: "x" }));
      assert.equal(err.code, "network");
    });

    it("does not follow a redirect from the token endpoint", async () => {
      emu().resetStats();
      emu().inject({ kind: "status", status: 307, body: "", path: "/oapi/v1/oauth_token" });
      const err = await _rejects(issueToken({ ...base(), ...USER }));
      assert.equal(err.code, "http_307");
      assert.equal(emu().stats.requests, 1);
    });

    it("refuses an HTML error page, a non-JSON body and a body over 1 MiB", async () => {
      emu().inject({ kind: "status", status: 200, body: "<html><body>Maintenance</body></html>", contentType: "text/html", path: "/oapi/v1/oauth_token" });
      assert.ok((await _rejects(issueToken({ ...base(), ...USER }))) instanceof ProtocolError);
      emu().inject({ kind: "status", status: 200, body: "access_token=abc", contentType: "text/plain", path: "/oapi/v1/oauth_token" });
      assert.equal((await _rejects(issueToken({ ...base(), ...USER }))).field, "body");
      emu().inject({ kind: "status", status: 200, body: `{"a":"${"x".repeat(1024 * 1024)}"}`, path: "/oapi/v1/oauth_token" });
      const big = await _rejects(issueToken({ ...base(), ...USER }));
      assert.ok(big instanceof ProtocolError);
      assert.match(big.message, /larger than 1 MiB/);
    });

    it("refuses a streamed (chunked) body over 1 MiB without reading it all", async () => {
      const server: Server = createServer((_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        let sent = 0;
        const pump = (): void => {
          while (sent < 64 && res.write(chunk)) sent++;
          if (sent < 64) res.once("drain", pump);
          else res.end();
        };
        pump();
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
      try {
        const { port } = server.address() as AddressInfo;
        const err = await _rejects(issueToken({ baseUrl: `http://127.0.0.1:${port}`, ...USER }));
        assert.equal(err.field, "body");
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    });

    it("sends through an injected dispatcher", async () => {
      const agent = new Agent({ keepAliveTimeout: 10 });
      let dispatched = 0;
      const counting = agent.compose((dispatch) => (opts, handler) => {
        dispatched++;
        return dispatch(opts, handler);
      });
      await issueToken({ ...base(), ...USER, dispatcher: counting });
      assert.equal(dispatched, 1);
      await agent.close();
    });

    it("works with undici MockAgent for narrow unit cases", async () => {
      const mock = new MockAgent();
      mock.disableNetConnect();
      mock
        .get("https://api.adguard-dns.io")
        .intercept({ path: "/oapi/v1/oauth_token", method: "POST" })
        .reply(200, { access_token: "a", token_type: "Bearer", expires_in: "60", refresh_token: "r" });
      const set = await issueToken({ ...USER, dispatcher: mock, clock: { now: () => 0 } });
      assert.deepEqual(set, { accessToken: "a", refreshToken: "r", tokenType: "bearer", expiresIn: 60, expiresAt: 60_000 });
      await mock.close();
    });

    it("refuses plain http to a non-loopback host before sending", async () => {
      const err = await _rejects(issueToken({ baseUrl: "http://api.example.com", ...USER }));
      assert.ok(err instanceof ConfigError);
      assert.equal(err.field, "baseUrl");
    });
  });

  describe("exchangeCode (authorization code + PKCE)", () => {
    const token = { access_token: "a", token_type: "Bearer", expires_in: 60, refresh_token: "r" };
    function mockToken(status: number, body: object): { mock: MockAgent; forms: URLSearchParams[] } {
      const mock = new MockAgent();
      mock.disableNetConnect();
      const forms: URLSearchParams[] = [];
      mock
        .get("https://api.adguard-dns.io")
        .intercept({ path: "/oapi/v1/oauth_token", method: "POST", body: (b) => (forms.push(new URLSearchParams(b)), true) })
        .reply(status, body);
      return { mock, forms };
    }
    const args = { code: "the-code", codeVerifier: "v".repeat(43), clientId: "app", redirectUri: "http://127.0.0.1:9/cb" };

    it("posts grant_type=authorization_code with code, client_id, code_verifier, redirect_uri", async () => {
      const { mock, forms } = mockToken(200, token);
      const set = await exchangeCode({ ...args, dispatcher: mock, clock: { now: () => 0 } });
      assert.deepEqual(set, { accessToken: "a", refreshToken: "r", tokenType: "bearer", expiresIn: 60, expiresAt: 60_000 });
      assert.deepEqual(Object.fromEntries(forms[0]!), {
        grant_type: "authorization_code",
        code: "the-code",
        client_id: "app",
        code_verifier: "v".repeat(43),
        redirect_uri: "http://127.0.0.1:9/cb",
      });
      await mock.close();
    });

    it("maps a rejected code to InvalidGrantError without quoting it", async () => {
      const { mock } = mockToken(400, { error: "invalid_grant" });
      const err = await _rejects(exchangeCode({ ...args, dispatcher: mock }));
      assert.ok(err instanceof InvalidGrantError);
      assert.match(err.message, /authorization code/);
      assert.equal(`${err.message}${err.stack}`.includes("the-code"), false);
      await mock.close();
    });

    it("refuses missing options before sending, naming the option", async () => {
      for (const field of ["code", "codeVerifier", "clientId", "redirectUri"] as const) {
        const err = await _rejects(exchangeCode({ ...args, [field]: "" }));
        assert.ok(err instanceof ConfigError);
        assert.equal(err.field, field);
      }
    });
  });
});
