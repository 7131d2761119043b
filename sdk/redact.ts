/**
 * A printable stand-in for a secret: its length only, never any of its characters.
 *
 * @example
 * ```ts
 * redact("H3SW6YFJ-tOPe0FQCM1Jd6VnMiA"); // "[secret, 27 chars]"
 * ```
 */
export function redact(secret: string | undefined): string {
  return secret === undefined ? "[none]" : `[secret, ${secret.length} chars]`;
}
