import { inspect } from "node:util";
import { AuthorizationError, ConfigError, ProtocolError } from "../errors";
import { requireString } from "../options";
import { codeChallengeS256, generateCodeVerifier, generateState } from "./pkce";
import { lazy, zod } from "../lazy";
import { type TokenSet, tokenBodySchema, validate } from "./token-response";
import { apiUrl, type Clock, resolveBaseUrl, systemClock } from "../http/transport";

/** Arguments of {@link authorizeUrl}. */
export interface AuthorizeUrlOptions {
  baseUrl?: string;
  /**
   * `token` (the default, for compatibility): the implicit grant, tokens in the redirect's fragment.
   * `code`: Authorization Code with PKCE (S256), the service's recommended flow; see {@link CodeAuthorization}.
   */
  responseType?: "token" | "code";
  /** Identifier issued to the approved OAuth client. */
  clientId: string;
  /** Where the service redirects the browser on success; must be registered for the client. */
  redirectUri: string;
  /**
   * Opaque value returned with the redirect; pass a fresh random one and check it on return. The code
   * flow makes one when none is given.
   */
  state?: string;
  /** Affiliate identifier. */
  aid?: string;
  /** Where the request comes from (the service's `source` parameter); code flow only. */
  source?: string;
  /** Code flow only: your own verifier (43–128 unreserved characters); default a fresh random one. */
  codeVerifier?: string;
  allowInsecureHttp?: boolean;
}

/**
 * The start of an Authorization Code + PKCE login: the URL to open, the `state` to check on return,
 * and the verifier to send with the code to {@link exchangeCode}. The verifier is a secret: it is
 * readable as `codeVerifier` but left out of `util.inspect`, `JSON.stringify` and object spread.
 *
 * @example
 * ```ts
 * const auth = authorizeUrl({ responseType: "code", clientId: "my-app", redirectUri });
 * open(auth.url);
 * const { code } = parseCodeRedirect(callbackUrl, { state: auth.state });
 * const tokens = await exchangeCode({ code, codeVerifier: auth.codeVerifier, clientId: "my-app", redirectUri });
 * ```
 */
export class CodeAuthorization {
  /** The authorize URL (`response_type=code`, `code_challenge`, `code_challenge_method=S256`, `state`). */
  readonly url: string;
  /** The `state` sent; the redirect must carry exactly this value. */
  readonly state: string;
  /** BASE64URL(SHA-256(verifier)), as sent. Not a secret. */
  readonly codeChallenge: string;
  readonly #verifier: string;

  /** @internal Use {@link authorizeUrl} with `responseType: "code"`. */
  constructor(url: string, state: string, codeChallenge: string, verifier: string) {
    this.url = url;
    this.state = state;
    this.codeChallenge = codeChallenge;
    this.#verifier = verifier;
  }

  /** The PKCE code verifier, for {@link exchangeCode}. */
  get codeVerifier(): string {
    return this.#verifier;
  }

  /** Without the verifier: safe for structured logs. */
  toJSON(): { url: string; state: string; codeChallenge: string } {
    return { url: this.url, state: this.state, codeChallenge: this.codeChallenge };
  }

  [inspect.custom](): string {
    return `CodeAuthorization { url: ${JSON.stringify(this.url)}, codeVerifier: [redacted] }`;
  }
}

/**
 * Builds the URL that the user's browser opens. With `responseType: "code"` it generates a PKCE verifier
 * and its S256 challenge (and a `state` when none is given) and returns a {@link CodeAuthorization};
 * otherwise it returns the implicit-grant URL (`response_type=token`) as a string.
 *
 * @example
 * ```ts
 * const auth = authorizeUrl({ responseType: "code", clientId: "my-app", redirectUri: "http://127.0.0.1:8900/callback" });
 * // implicit grant (older integrations):
 * const url = authorizeUrl({ clientId: "my-app", redirectUri: "http://127.0.0.1:8900/callback", state });
 * ```
 */
export function authorizeUrl(options: AuthorizeUrlOptions & { responseType: "code" }): CodeAuthorization;
export function authorizeUrl(options: AuthorizeUrlOptions & { responseType?: "token" }): string;
export function authorizeUrl(options: AuthorizeUrlOptions): string | CodeAuthorization;
export function authorizeUrl(options: AuthorizeUrlOptions): string | CodeAuthorization {
  const responseType = options.responseType ?? "token";
  if (responseType !== "token" && responseType !== "code") {
    throw new ConfigError('"responseType" must be "token" or "code"', { field: "responseType" });
  }
  const url = apiUrl(resolveBaseUrl(options.baseUrl, options.allowInsecureHttp), "/oauth_authorize");
  url.searchParams.set("response_type", responseType);
  url.searchParams.set("client_id", requireString(options.clientId, "clientId"));
  const redirect = requireString(options.redirectUri, "redirectUri");
  try {
    new URL(redirect);
  } catch {
    throw new ConfigError('"redirectUri" must be an absolute URL', { field: "redirectUri" });
  }
  url.searchParams.set("redirect_uri", redirect);
  const state = options.state !== undefined ? requireString(options.state, "state") : responseType === "code" ? generateState() : undefined;
  if (state !== undefined) url.searchParams.set("state", state);
  if (options.aid !== undefined) url.searchParams.set("aid", requireString(options.aid, "aid"));
  if (responseType === "token") {
    for (const field of ["source", "codeVerifier"] as const) {
      if (options[field] !== undefined) throw new ConfigError(`"${field}" applies only to responseType "code"`, { field });
    }
    return url.href;
  }
  if (options.source !== undefined) url.searchParams.set("source", requireString(options.source, "source"));
  const verifier = options.codeVerifier ?? generateCodeVerifier();
  const challenge = codeChallengeS256(verifier);
  url.searchParams.set("code_challenge", challenge);
  url.searchParams.set("code_challenge_method", "S256");
  return new CodeAuthorization(url.href, state!, challenge, verifier);
}

/** Options of {@link parseAuthorizeRedirect}. */
export interface ParseAuthorizeOptions {
  /** The state sent with the authorize URL; the redirect must carry exactly this value. */
  state?: string;
  clock?: Clock;
}

/** Result of {@link parseAuthorizeRedirect}: an access token without a refresh token. */
export type AuthorizeResult = TokenSet & { state?: string };

const fragmentSchema = lazy(() => tokenBodySchema().omit({ refresh_token: true }).extend({ state: zod().z.string().optional() }));

/**
 * Parses the redirect of the implicit grant: a Location header value (or the callback page's URL) whose
 * fragment carries `access_token`, `token_type`, `expires_in` and `state`. A missing or different state
 * (when one was sent) is a {@link ProtocolError} on field `state`; an `error=` fragment is an
 * {@link AuthorizationError}.
 *
 * @example
 * ```ts
 * const tokens = parseAuthorizeRedirect(location, { state });
 * ```
 */
export function parseAuthorizeRedirect(location: string, options: ParseAuthorizeOptions = {}): AuthorizeResult {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new ProtocolError("The redirect location is not an absolute URL", { field: "location" });
  }
  const fragment = new URLSearchParams(url.hash.replace(/^#/, ""));
  const error = fragment.get("error") ?? url.searchParams.get("error");
  const params = Object.fromEntries(fragment);
  if (options.state !== undefined && params.state !== options.state) {
    // Checked before the error: an attacker-made redirect must not even surface its error text.
    throw new ProtocolError(
      params.state === undefined ? 'The redirect carries no "state"' : 'The redirect\'s "state" does not match the one sent',
      { field: "state" },
    );
  }
  if (error !== null) throw new AuthorizationError(error);
  const body = validate(fragmentSchema(), params);
  const clock = options.clock ?? systemClock;
  return {
    accessToken: body.access_token,
    tokenType: "bearer",
    expiresIn: body.expires_in,
    expiresAt: clock.now() + body.expires_in * 1000,
    ...(body.state !== undefined ? { state: body.state } : {}),
  };
}

/** Result of {@link parseCodeRedirect}. `code` is a secret: readable, but not enumerable. */
export interface AuthorizationCode {
  /** The one-time authorization code, for {@link exchangeCode}. */
  readonly code: string;
  state?: string;
}

/** Longest authorization code accepted; a real one is far shorter. */
const MAX_CODE_LENGTH = 2048;

/**
 * Parses the redirect of the Authorization Code flow: the callback URL whose query carries `code` and
 * `state`. A missing or different state (when one was sent) is a {@link ProtocolError} on field `state`,
 * checked first; an `error=` parameter is an {@link AuthorizationError}.
 *
 * @example
 * ```ts
 * const { code } = parseCodeRedirect(callbackUrl, { state: auth.state });
 * ```
 */
export function parseCodeRedirect(location: string, options: { state?: string } = {}): AuthorizationCode {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new ProtocolError("The redirect location is not an absolute URL", { field: "location" });
  }
  const params = url.searchParams;
  const state = params.get("state") ?? undefined;
  if (options.state !== undefined && state !== options.state) {
    throw new ProtocolError(state === undefined ? 'The redirect carries no "state"' : 'The redirect\'s "state" does not match the one sent', {
      field: "state",
    });
  }
  const error = params.get("error");
  if (error !== null) throw new AuthorizationError(error);
  const code = params.get("code");
  if (code === null || code.length === 0 || code.length > MAX_CODE_LENGTH) {
    throw new ProtocolError('"code" must be a non-empty string', { field: "code" });
  }
  const out = state !== undefined ? { state } : {};
  Object.defineProperty(out, "code", { value: code, enumerable: false });
  return out as AuthorizationCode;
}
