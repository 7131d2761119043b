import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { cookie, isFormType, parseForm, readBody, sendEmpty, sendHtml, sendJson } from "../http/util";
import type { Ctx, Route } from "../http/router";
import type { EmulatorClient, EmulatorState } from "../state";
import { errorPage, loginPage } from "./pages";

const API = "/oapi/v1";

function isLoopbackHost(host: string): boolean {
  return host === "127.0.0.1" || host === "[::1]" || host === "localhost";
}

function redirectAllowed(client: EmulatorClient, redirectUri: string): boolean {
  let target: URL;
  try {
    target = new URL(redirectUri);
  } catch {
    return false;
  }
  return client.redirectUris.some((registered) => {
    const r = new URL(registered);
    if (isLoopbackHost(r.hostname) && r.hostname === target.hostname) {
      return r.protocol === target.protocol && r.pathname === target.pathname;
    }
    return r.href === target.href;
  });
}

/**
 * A token-endpoint error. 401 bodies are `AccessTokenErrorResponse`; 400 bodies add the 1.15
 * `ErrorResponse` fields (`message`, `fields`) and keep the OAuth `error`/`error_code` clients branch on.
 */
function tokenError(res: ServerResponse, status: number, error: string, errorCode: string, description: string, field?: string): void {
  // As API 1.15 answers: a 400 (missing or wrong parameters) in the API's ErrorResponse shape, a 401
  // (credentials, MFA code, refresh token, code or verifier rejected) in AccessTokenErrorResponse's.
  const body: Record<string, unknown> =
    status === 400
      ? { error_code: errorCode, message: description, fields: field ? [{ field, error_code: errorCode === "FIELD_WRONG_VALUE" ? "FIELD_WRONG_VALUE" : "FIELD_REQUIRED", message: description }] : [] }
      : { error, error_code: errorCode, error_description: description };
  sendJson(res, status, body, { "cache-control": "no-store" });
}

/**
 * The authentication group: token endpoint (password, refresh, authorization-code grants), revoke,
 * authorize (implicit and code flow with PKCE S256) and the login page behind it.
 *
 * @example
 * ```ts
 * router.add(authRoutes(state));
 * ```
 */
export function authRoutes(state: EmulatorState): Route[] {
  const { store, stats, options } = state;

  async function token({ req, res, url }: Ctx): Promise<void> {
    stats.tokenCalls++;
    const type = req.headers["content-type"] ?? "";
    const form = parseForm(await readBody(req));
    state.record(req, url, form);
    if (!isFormType(type)) {
      // The service refuses any other body type (JSON included) with 415 before reading it; the old
      // emulator's 400 stays available for tests that need it.
      if (options.tokenMediaTypeStatus === 400) return tokenError(res, 400, "invalid_request", "BAD_REQUEST", "Send an application/x-www-form-urlencoded body");
      return sendJson(res, 415, { error_code: "UNSUPPORTED_MEDIA_TYPE", message: "Content type is not supported: send application/x-www-form-urlencoded", fields: [] }, { accept: "application/x-www-form-urlencoded", "cache-control": "no-store" });
    }
    let grant = form.grant_type;
    if (grant === undefined) {
      // As the service does: the password and refresh grants are inferred from their fields (public
      // clients omit grant_type), the code grant needs it; `requireGrantType` keeps the schema's rule.
      if (options.requireGrantType === true || form.code !== undefined) return tokenError(res, 400, "invalid_request", "FIELD_REQUIRED", "grant_type is required", "grant_type");
      grant = form.refresh_token !== undefined ? "refresh_token" : "password";
    }
    let username: string;
    let refreshToken: string;
    if (grant === "password") {
      stats.passwordGrants++;
      if (!form.username || !form.password) {
        return tokenError(res, 400, "invalid_request", "FIELD_REQUIRED", "username and password are required", form.username ? "password" : "username");
      }
      const check = store.authenticate(form.username, form.password, form.mfa_token);
      if (!check.ok) {
        const description = check.errorCode === "2fa_required" ? "2FA is required" : check.errorCode === "2fa_invalid" ? "2FA code is invalid" : "Invalid credentials";
        return tokenError(res, 401, "unauthorized", check.errorCode, description);
      }
      username = form.username;
      refreshToken = store.newRefreshToken(username);
    } else if (grant === "refresh_token") {
      stats.refreshGrants++;
      if (!form.refresh_token) return tokenError(res, 400, "invalid_request", "FIELD_REQUIRED", "refresh_token is required", "refresh_token");
      const owner = store.refreshOwner(form.refresh_token);
      if (owner === undefined) return tokenError(res, 401, "unauthorized", "invalid_grant", "Refresh token is invalid or revoked");
      username = owner;
      refreshToken = options.rotateRefreshTokens ? store.rotate(form.refresh_token) : form.refresh_token;
    } else if (grant === "authorization_code") {
      stats.codeGrants++;
      for (const field of ["code", "client_id", "code_verifier", "redirect_uri"] as const) {
        if (!form[field]) return tokenError(res, 400, "invalid_request", "FIELD_REQUIRED", `${field} is required`, field);
      }
      const redeemed = store.redeemCode(form.code!, form.client_id!, form.redirect_uri!, form.code_verifier!);
      if (!redeemed) return tokenError(res, 401, "invalid_grant", "invalid_grant", "The code is invalid, expired, used, or does not match the client, redirect URI or verifier");
      username = redeemed.username;
      refreshToken = store.newRefreshToken(username);
      redeemed.bind(refreshToken);
    } else {
      return tokenError(res, 400, "unsupported_grant_type", "FIELD_WRONG_VALUE", "Only password, refresh_token and authorization_code grants are supported", "grant_type");
    }
    const expiresIn = state.lifetimeSeconds();
    const accessToken = store.newAccessToken(username, expiresIn, refreshToken);
    sendJson(res, 200, { access_token: accessToken, token_type: "bearer", refresh_token: refreshToken, expires_in: expiresIn }, { "cache-control": "no-store" });
  }

  async function revoke({ req, res, url }: Ctx): Promise<void> {
    stats.revokeCalls++;
    const type = req.headers["content-type"] ?? "";
    const text = await readBody(req);
    const form = isFormType(type) ? parseForm(text) : {};
    state.record(req, url, form);
    const reads = options.revokeReads ?? "any";
    const candidates = [
      reads === "any" || reads === "query" ? url.searchParams.get("refresh_token") ?? undefined : undefined,
      reads === "any" || reads === "token" ? form.token : undefined,
      reads === "any" || reads === "refresh_token" ? form.refresh_token : undefined,
    ].filter((t): t is string => typeof t === "string" && t !== "");
    if (candidates.length === 0) {
      if (options.revokeMissingOk) return sendEmpty(res, 200);
      return tokenError(res, 400, "invalid_request", "FIELD_REQUIRED", "refresh_token is required", "refresh_token");
    }
    for (const t of new Set(candidates)) store.revoke(t);
    sendEmpty(res, 200);
  }

  function authorize({ req, res, url }: Ctx): void {
    stats.authorizeCalls++;
    const q = url.searchParams;
    const client = state.clients.find((c) => c.clientId === q.get("client_id"));
    if (!client) return sendHtml(res, 400, errorPage("Unknown client", "client_id is not an approved client."));
    const redirectUri = q.get("redirect_uri") ?? "";
    if (!redirectAllowed(client, redirectUri)) {
      return sendHtml(res, 400, errorPage("Redirect URI not registered", "redirect_uri is not registered for this client."));
    }
    const state_ = q.get("state");
    const responseType = q.get("response_type");
    // The implicit flow answers in the fragment, the code flow in the query (RFC 6749 §4.1.2, §4.2.2).
    const back = (fields: Record<string, string>, inQuery = responseType === "code"): string => {
      const target = new URL(redirectUri);
      const p = inQuery ? target.searchParams : new URLSearchParams();
      for (const [k, v] of Object.entries(fields)) p.set(k, v);
      if (state_ !== null) p.set("state", state_);
      return inQuery ? target.href : `${redirectUri}#${p.toString()}`;
    };
    if (responseType !== "token" && responseType !== "code") return sendEmpty(res, 302, { location: back({ error: "unsupported_response_type" }, false) });
    const challenge = q.get("code_challenge");
    if (responseType === "code") {
      if (q.get("code_challenge_method") !== "S256" || !challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
        return sendEmpty(res, 302, { location: back({ error: "invalid_request", error_description: "code_challenge with code_challenge_method=S256 is required" }) });
      }
    }
    const session = cookie(req, "emu_session");
    const username = session ? state.sessions.get(session) : undefined;
    if (!username) return sendEmpty(res, 302, { location: `/login?return_to=${encodeURIComponent(url.pathname + url.search)}` });
    if (responseType === "code") {
      const code = store.newCode({ username, clientId: client.clientId, redirectUri, challenge: challenge! });
      return sendEmpty(res, 302, { location: back({ code }), "cache-control": "no-store" });
    }
    const expiresIn = state.lifetimeSeconds();
    const accessToken = store.newAccessToken(username, expiresIn);
    sendEmpty(res, 302, { location: back({ access_token: accessToken, token_type: "Bearer", expires_in: String(expiresIn) }), "cache-control": "no-store" });
  }

  async function login({ req, res, url }: Ctx): Promise<void> {
    const safeReturn = (value: string | null | undefined): string => (value && value.startsWith(`${API}/oauth_authorize?`) ? value : `${API}/oauth_authorize`);
    if (req.method === "GET") return sendHtml(res, 200, loginPage(safeReturn(url.searchParams.get("return_to"))));
    const form = parseForm(await readBody(req));
    const returnTo = safeReturn(form.return_to);
    const check = store.authenticate(form.username ?? "", form.password ?? "", form.mfa_token || undefined);
    if (!check.ok) {
      const message = check.errorCode === "2fa_required" ? "Enter your two-factor code." : "Wrong e-mail, password or code.";
      return sendHtml(res, 401, loginPage(returnTo, message));
    }
    const session = randomBytes(16).toString("base64url");
    if (state.sessions.size >= 10_000) state.sessions.delete(state.sessions.keys().next().value as string);
    state.sessions.set(session, form.username!);
    sendEmpty(res, 302, { location: returnTo, "set-cookie": `emu_session=${session}; Path=/; HttpOnly; SameSite=Lax` });
  }

  return [
    { method: "POST", path: `${API}/oauth_token`, public: true, handle: token },
    { method: "POST", path: `${API}/revoke_token`, public: true, handle: revoke },
    { method: "GET", path: `${API}/oauth_authorize`, public: true, handle: authorize },
    { method: "GET", path: "/login", public: true, handle: login },
    { method: "POST", path: "/login", public: true, handle: login },
  ];
}

/** Who is calling an API route: a user, or why not (401 body fields). */
export type Caller = { username: string; apiKey: boolean } | { failure: string; scheme: "Bearer" | "ApiKey" };

/**
 * Reads `Authorization: Bearer <token>` or `Authorization: ApiKey <key>`.
 *
 * @example
 * ```ts
 * const who = authenticate(state, req);
 * ```
 */
export function authenticate(state: EmulatorState, req: IncomingMessage): Caller {
  const header = req.headers.authorization ?? "";
  const apiKey = /^ApiKey\s+(\S+)$/i.exec(header)?.[1];
  if (apiKey !== undefined) {
    const owner = state.store.apiKeyOwner(apiKey);
    return owner === undefined ? { failure: "invalid_api_key", scheme: "ApiKey" } : { username: owner, apiKey: true };
  }
  const who = state.store.bearer(/^Bearer\s+(\S+)$/i.exec(header)?.[1]);
  return "failure" in who ? { failure: who.failure, scheme: "Bearer" } : { username: who.username, apiKey: false };
}
