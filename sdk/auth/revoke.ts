import { HttpError, serverDetails } from "../errors";
import { formRequest, type TokenCallOptions } from "./grants";
import { requireString } from "../options";
import { decodeJson } from "./token-response";
import { serverWords } from "../server-words";
import { type RawResponse, header, parseRetryAfter, systemClock } from "../http/transport";

/** Arguments of {@link revokeToken}. */
export interface RevokeTokenOptions extends Omit<TokenCallOptions, "grantType"> {
  /** The refresh token to revoke. */
  refreshToken: string;
}

/**
 * Sends the revoke request with the token in the form body, as the fields `token` (the published
 * interface's example) and `refresh_token` (its table). With `inQuery`, the token also goes in the
 * `refresh_token` query parameter, which the service's OpenAPI description names: {@link revokeToken}
 * does that only for a server that refused the body-only request, because URLs reach access logs.
 *
 * @example
 * ```ts
 * const res = await revokeRequest(refreshToken, { baseUrl });
 * parseRevokeResponse(res);
 * ```
 */
export function revokeRequest(
  refreshToken: string,
  options: Omit<TokenCallOptions, "grantType">,
  { inQuery = false }: { inQuery?: boolean } = {},
): Promise<RawResponse> {
  const form = { token: refreshToken, refresh_token: refreshToken };
  return formRequest("/revoke_token", form, options, inQuery ? { refresh_token: refreshToken } : undefined);
}

// Words with which servers say "this token is not (or no longer) valid": revoking it again is success.
const ALREADY_GONE = /invalid_(grant|token)|token_(not_found|revoked|expired)|not_found|revoked/;

function saysAlreadyGone(res: RawResponse): boolean {
  let body: unknown;
  try {
    body = decodeJson(res);
  } catch {
    return false;
  }
  return (res.status === 400 || res.status === 401) && ALREADY_GONE.test(serverWords(body));
}

/**
 * Interprets a revoke response. Success for 2xx, for 404/410, and for 400/401 saying the token is
 * already invalid or unknown (revocation is idempotent); otherwise an {@link HttpError}.
 *
 * @example
 * ```ts
 * parseRevokeResponse({ status: 200, headers: {}, body: Buffer.alloc(0) }); // returns: revoked
 * ```
 */
export function parseRevokeResponse(res: RawResponse, now = Date.now()): void {
  if (res.status >= 200 && res.status < 300) return;
  if (res.status === 404 || res.status === 410) return;
  if (saysAlreadyGone(res)) return;
  let server;
  try {
    server = serverDetails(decodeJson(res));
  } catch {
    server = undefined;
  }
  const retryAfterMs = parseRetryAfter(header(res, "retry-after"), now);
  throw new HttpError(res.status, `The revoke endpoint answered HTTP ${res.status}`, {
    ...(server ? { server } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}

/**
 * Revokes a refresh token (and with it the access tokens issued from it). Revoking a token that is
 * already revoked or unknown succeeds.
 *
 * The token travels in the form body. Only when the server answers that request with a 400 that does
 * not say "already revoked" (the service's way of saying a required parameter is missing) is the
 * request sent once more with the token in the query, as its OpenAPI description has it.
 *
 * @example
 * ```ts
 * await revokeToken({ refreshToken: stored });
 * ```
 */
export async function revokeToken(options: RevokeTokenOptions): Promise<void> {
  const token = requireString(options.refreshToken, "refreshToken");
  let res = await revokeRequest(token, options);
  if (res.status === 400 && !saysAlreadyGone(res)) res = await revokeRequest(token, options, { inQuery: true });
  parseRevokeResponse(res, (options.clock ?? systemClock).now());
}
