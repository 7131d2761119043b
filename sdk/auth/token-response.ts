import { tokenBodyZod } from "./token-body";
import type { Validator } from "../schema";
import {
  HttpError,
  InvalidCredentialsError,
  InvalidGrantError,
  MfaRequiredError,
  ProtocolError,
  fieldProblems,
  serverDetails,
} from "../errors";
import { type Clock, type RawResponse, header, parseRetryAfter, systemClock } from "../http/transport";
import { serverWords } from "../server-words";

/** Which grant a token response answers. */
export type TokenGrant = "password" | "refresh_token" | "authorization_code";

/**
 * Tokens from the token endpoint or the implicit-grant redirect.
 *
 * @example
 * ```ts
 * const set = await issueToken({ username, password });
 * fetch(url, { headers: { authorization: `Bearer ${set.accessToken}` } });
 * ```
 */
export interface TokenSet {
  /** Short-lived credential for API calls (`Authorization: Bearer …`). */
  accessToken: string;
  /** Long-lived credential for the refresh grant. Absent from an implicit-grant result. */
  refreshToken?: string;
  /** Always the lower-case word `bearer` (normalised from any case). */
  tokenType: "bearer";
  /** Lifetime of the access token in seconds, as sent; it varies per response. */
  expiresIn: number;
  /** When the access token expires, in epoch ms by the injected clock. */
  expiresAt: number;
}

/** Messages for each field of a token body; they name the field, never its value. */
const FIELD_MESSAGES: Record<string, string> = {
  access_token: '"access_token" must be a non-empty string of printable ASCII (RFC 6749), with no control characters',
  token_type: '"token_type" must be "bearer"',
  expires_in: '"expires_in" must be a positive integer of seconds, at most ten years',
  refresh_token: '"refresh_token" must be a non-empty string of printable ASCII (RFC 6749), with no control characters',
  state: '"state" must be a string',
};

/** A successful token body, validated. */
export interface TokenBody {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  refresh_token?: string | undefined;
}

/** Shape of a successful token body; `expires_in` may come as a numeric string. Built on first use. */
export const tokenBodySchema: () => Validator<TokenBody> = tokenBodyZod;

/**
 * Validates an object against a zod schema and maps the first issue to a {@link ProtocolError} that names
 * the field. zod's own messages are not used: some quote the received value.
 */
export function validate<T>(schema: Validator<T>, value: unknown, status?: number): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join(".") ?? "";
  if (field === "") {
    throw new ProtocolError("The response body must be a JSON object", { field: "body", ...(status ? { status } : {}) });
  }
  const message = FIELD_MESSAGES[field] ?? `"${field}" has the wrong type or value`;
  throw new ProtocolError(message, { field, ...(status ? { status } : {}) });
}

/**
 * Decodes a JSON body. HTML pages, empty bodies and invalid JSON are refused with a
 * {@link ProtocolError} whose field is `body`.
 */
export function decodeJson(res: RawResponse): unknown {
  const text = res.body.toString("utf8");
  const type = header(res, "content-type") ?? "";
  const init = { field: "body", status: res.status };
  // Only the first non-blank character is looked at: a JSON body starts with {, [, " or a literal.
  let i = 0;
  while (i < text.length && (text.charCodeAt(i) <= 32)) i++;
  if (i === text.length) throw new ProtocolError("The response body is empty", init);
  if (text.charCodeAt(i) === 60 /* < */ || type.toLowerCase().includes("html")) {
    throw new ProtocolError("The server sent an HTML page where JSON was expected", init);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ProtocolError("The response body is not valid JSON", init);
  }
}

function tryDecodeJson(res: RawResponse): unknown {
  try {
    return decodeJson(res);
  } catch {
    return undefined;
  }
}

/** Options of {@link parseTokenResponse}. */
export interface ParseTokenOptions {
  /** The grant the response answers: `refresh_token` responses may omit `refresh_token`. */
  grant: TokenGrant;
  clock?: Clock;
}

/**
 * Turns a token endpoint response into a {@link TokenSet} or a typed error: `MfaRequiredError` (401,
 * `error_code` `2fa_required`), `InvalidCredentialsError` (password grant rejected),
 * `InvalidGrantError` (refresh token rejected), `HttpError` (any other status, with Retry-After),
 * `ProtocolError` (malformed success body).
 *
 * @example
 * ```ts
 * const res = { status: 200, headers: {}, body: Buffer.from('{"access_token":"a","token_type":"bearer","expires_in":60,"refresh_token":"r"}') };
 * parseTokenResponse(res, { grant: "password" }).expiresIn; // 60
 * ```
 */
export function parseTokenResponse(res: RawResponse, options: ParseTokenOptions): TokenSet {
  const clock = options.clock ?? systemClock;
  if (res.status < 200 || res.status >= 300) throw tokenError(res, options.grant, clock);
  const body = validate(tokenBodySchema(), decodeJson(res), res.status);
  if (options.grant === "password" && body.refresh_token === undefined) {
    throw new ProtocolError('"refresh_token" is missing from the password grant response', {
      field: "refresh_token",
      status: res.status,
    });
  }
  return {
    accessToken: body.access_token,
    ...(body.refresh_token !== undefined ? { refreshToken: body.refresh_token } : {}),
    tokenType: "bearer",
    expiresIn: body.expires_in,
    expiresAt: clock.now() + body.expires_in * 1000,
  };
}

function tokenError(res: RawResponse, grant: TokenGrant, clock: Clock): Error {
  const status = res.status;
  const body = tryDecodeJson(res);
  const server = serverDetails(body);
  const retryAfterMs = parseRetryAfter(header(res, "retry-after"), clock.now());
  const init = { status, ...(server ? { server } : {}), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  // Branching reads the server's own words; only documented ones (in `server`) are ever shown.
  const code = typeof (body as { error_code?: unknown } | null)?.error_code === "string" ? (body as { error_code: string }).error_code.toLowerCase() : "";
  const words = serverWords(body);
  if (status === 401 && code === "2fa_required") return new MfaRequiredError(init);
  const rejected = status === 401 || ((status === 400 || status === 403) && /invalid_grant|invalid_client|unauthorized/.test(words));
  if (rejected && grant === "password") {
    const message = code.includes("2fa")
      ? "The token endpoint rejected the MFA code (wrong, expired or already used)"
      : "The token endpoint rejected the username or password";
    return new InvalidCredentialsError(message, init);
  }
  if (rejected && grant === "authorization_code") {
    return new InvalidGrantError("The authorization code was rejected (unknown, used, expired, or not matching the verifier, client or redirect URI)", init);
  }
  if (rejected) return new InvalidGrantError(undefined, init);
  if (status >= 300 && status < 400) {
    return new HttpError(status, `The token endpoint answered HTTP ${status}; redirects are not followed`, init);
  }
  if (status === 415) {
    // Our grants always send a form; a 415 means something between (a proxy, a wrapper) changed the body.
    return new HttpError(status, "The token endpoint answered HTTP 415 Unsupported Media Type: it takes only an application/x-www-form-urlencoded body", init);
  }
  const said = server?.errorCode ?? server?.error;
  // API 1.15 answers a 400 in its ErrorResponse shape: name the fields it complains about.
  const raw = (body as { fields?: unknown } | null)?.fields;
  const listed = Array.isArray(raw)
    ? raw.filter((f): f is { field: string; error_code: string } => typeof f?.field === "string" && typeof f?.error_code === "string")
    : [];
  const fields = fieldProblems(listed);
  const list = fields.map((f) => `${f.field} (${f.errorCode})`).join(", ");
  return new HttpError(status, `The token endpoint answered HTTP ${status}${list ? `: ${list}` : said ? ` (${said})` : ""}`, {
    ...init,
    ...(fields.length > 0 ? { fields } : {}),
  });
}
