import { createHash, randomBytes } from "node:crypto";
import { ConfigError } from "../errors";

/** Characters RFC 7636 allows in a code verifier (unreserved URI characters). */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * A fresh PKCE code verifier: 32 random bytes as base64url (43 characters, 256 bits), the length RFC 7636
 * recommends. Keep it secret until the code exchange.
 *
 * @example
 * ```ts
 * const verifier = generateCodeVerifier();
 * const challenge = codeChallengeS256(verifier);
 * ```
 */
export function generateCodeVerifier(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The S256 code challenge of a verifier: BASE64URL(SHA-256(verifier)) without padding. A verifier outside
 * RFC 7636's alphabet or length is refused (naming the option, never the value).
 *
 * @example
 * ```ts
 * codeChallengeS256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"); // "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
 * ```
 */
export function codeChallengeS256(verifier: string): string {
  if (typeof verifier !== "string" || !VERIFIER.test(verifier)) {
    throw new ConfigError('"codeVerifier" must be 43 to 128 unreserved characters (RFC 7636)', { field: "codeVerifier" });
  }
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/**
 * A fresh random `state` for an authorize request (128 bits, base64url).
 *
 * @example
 * ```ts
 * const state = generateState();
 * ```
 */
export function generateState(): string {
  return randomBytes(16).toString("base64url");
}
