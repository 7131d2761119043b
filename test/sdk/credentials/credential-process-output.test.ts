import assert from "node:assert/strict";
import { CredentialProcessError, runCredentialProcess } from "../../../sdk";
import { _rejects } from "../../support/helpers";

/** A command printing `output` as JSON. */
const printing = (output: object) => `printf '%s' ${`'${JSON.stringify(output).replace(/'/g, `'\\''`)}'`}`;

describe("runCredentialProcess: what a credential command prints is a credential only if a terminal may see it", () => {
  const HOSTILE = ["SECRET\u001b]0;title\u0007VALUE", "SECRET\nVALUE", "SECRET\u202eVALUE", "SECRET\u2018VALUE", "SECRETéVALUE"];

  for (const field of ["accessToken", "access_token", "refreshToken", "refresh_token"]) {
    it(`refuses a "${field}" that is not printable ASCII (RFC 6749), naming the field, never the value`, async () => {
      for (const value of HOSTILE) {
        const err = await _rejects(runCredentialProcess({ command: printing({ [field]: value }), env: { PATH: process.env.PATH } }));
        assert.ok(err instanceof CredentialProcessError, JSON.stringify(value));
        assert.equal(err.field, field);
        assert.match(err.message, new RegExp(`"${field}" must be a non-empty string of printable ASCII`));
        assert.doesNotMatch(err.message, /SECRET|VALUE/);
      }
    });
  }

  it('refuses a "baseUrl" with a control or format character (the URL parser would drop a newline or a tab silently)', async () => {
    for (const baseUrl of ["https://SECRET\u202eVALUE.example", "https://x.example/\nVALUE", "https://x.example/\tVALUE", "https://x.example/\u001b[2JVALUE", "\u200bhttps://x.example"]) {
      const err = await _rejects(runCredentialProcess({ command: printing({ accessToken: "ok", baseUrl }), env: { PATH: process.env.PATH } }));
      assert.ok(err instanceof CredentialProcessError);
      assert.equal(err.field, "baseUrl");
      assert.doesNotMatch(err.message, /SECRET|VALUE/);
    }
  });

  it('reads "base_url" and "expires_at" as it reads the other snake_case names; refuses a hostile "base_url" by that name', async () => {
    const env = { PATH: process.env.PATH };
    assert.deepEqual(await runCredentialProcess({ command: printing({ access_token: "ok", base_url: "http://127.0.0.1:8787", expires_at: "2030-01-01T00:00:00Z" }), env }), {
      accessToken: "ok",
      baseUrl: "http://127.0.0.1:8787",
      baseUrlField: "base_url",
      expiresAt: Date.parse("2030-01-01T00:00:00Z"),
    });
    // A number in expires_at is epoch seconds, as OAuth clients store it; in expiresAt, milliseconds.
    assert.equal((await runCredentialProcess({ command: printing({ access_token: "ok", expires_at: 1_900_000_000 }), env })).expiresAt, 1_900_000_000_000);
    assert.equal((await runCredentialProcess({ command: printing({ accessToken: "ok", expiresAt: 1_900_000_000_000 }), env })).expiresAt, 1_900_000_000_000);
    assert.equal((await runCredentialProcess({ command: printing({ accessToken: "ok", expiresAt: 1_900_000_000_000, expires_at: 1_900_000_000 }), env })).expiresAt, 1_900_000_000_000, "the two agree");
    const hostile = await _rejects(runCredentialProcess({ command: printing({ accessToken: "ok", base_url: "https://x.example/\nVALUE" }), env }));
    assert.ok(hostile instanceof CredentialProcessError);
    assert.equal(hostile.field, "base_url");
    assert.doesNotMatch(hostile.message, /VALUE/);
    const late = await _rejects(runCredentialProcess({ command: printing({ accessToken: "ok", expires_at: "SECRET-not-a-time" }), env }));
    assert.equal((late as CredentialProcessError).field, "expires_at");
    assert.doesNotMatch(late.message, /SECRET/);
  });

  it('refuses a field and its snake_case twin that differ (two base URLs: the token goes to neither), naming the field, never the values', async () => {
    const env = { PATH: process.env.PATH };
    for (const [camel, snake] of [["accessToken", "access_token"], ["refreshToken", "refresh_token"]]) {
      const twin = await _rejects(runCredentialProcess({ command: printing({ [camel!]: "SECRET-one", [snake!]: "VALUE-two" }), env }));
      assert.equal((twin as CredentialProcessError).field, camel);
      assert.match(twin.message, new RegExp(`both "${camel}" and "${snake}"`));
      assert.doesNotMatch(twin.message, /SECRET|VALUE/);
    }
    const late = await _rejects(runCredentialProcess({ command: printing({ accessToken: "ok", expiresAt: 1_900_000_000_000, expires_at: 1_800_000_000 }), env }));
    assert.equal((late as CredentialProcessError).field, "expiresAt");
    const err = await _rejects(runCredentialProcess({ command: printing({ accessToken: "ok", baseUrl: "https://SECRET-one.example", base_url: "https://VALUE-two.example" }), env }));
    assert.ok(err instanceof CredentialProcessError);
    assert.equal(err.field, "baseUrl");
    assert.match(err.message, /both "baseUrl" and "base_url"/);
    assert.doesNotMatch(err.message, /SECRET|VALUE/);
    assert.deepEqual(await runCredentialProcess({ command: printing({ accessToken: "ok", baseUrl: "https://same.example", base_url: "https://same.example" }), env }), { accessToken: "ok", baseUrl: "https://same.example", baseUrlField: "baseUrl" });
  });

  it("accepts a token with quotes, $, backticks and backslashes, and a URL with non-ASCII letters (both printed quoted)", async () => {
    const token = `a'b"c$(d)\`e\`\\f`;
    assert.deepEqual(await runCredentialProcess({ command: printing({ accessToken: token, baseUrl: "https://dns.exämple/ü" }), env: { PATH: process.env.PATH } }), {
      accessToken: token,
      baseUrl: "https://dns.exämple/ü",
      baseUrlField: "baseUrl",
    });
  });
});
