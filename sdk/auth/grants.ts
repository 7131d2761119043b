import { requireString } from "../options";
import { parseTokenResponse, type TokenGrant, type TokenSet } from "./token-response";
import { apiUrl, type RawResponse, send } from "../http/transport";
import { USER_AGENT } from "../version";
import type { TokenCallOptions } from "../config/input";
import { resolveTransportConfig } from "../config/resolve";
import type { TransportConfig } from "../config/resolved";

export { DEFAULT_TOKEN_TIMEOUT_MS } from "../config/resolve";

/** Arguments of {@link issueToken}. */
export interface IssueTokenOptions extends TokenCallOptions {
  /** Account e-mail. */
  username: string;
  /** Account password. */
  password: string;
  /** Current two-factor code; only for accounts with two-factor authentication. */
  mfaToken?: string;
}

/** Arguments of {@link refreshToken}. */
export interface RefreshTokenOptions extends TokenCallOptions {
  /** The refresh token from an earlier password grant. */
  refreshToken: string;
}

/** Result of {@link issueToken}: a password grant always yields a refresh token. */
export type IssuedTokenSet = TokenSet & { refreshToken: string };

/** Result of {@link refreshToken}. */
export type RefreshedTokenSet = IssuedTokenSet & {
  /** True when the server sent a refresh token different from the one used (the new one is returned). */
  rotated: boolean;
};

/**
 * Sends a form-urlencoded POST to an Account API path and returns the raw response. Half of each grant:
 * the other half is the matching parser, so parsing is testable from a bare response.
 */
export function formRequest(
  path: string,
  form: Record<string, string>,
  options: TokenCallOptions | TransportConfig,
  query?: Record<string, string>,
): Promise<RawResponse> {
  const config = resolveTransportConfig(options);
  const url = apiUrl(new URL(config.endpoint.href), path);
  for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
  return send(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      "user-agent": USER_AGENT,
    },
    body: new URLSearchParams(form).toString(),
    dispatcher: config.dispatcher,
    timeoutMs: config.timeoutMs,
    signal: config.signal,
  });
}

/** Sends a token endpoint request for a grant; see {@link parseTokenResponse} for the other half. */
export function tokenRequest(grant: TokenGrant, form: Record<string, string>, options: TokenCallOptions | TransportConfig): Promise<RawResponse> {
  const config = resolveTransportConfig(options);
  const body = config.grantType ? { grant_type: grant, ...form } : form;
  return formRequest("/oauth_token", body, config);
}

/**
 * Issues an access token and a refresh token by username and password (and MFA code).
 * Never retried: an MFA code is single-use.
 *
 * @example
 * ```ts
 * const tokens = await issueToken({ username: "me@example.com", password, mfaToken: "123456" });
 * ```
 * @throws MfaRequiredError when the account needs an MFA code and none was sent.
 * @throws InvalidCredentialsError when the username, password or MFA code is rejected.
 */
export async function issueToken(options: IssueTokenOptions): Promise<IssuedTokenSet> {
  const form: Record<string, string> = {
    username: requireString(options.username, "username"),
    password: requireString(options.password, "password"),
  };
  if (options.mfaToken !== undefined) form.mfa_token = requireString(options.mfaToken, "mfaToken");
  const config = resolveTransportConfig(options);
  const res = await tokenRequest("password", form, config);
  return parseTokenResponse(res, { grant: "password", clock: config.clock }) as IssuedTokenSet;
}

/**
 * Gets a new access token with a refresh token. The service returns the same refresh token; if a server
 * sends a different one, it is returned with `rotated: true`.
 *
 * @example
 * ```ts
 * const { accessToken, expiresAt } = await refreshToken({ refreshToken: stored });
 * ```
 * @throws InvalidGrantError when the refresh token is revoked or unknown.
 */
export async function refreshToken(options: RefreshTokenOptions): Promise<RefreshedTokenSet> {
  const sent = requireString(options.refreshToken, "refreshToken");
  return refreshWith(resolveTransportConfig(options), sent);
}

/** {@link refreshToken} with a resolved transport (the revoke check's second look). */
export async function refreshWith(config: TransportConfig, sent: string): Promise<RefreshedTokenSet> {
  const res = await tokenRequest("refresh_token", { refresh_token: sent }, config);
  const set = parseTokenResponse(res, { grant: "refresh_token", clock: config.clock });
  const refresh = set.refreshToken ?? sent;
  return { ...set, refreshToken: refresh, rotated: refresh !== sent };
}

/** Arguments of {@link exchangeCode}. */
export interface ExchangeCodeOptions extends TokenCallOptions {
  /** The one-time code from the authorize redirect ({@link parseCodeRedirect}). */
  code: string;
  /** The PKCE verifier whose challenge went into the authorize URL ({@link CodeAuthorization.codeVerifier}). */
  codeVerifier: string;
  /** The client the code was issued to. */
  clientId: string;
  /** The exact redirect URI of the authorize request. */
  redirectUri: string;
}

/**
 * Exchanges an authorization code and its PKCE verifier for tokens (`grant_type=authorization_code`).
 * Never retried: a code is single-use.
 *
 * @example
 * ```ts
 * const auth = authorizeUrl({ responseType: "code", clientId, redirectUri });
 * // … the browser comes back to redirectUri with ?code=…&state=…
 * const { code } = parseCodeRedirect(callbackUrl, { state: auth.state });
 * const tokens = await exchangeCode({ code, codeVerifier: auth.codeVerifier, clientId, redirectUri });
 * ```
 * @throws InvalidGrantError when the code is unknown, used, expired, or does not match the verifier,
 * client or redirect URI.
 */
export async function exchangeCode(options: ExchangeCodeOptions): Promise<TokenSet> {
  const form: Record<string, string> = {
    code: requireString(options.code, "code"),
    client_id: requireString(options.clientId, "clientId"),
    code_verifier: requireString(options.codeVerifier, "codeVerifier"),
    redirect_uri: requireString(options.redirectUri, "redirectUri"),
  };
  const config = resolveTransportConfig(options);
  const res = await tokenRequest("authorization_code", form, config);
  return parseTokenResponse(res, { grant: "authorization_code", clock: config.clock });
}
