import assert from "node:assert/strict";
import fc from "fast-check";
import {
  DnsAccountError,
  decodeJson,
  parseApiResponse,
  parseAuthorizeRedirect,
  parseOperations,
  parseRetryAfter,
  parseRevokeResponse,
  parseTokenResponse,
  ProtocolError,
  type RawResponse,
} from "../../sdk";
import { _errorText } from "../support/helpers";

/**
 * Property-based fuzzing of everything that parses what a server (or a browser redirect) sends: only
 * typed errors, never an unhandled exception, never a secret in the error.
 */

// Realistic secrets: random base64url tokens (mixed case, as the service's are), lowercase and
// upper-case hex tokens (which look like codes to a shape rule), and snake_case passwords.
const hex = fc.uint8Array({ minLength: 8, maxLength: 24 }).map((b) => Buffer.from(b).toString("hex"));
const secret = fc.oneof(
  fc.uint8Array({ minLength: 15, maxLength: 30 }).map((b) => Buffer.from(b).toString("base64url")),
  hex,
  hex.map((h) => h.toUpperCase()),
  fc.array(fc.stringMatching(/^[a-z]{4,9}$/), { minLength: 3, maxLength: 4 }).map((w) => w.join("_")),
);

const anyValue = (secrets: fc.Arbitrary<string>) =>
  fc.oneof(secrets, fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.array(fc.string(), { maxLength: 3 }));

const tokenFields = ["access_token", "token_type", "expires_in", "refresh_token", "error", "error_code", "error_description", "state"];

const body = (secrets: fc.Arbitrary<string>) =>
  fc.oneof(
    fc.dictionary(fc.constantFrom(...tokenFields, "other"), anyValue(secrets)).map((o) => JSON.stringify(o)),
    fc.record({ access_token: secrets, token_type: fc.constantFrom("bearer", "Bearer", "mac", ""), expires_in: fc.oneof(fc.integer(), fc.string()), refresh_token: secrets }).map((o) => JSON.stringify(o)),
    fc.string(),
    secrets.map((s) => `<html><body>${s}</body></html>`),
    fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString("latin1")),
    fc.constant(""),
    // The API's validation-error shape, with secrets as codes and field names.
    fc.record({ error_code: secrets, fields: fc.array(fc.record({ field: fc.oneof(secrets, secrets.map((x) => `settings.${x}`)), error_code: secrets }), { maxLength: 3 }) }).map((o) => JSON.stringify(o)),
  );

const response = (secrets: fc.Arbitrary<string>) =>
  fc.record({
    status: fc.oneof(fc.constantFrom(200, 201, 204, 301, 302, 400, 401, 403, 404, 410, 429, 500, 502, 503), fc.integer({ min: 100, max: 599 })),
    headers: fc.record(
      { "content-type": fc.oneof(fc.constantFrom("application/json", "text/html", "*/*", ""), fc.string()), "retry-after": fc.oneof(fc.string(), fc.nat().map(String), secrets) },
      { requiredKeys: [] },
    ),
    body: body(secrets),
  }).map((r): RawResponse => ({ status: r.status, headers: r.headers, body: Buffer.from(r.body) }));

/** Runs `f`; it may return or throw a DnsAccountError whose texts hold none of `secrets`. */
function typedAndClean(f: () => unknown, secrets: string[]): unknown {
  try {
    return f();
  } catch (err) {
    assert.ok(err instanceof DnsAccountError, `untyped error: ${String(err)}`);
    const text = _errorText(err);
    for (const s of secrets) assert.ok(!text.includes(s), "a secret reached the error");
    return err;
  }
}

describe("fuzzing the parsers (fast-check)", () => {
  it("parseTokenResponse: a valid TokenSet or a typed error without secrets", () => {
    const cases = fc
      .array(secret, { minLength: 1, maxLength: 3 })
      .chain((secrets) => fc.tuple(fc.constant(secrets), response(fc.constantFrom(...secrets)), fc.constantFrom("password" as const, "refresh_token" as const)));
    fc.assert(
      fc.property(cases, ([secrets, res, grant]) => {
        const out = typedAndClean(() => parseTokenResponse(res, { grant }), secrets);
        if (!(out instanceof Error)) {
          const set = out as { accessToken: string; tokenType: string; expiresIn: number };
          assert.ok(set.accessToken.length > 0);
          assert.equal(set.tokenType, "bearer");
          assert.ok(Number.isSafeInteger(set.expiresIn) && set.expiresIn > 0);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it("parseTokenResponse on direct random responses with secrets in every field", () => {
    fc.assert(
      fc.property(secret, secret, (a, b) => {
        const gen = response(fc.constantFrom(a, b));
        for (const res of fc.sample(gen, 20)) typedAndClean(() => parseTokenResponse(res, { grant: "password" }), [a, b]);
      }),
      { numRuns: 150 },
    );
  });

  it("parseAuthorizeRedirect: typed errors only; a state mismatch always fails", () => {
    const fragment = (secrets: fc.Arbitrary<string>) => fc.dictionary(fc.constantFrom("access_token", "token_type", "expires_in", "state", "error", "x"), fc.oneof(secrets, fc.string(), fc.nat().map(String), fc.constantFrom("Bearer", "bearer")));
    fc.assert(
      fc.property(secret, secret, fc.option(fc.string({ minLength: 1 })), (a, b, state) => {
        for (const frag of fc.sample(fragment(fc.constantFrom(a, b)), 10)) {
          const location = `http://127.0.0.1:8900/callback#${new URLSearchParams(frag).toString()}`;
          const out = typedAndClean(() => parseAuthorizeRedirect(location, state === null ? {} : { state }), [a, b]);
          if (state !== null && frag.state !== state) assert.ok(out instanceof ProtocolError && out.field === "state", "state mismatch accepted");
        }
        typedAndClean(() => parseAuthorizeRedirect(`${a}#${b}`), [a, b]);
      }),
      { numRuns: 300 },
    );
  });

  it("parseRevokeResponse, parseApiResponse and decodeJson: typed errors only", () => {
    fc.assert(
      fc.property(secret, (a) => {
        for (const res of fc.sample(response(fc.constant(a)), 10)) {
          typedAndClean(() => parseRevokeResponse(res), [a]);
          typedAndClean(() => parseApiResponse(res, "GET", undefined), [a]);
          typedAndClean(() => decodeJson(res), [a]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("parseRetryAfter never throws and never returns a negative, non-finite or unbounded delay", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.nat().map(String), fc.date({ noInvalidDate: true }).map((d) => d.toUTCString())), fc.nat(), (value, now) => {
        const ms = parseRetryAfter(value, now);
        assert.ok(ms === undefined || (Number.isFinite(ms) && ms >= 0 && ms <= 86_400_000));
      }),
      { numRuns: 2000 },
    );
  });

  it("parseOperations on arbitrary JSON: operations or a typed error", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (doc) => {
        typedAndClean(() => parseOperations(doc), []);
        typedAndClean(() => parseOperations({ paths: { "/x/{id}": { get: doc, parameters: doc } } }), []);
      }),
      { numRuns: 1000 },
    );
  });
});
