import { HttpError, serverDetails } from "../errors";
import { formRequest, type TokenCallOptions } from "./grants";
import { requireString } from "../options";
import { decodeJson } from "./token-response";
import { type RawResponse, header, parseRetryAfter, systemClock } from "../http/transport";

/** Arguments of {@link revokeToken}. */
export interface RevokeTokenOptions extends Omit<TokenCallOptions, "grantType"> {
  /** The refresh token to revoke. */
  refreshToken: string;
}

/**
 * Sends the revoke request. The published interface names the field `token` in its example and
 * `refresh_token` in its table, and the service's OpenAPI description reads `refresh_token` from the
 * query string: all three are sent, so a server reading any one of them revokes.
 */
export function revokeRequest(refreshToken: string, options: Omit<TokenCallOptions, "grantType">): Promise<RawResponse> {
  return formRequest("/revoke_token", { token: refreshToken, refresh_token: refreshToken }, options, {
    refresh_token: refreshToken,
  });
}

// Words with which servers say "this token is not (or no longer) valid": revoking it again is success.
const ALREADY_GONE = /invalid_(grant|token)|token_(not_found|revoked|expired)|not_found|revoked/;

/**
 * Interprets a revoke response. Success for 2xx, for 404, and for 400/401 saying the token is already
 * invalid or unknown (revocation is idempotent); otherwise an {@link HttpError}.
 */
export function parseRevokeResponse(res: RawResponse, now = Date.now()): void {
  if (res.status >= 200 && res.status < 300) return;
  if (res.status === 404 || res.status === 410) return;
  let server;
  try {
    server = serverDetails(decodeJson(res));
  } catch {
    server = undefined;
  }
  const said = `${server?.error ?? ""} ${server?.errorCode ?? ""}`.toLowerCase();
  if ((res.status === 400 || res.status === 401) && ALREADY_GONE.test(said)) return;
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
 * @example
 * ```ts
 * await revokeToken({ refreshToken: stored });
 * ```
 */
export async function revokeToken(options: RevokeTokenOptions): Promise<void> {
  const token = requireString(options.refreshToken, "refreshToken");
  const res = await revokeRequest(token, options);
  parseRevokeResponse(res, (options.clock ?? systemClock).now());
}
