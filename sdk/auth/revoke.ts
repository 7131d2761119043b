import { DnsAccountError, HttpError, InvalidGrantError, RevocationError, serverDetails } from "../errors";
import { formRequest, refreshWith } from "./grants";
import { requireString } from "../options";
import { decodeJson } from "./token-response";
import { serverWords } from "../server-words";
import { type RawResponse, header, parseRetryAfter } from "../http/transport";
import type { TokenCallOptions } from "../config/input";
import { resolveTransportConfig } from "../config/resolve";
import type { TransportConfig } from "../config/resolved";

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
  options: Omit<TokenCallOptions, "grantType"> | TransportConfig,
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

/** A 400 that says the request lacked `refresh_token` (a field complaint or the word): the one answer that earns the query. */
function namesMissingRefreshToken(res: RawResponse): boolean {
  let body: unknown;
  try {
    body = decodeJson(res);
  } catch {
    return false;
  }
  const fields = (body as { fields?: unknown } | null)?.fields;
  if (Array.isArray(fields) && fields.some((f) => (f as { field?: unknown } | null)?.field === "refresh_token")) return true;
  // Read for branching only, never shown: an OAuth server says it in `error_description`.
  const description = (body as { error_description?: unknown } | null)?.error_description;
  return /\brefresh_token\b/i.test(`${serverWords(body)} ${typeof description === "string" ? description.slice(0, 200) : ""}`);
}

/**
 * Whether the refresh token still works: undefined when the refresh grant refuses it (`invalid_grant`),
 * the token to revoke next when it works (a server that rotates refresh tokens has just issued a new
 * one). Any other outcome proves nothing and is a {@link RevocationError}.
 */
async function stillWorks(token: string, config: TransportConfig): Promise<string | undefined> {
  try {
    return (await refreshWith(config, token)).refreshToken;
  } catch (err) {
    if (err instanceof InvalidGrantError) return undefined;
    const code = err instanceof DnsAccountError ? ` (${err.code})` : "";
    throw new RevocationError(`The revoke endpoint answered, but checking that the refresh token no longer works failed${code}: treat it as live and revoke it again later`, {
      cause: err,
    });
  }
}

/**
 * Revokes a refresh token (and with it the access tokens issued from it), and proves it: after the
 * revoke endpoint answers, the token is tried with the refresh grant, which must fail with
 * `invalid_grant`. Revoking a token that is already revoked or unknown succeeds.
 *
 * The token travels in the form body (`token` and `refresh_token`), never in a URL, where access logs
 * keep it. Only two answers move it to the `refresh_token` query parameter that the service's OpenAPI
 * description names: a 400 that names the missing `refresh_token`, and a 200 after which the token still
 * works (a server that reads only the query). Any other error answer (an HTML page, `invalid_client`) is
 * an {@link HttpError}, never retried in the URL. A token that still works after that is a
 * {@link RevocationError} (`revocation_unproven`), as is a check that cannot be made.
 *
 * @example
 * ```ts
 * await revokeToken({ refreshToken: stored }); // resolves only once the token is proven dead
 * ```
 */
export async function revokeToken(options: RevokeTokenOptions): Promise<void> {
  const token = requireString(options.refreshToken, "refreshToken");
  return revokeWith(resolveTransportConfig(options), token);
}

/** {@link revokeToken} with a resolved transport (a session's). */
export async function revokeWith(options: TransportConfig, refreshToken: string): Promise<void> {
  let token = refreshToken;
  const now = (): number => options.clock.now();
  let inQuery = false;
  let res = await revokeRequest(token, options);
  if (res.status === 400 && !saysAlreadyGone(res) && namesMissingRefreshToken(res)) {
    inQuery = true;
    res = await revokeRequest(token, options, { inQuery });
  }
  parseRevokeResponse(res, now());
  const live = await stillWorks(token, options);
  if (live === undefined) return;
  if (!inQuery) {
    // The server answered without reading the body: the description's query parameter, once.
    token = live;
    parseRevokeResponse(await revokeRequest(token, options, { inQuery: true }), now());
    if ((await stillWorks(token, options)) === undefined) return;
  }
  throw new RevocationError("The refresh token could not be revoked: it still works after the revoke endpoint answered success; revoke it in the account's web UI");
}
