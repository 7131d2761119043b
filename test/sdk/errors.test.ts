import assert from "node:assert/strict";
import path from "node:path";
import { inspect } from "node:util";
import * as sdk from "../../sdk";
import { readFileSync } from "node:fs";
import { _errorText, _raw, _referenceFacts, _repoRoot } from "../support/helpers";

describe("the error family", () => {
  it("every class extends DnsAccountError and Error, with a stable code", () => {
    const errors = [
      [new sdk.MfaRequiredError(), "mfa_required"],
      [new sdk.InvalidCredentialsError(), "invalid_credentials"],
      [new sdk.InvalidGrantError(), "invalid_grant"],
      [new sdk.AuthorizationError("access_denied"), "authorization_failed"],
      [new sdk.ProtocolError("x", { field: "f" }), "protocol"],
      [new sdk.ConfigError("x", { field: "f" }), "invalid_config"],
      [new sdk.HttpError(503), "http_503"],
      [new sdk.TransportError("timeout", "x"), "timeout"],
      [new sdk.TransportError("network", "x"), "network"],
    ] as const;
    for (const [err, code] of errors) {
      assert.ok(err instanceof sdk.DnsAccountError);
      assert.ok(err instanceof Error);
      assert.equal(err.code, code);
      assert.equal(err.name, err.constructor.name);
    }
    assert.equal(new sdk.HttpError(503).status, 503);
    assert.ok(!(new sdk.HttpError(500) instanceof sdk.ProtocolError));
    assert.ok(!(new Error("plain") instanceof sdk.DnsAccountError));
  });

  it("instanceof works across two loaded copies of the package (provider host and program)", () => {
    const file = path.join(_repoRoot(), "dist", "sdk", "errors.js");
    const saved = require.cache[require.resolve(file)];
    delete require.cache[require.resolve(file)];
    const copy = require(file) as typeof sdk;
    if (saved) require.cache[require.resolve(file)] = saved;
    assert.notEqual(copy.InvalidGrantError, sdk.InvalidGrantError);
    const foreign = new copy.InvalidGrantError();
    assert.ok(foreign instanceof sdk.InvalidGrantError);
    assert.ok(foreign instanceof sdk.DnsAccountError);
    assert.ok(!(foreign instanceof sdk.MfaRequiredError));
    assert.ok(new sdk.HttpError(404) instanceof copy.HttpError);
  });

  it("toJSON and util.inspect show name, code, message and safe details only", () => {
    const err = new sdk.HttpError(429, "busy", { retryAfterMs: 1000, server: { error: "rate_limited" }, cause: new Error("low-level") });
    assert.deepEqual(err.toJSON(), { name: "HttpError", code: "http_429", message: "busy", status: 429, server: { error: "rate_limited" }, retryAfterMs: 1000 });
    const shown = inspect(err);
    assert.match(shown, /^HttpError \[http_429\]: busy/);
    assert.ok(!shown.includes("low-level"), "the cause stays out of inspect output");
    assert.equal((err as { cause?: Error }).cause?.message, "low-level");
    assert.ok(!Object.keys(err).includes("cause"));
  });
});

describe("server words in messages: documented codes and field names only", () => {
  // What a hostile server might echo: a lowercase hex token, an upper-case one, a snake_case password.
  const echoed = ["3f9a0c7e1b2d4f6a8c0e", "3F9A0C7E1B2D4F6A8C0E", "correct_horse_battery", "deadbeefcafe"];

  it("never shows an undocumented word, in any case, through any parser", () => {
    for (const word of echoed) {
      const errors = [
        () => sdk.parseTokenResponse(_raw(500, { error: word, error_code: word }), { grant: "password" }),
        () => sdk.parseTokenResponse(_raw(400, { error: word }), { grant: "refresh_token" }),
        () => sdk.parseRevokeResponse(_raw(500, { error: word, error_code: word })),
        () => sdk.parseApiResponse(_raw(401, { error: word, error_code: word }), "GET", undefined),
        () => sdk.parseApiResponse(_raw(400, { error_code: word, fields: [{ field: word, error_code: word }, { field: `settings.${word}`, error_code: "FIELD_REQUIRED" }] }), "GET", undefined),
        () => sdk.parseAuthorizeRedirect(`http://127.0.0.1/cb#error=${word}`),
        () => {
          throw new sdk.AuthorizationError(word);
        },
      ];
      for (const f of errors) {
        const err = (() => {
          try {
            f();
          } catch (e) {
            return e;
          }
          return assert.fail("expected an error");
        })();
        assert.ok(err instanceof sdk.DnsAccountError);
        assert.ok(!_errorText(err).toLowerCase().includes(word.toLowerCase()), `${err.name} showed an echoed word`);
      }
    }
  });

  it("shows documented codes and field names, in their documented spelling", () => {
    assert.throws(() => sdk.parseTokenResponse(_raw(500, { error: "Server_Error" }), { grant: "password" }), { message: "The token endpoint answered HTTP 500 (server_error)" });
    assert.throws(() => sdk.parseApiResponse(_raw(400, { error_code: "BAD_REQUEST", fields: [{ field: "settings.name", error_code: "FIELD_REQUIRED" }, { field: "3f9a0c7e", error_code: "x1" }] }), "POST", undefined), {
      message: "The API rejected the request: settings.name (FIELD_REQUIRED), (undocumented field) (UNKNOWN)",
    });
    assert.equal(new sdk.AuthorizationError("access_denied").message, "Authorization failed: access_denied");
  });

  it("knows every error code and field name of the reference OpenAPI descriptions", () => {
    for (const version of ["1.11", "1.15"] as const) {
      const doc = JSON.parse(readFileSync(_referenceFacts(version), "utf8")) as { components: { schemas: Record<string, { enum?: string[] }> } };
      const names = new Set<string>();
      const walk = (o: unknown): void => {
        if (Array.isArray(o)) return o.forEach(walk);
        if (typeof o !== "object" || o === null) return;
        for (const [k, v] of Object.entries(o)) {
          if (k === "properties" && typeof v === "object" && v !== null) Object.keys(v).forEach((n) => names.add(n));
          if (k === "parameters" && Array.isArray(v)) for (const p of v as { name?: string }[]) if (p.name) names.add(p.name);
          walk(v);
        }
      };
      walk(doc);
      const missing = [...names].filter((n) => !sdk.fieldProblems([{ field: n, error_code: "UNKNOWN" }])[0]!.field.startsWith(n));
      assert.deepEqual(missing, [], version);
      for (const code of doc.components.schemas.ErrorCodes?.enum ?? []) {
        assert.equal(sdk.serverDetails({ error_code: code })?.errorCode, code, `${version}: ${code}`);
      }
    }
  });
});

describe("the ./sdk entry", () => {
  it("does not load @pulumi/pulumi", async () => {
    const { execFileSync } = await import("node:child_process");
    const script = `require(${JSON.stringify(path.join(_repoRoot(), "dist", "sdk", "index.js"))});
      const loaded = Object.keys(require.cache).filter((k) => k.includes("@pulumi"));
      process.stdout.write(JSON.stringify(loaded));`;
    assert.deepEqual(JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })), []);
  });

  it("reports the package version in the User-Agent", async () => {
    const { readFileSync } = await import("node:fs");
    const pkg = JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")) as { version: string };
    assert.equal(sdk.VERSION, pkg.version);
    assert.equal(sdk.USER_AGENT, `pulumi-dns-account/${pkg.version}`);
  });
});
