import { lazy, zod } from "../lazy";
import { MAX_EXPIRES_IN_SECONDS } from "../time";

// The zod form of the token body, for modules that extend it (authorize.ts). Public declarations use
// `tokenBodySchema` from token-response.ts, typed without zod.

/** Shape of a successful token body; `expires_in` may come as a numeric string. Built on first use. */
export const tokenBodyZod = lazy(() => {
  const { z } = zod();
  // Bounded: a lifetime past the largest date would make every later date computation throw.
  const positiveInteger = z
    .union([z.number(), z.string().regex(/^\d{1,15}$/).transform(Number)])
    .pipe(z.number().int().positive().max(MAX_EXPIRES_IN_SECONDS));
  // RFC 6749 appendix A: a token is 1*VSCHAR, printable ASCII. Anything else (an escape sequence, a
  // newline, a bidi override, a look-alike quote) is no credential: it would reach a terminal or a shell
  // through `dns-account token` and `env`.
  const token = z.string().regex(/^[\x20-\x7e]+$/);
  // The description makes token_type and refresh_token optional: null (or nothing) reads as absent, and a
  // missing token_type as "bearer", the only type the service issues. Any other type still fails.
  return z.object({
    access_token: token,
    token_type: z
      .string()
      .nullish()
      .transform((s) => (s ?? "bearer").toLowerCase())
      .pipe(z.literal("bearer")),
    expires_in: positiveInteger,
    refresh_token: token
      .nullish()
      .transform((v) => v ?? undefined),
  });
});
