import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify, inspect } from "node:util";
import { startEmulator } from "../../../emulator";
import {
  HttpError,
  isoTime,
  MAX_EXPIRES_IN_SECONDS,
  parseAuthorizeRedirect,
  Session,
  InvalidCredentialsError,
  InvalidGrantError,
  MfaRequiredError,
  parseTokenResponse,
  ProtocolError,
} from "../../../sdk";
import { _cleanEnv, _raw, _repoRoot, USER } from "../../support/helpers";
import { _useTempDirs } from "../../support/temp";

const clock = { now: () => 1_000_000 };
const good = { access_token: "acc", token_type: "bearer", refresh_token: "ref", expires_in: 3600 };

function protocolField(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ProtocolError, `expected ProtocolError, got ${String(err)}`);
    return err.field;
  }
  assert.fail("expected a ProtocolError");
}

describe("parseTokenResponse (from bare bodies)", () => {
  it("maps a password grant body to a TokenSet with expiresAt from the clock", () => {
    const set = parseTokenResponse(_raw(200, good), { grant: "password", clock });
    assert.deepEqual(set, { accessToken: "acc", refreshToken: "ref", tokenType: "bearer", expiresIn: 3600, expiresAt: 1_000_000 + 3_600_000 });
  });

  it("reads a missing or null token_type (optional in the description) as bearer, and a null refresh_token as absent", () => {
    for (const token_type of [undefined, null]) {
      assert.equal(parseTokenResponse(_raw(200, { ...good, token_type }), { grant: "password" }).tokenType, "bearer");
    }
    const renewed = parseTokenResponse(_raw(200, { ...good, refresh_token: null }), { grant: "refresh_token" });
    assert.ok(!Object.hasOwn(renewed, "refreshToken"));
    assert.throws(() => parseTokenResponse(_raw(200, { ...good, refresh_token: null }), { grant: "password" }), { field: "refresh_token" });
  });

  it("normalises token_type in any case", () => {
    for (const t of ["Bearer", "BEARER", "bEaReR"]) {
      assert.equal(parseTokenResponse(_raw(200, { ...good, token_type: t }), { grant: "password" }).tokenType, "bearer");
    }
  });

  it("accepts expires_in as a numeric string and keeps each response's own value", () => {
    assert.equal(parseTokenResponse(_raw(200, { ...good, expires_in: "2620978" }), { grant: "password", clock }).expiresIn, 2620978);
    assert.equal(parseTokenResponse(_raw(200, { ...good, expires_in: 17 }), { grant: "password", clock }).expiresAt, 1_017_000);
  });

  it("lets a refresh response omit refresh_token", () => {
    const { refresh_token: _, ...rest } = good;
    assert.equal(parseTokenResponse(_raw(200, rest), { grant: "refresh_token" }).refreshToken, undefined);
  });

  it("requires refresh_token in a password grant response", () => {
    const { refresh_token: _, ...rest } = good;
    assert.equal(protocolField(() => parseTokenResponse(_raw(200, rest), { grant: "password" })), "refresh_token");
  });

  const cases: [string, unknown, string][] = [
    ["missing access_token", { ...good, access_token: undefined }, "access_token"],
    ["empty access_token", { ...good, access_token: "" }, "access_token"],
    ["numeric access_token", { ...good, access_token: 42 }, "access_token"],
    ["token_type mac", { ...good, token_type: "mac" }, "token_type"],
    ["expires_in zero", { ...good, expires_in: 0 }, "expires_in"],
    ["expires_in negative", { ...good, expires_in: -5 }, "expires_in"],
    ["expires_in fractional", { ...good, expires_in: 1.5 }, "expires_in"],
    ["expires_in non-numeric string", { ...good, expires_in: "soon" }, "expires_in"],
    ["expires_in missing", { ...good, expires_in: undefined }, "expires_in"],
    ["refresh_token empty", { ...good, refresh_token: "" }, "refresh_token"],
    ["refresh_token number", { ...good, refresh_token: 7 }, "refresh_token"],
    ["an array body", [good], "body"],
    ["a null body", null, "body"],
    ["a string body", "token", "body"],
  ];
  for (const [name, body, field] of cases) {
    it(`refuses ${name}, naming the field "${field}"`, () => {
      assert.equal(protocolField(() => parseTokenResponse(_raw(200, JSON.stringify(body) ?? ""), { grant: "password" })), field);
    });
  }

  it("refuses an empty body, invalid JSON and an HTML page", () => {
    assert.equal(protocolField(() => parseTokenResponse(_raw(200, ""), { grant: "password" })), "body");
    assert.equal(protocolField(() => parseTokenResponse(_raw(200, "{not json"), { grant: "password" })), "body");
    const html = _raw(200, "<!doctype html><p>Sign in</p>", { "content-type": "text/html" });
    assert.throws(() => parseTokenResponse(html, { grant: "password" }), /HTML page/);
    assert.throws(() => parseTokenResponse(_raw(502, "<html>Bad gateway</html>"), { grant: "password" }), HttpError);
  });

  it("never quotes the offending value", () => {
    try {
      parseTokenResponse(_raw(200, { ...good, token_type: "secret-looking-type" }), { grant: "password" });
      assert.fail("should throw");
    } catch (err) {
      assert.equal((err as Error).message, '"token_type" must be "bearer"');
    }
  });

  it("maps 401 2fa_required to MfaRequiredError telling the user to pass an MFA code", () => {
    const body = { error: "unauthorized", error_code: "2fa_required", error_description: "2FA is required" };
    const err = (() => {
      try {
        parseTokenResponse(_raw(401, body), { grant: "password" });
      } catch (e) {
        return e as MfaRequiredError;
      }
      return undefined;
    })();
    assert.ok(err instanceof MfaRequiredError);
    assert.equal(err.code, "mfa_required");
    assert.match(err.message, /MFA code/);
    assert.deepEqual(err.server, { error: "unauthorized", errorCode: "2fa_required" });
  });

  it("maps other 401s to invalid_credentials (password) and invalid_grant (refresh)", () => {
    const body = { error: "unauthorized", error_code: "bad_credentials", error_description: "Invalid credentials" };
    assert.throws(() => parseTokenResponse(_raw(401, body), { grant: "password" }), InvalidCredentialsError);
    assert.throws(() => parseTokenResponse(_raw(401, body), { grant: "refresh_token" }), InvalidGrantError);
    assert.throws(() => parseTokenResponse(_raw(401, ""), { grant: "refresh_token" }), InvalidGrantError);
    assert.throws(() => parseTokenResponse(_raw(400, { error: "invalid_grant" }), { grant: "refresh_token" }), InvalidGrantError);
    assert.throws(
      () => parseTokenResponse(_raw(401, { error: "unauthorized", error_code: "2fa_invalid" }), { grant: "password" }),
      /rejected the MFA code/,
    );
  });

  it("maps other statuses to HttpError http_<status> with Retry-After", () => {
    try {
      parseTokenResponse(_raw(429, "", { "retry-after": "7" }), { grant: "refresh_token", clock });
      assert.fail("should throw");
    } catch (err) {
      assert.ok(err instanceof HttpError);
      assert.equal(err.code, "http_429");
      assert.equal(err.status, 429);
      assert.equal(err.retryAfterMs, 7000);
    }
    assert.throws(() => parseTokenResponse(_raw(400, { error: "invalid_request", error_code: "missing_parameters" }), { grant: "password" }), {
      code: "http_400",
      message: "The token endpoint answered HTTP 400 (missing_parameters)",
    });
    assert.throws(() => parseTokenResponse(_raw(302, "", { location: "https://evil.example/" }), { grant: "password" }), {
      code: "http_302",
    });
  });

  it("does not repeat server words that are not identifier-like", () => {
    const body = { error: "unauthorized", error_code: "code with spaces and a token abc123" };
    assert.throws(() => parseTokenResponse(_raw(500, body), { grant: "password" }), { message: "The token endpoint answered HTTP 500 (unauthorized)" });
  });
});

describe("bounded expires_in and total dates", () => {
  const tmp = _useTempDirs();
  it("refuses an expires_in above ten years with a ProtocolError naming expires_in", () => {
    assert.equal(parseTokenResponse(_raw(200, { ...good, expires_in: MAX_EXPIRES_IN_SECONDS }), { grant: "password", clock }).expiresIn, MAX_EXPIRES_IN_SECONDS);
    for (const expires_in of [MAX_EXPIRES_IN_SECONDS + 1, 1e20, "999999999999999", Number.MAX_SAFE_INTEGER]) {
      assert.throws(() => parseTokenResponse(_raw(200, { ...good, expires_in }), { grant: "password", clock }), {
        name: "ProtocolError",
        field: "expires_in",
        message: '"expires_in" must be a positive integer of seconds, at most ten years',
      });
    }
    assert.throws(() => parseAuthorizeRedirect("http://127.0.0.1/cb#access_token=a&token_type=bearer&expires_in=999999999999999"), { field: "expires_in" });
  });

  it("util.inspect of a session never throws, whatever its expiry", () => {
    for (const expiresAt of [Number.POSITIVE_INFINITY, 1e300, -1e300, 0]) {
      const s = new Session({ credentials: { accessToken: "a", tokenType: "bearer", expiresIn: 1, expiresAt } });
      assert.match(inspect(s), /^Session \{ valid until (unknown|1970-01-01T00:00:00\.000Z) \}$/);
      s.close();
    }
    assert.equal(isoTime(8.64e15 + 1), "unknown");
  });

  it("dns-account login against a server sending an absurd expires_in fails with protocol and stores nothing", async () => {
    const emu = await startEmulator({ tokenLifetimeSeconds: 1e14 });
    try {
      const dir = tmp("dns-account-expiry-");
      const cli = path.join(_repoRoot(), "dist", "cli", "main.js");
      const env = _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_USERNAME: USER.username, DNS_ACCOUNT_PASSWORD: USER.password });
      const err = (await promisify(execFile)(process.execPath, [cli, "login"], { env }).then(
        () => assert.fail("login should fail"),
        (e: unknown) => e,
      )) as { code: number; stderr: string };
      assert.equal(err.code, 1);
      assert.match(err.stderr, /^dns-account: protocol: "expires_in" must be a positive integer/m);
      assert.equal(existsSync(path.join(dir, "credentials.json")), false);
    } finally {
      await emu.close();
    }
  });
});

describe("a token is printable ASCII (RFC 6749 VSCHAR): nothing else is ever a credential", () => {
  // Each would reach a terminal or a shell through `dns-account token` / `env`: escape sequences (OSC 52
  // writes the clipboard), a newline, bidi overrides, PowerShell's other single quotes, non-ASCII.
  const HOSTILE = ["SECRET\u001b]52;c;cHduZWQ=\u0007VALUE", "SECRET\u001b[2JVALUE", "SECRET\nVALUE", "SECRET\rVALUE", "SECRET\u0000VALUE", "SECRET\u007fVALUE", "SECRET\u009bVALUE", "SECRET\u202eVALUE", "SECRET\u2066VALUE", "SECRET\u2028VALUE", "SECRET\u2018VALUE", "SECRET\u2019VALUE", "SECRETéVALUE", "SECRET\ufeffVALUE"];

  for (const field of ["access_token", "refresh_token"] as const) {
    it(`refuses a ${field} with a control, format or non-ASCII character: ProtocolError naming ${field}, never the value`, () => {
      for (const value of HOSTILE) {
        assert.throws(
          () => parseTokenResponse(_raw(200, { ...good, [field]: value }), { grant: "password" }),
          (e: unknown) => {
            assert.ok(e instanceof ProtocolError, JSON.stringify(value));
            assert.equal(e.field, field);
            assert.match(e.message, /printable ASCII/);
            assert.doesNotMatch(`${e.message} ${JSON.stringify(e)} ${inspect(e)}`, /SECRET|VALUE/);
            return true;
          },
        );
      }
    });
  }

  it("accepts every printable ASCII character, quotes and backslashes included (the CLI quotes them for the shell)", () => {
    const all = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");
    assert.equal(parseTokenResponse(_raw(200, { ...good, access_token: all, refresh_token: all }), { grant: "password" }).accessToken, all);
  });

  it("the implicit-grant redirect refuses such an access token too", () => {
    for (const value of ["SECRET\u001b[2JVALUE", "SECRET\u202eVALUE", "SECRET\nVALUE"]) {
      const url = `http://127.0.0.1/cb#access_token=${encodeURIComponent(value)}&token_type=Bearer&expires_in=60`;
      assert.throws(() => parseAuthorizeRedirect(url), (e: unknown) => e instanceof ProtocolError && e.field === "access_token" && !/SECRET|VALUE/.test(e.message));
    }
  });
});
