import assert from "node:assert/strict";
import { codeChallengeS256, ConfigError, generateCodeVerifier, generateState } from "../../../sdk";

describe("PKCE", () => {
  it("computes the S256 challenge of RFC 7636's example verifier", () => {
    assert.equal(codeChallengeS256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("generates 43-character base64url verifiers and states that differ each time", () => {
    const verifiers = new Set(Array.from({ length: 20 }, generateCodeVerifier));
    assert.equal(verifiers.size, 20);
    for (const v of verifiers) assert.match(v, /^[A-Za-z0-9_-]{43}$/);
    assert.match(generateState(), /^[A-Za-z0-9_-]{22}$/);
    assert.notEqual(generateState(), generateState());
  });

  it("refuses a verifier outside RFC 7636's alphabet or length, naming the option only", () => {
    for (const bad of ["short", "x".repeat(129), `${"a".repeat(43)} `, `${"a".repeat(42)}+`]) {
      assert.throws(
        () => codeChallengeS256(bad),
        (e: unknown) => e instanceof ConfigError && e.field === "codeVerifier" && !e.message.includes(bad),
      );
    }
  });
});
