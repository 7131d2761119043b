import { AuthorizationError, ConfigError, ProtocolError } from "../errors";
import { requireString } from "../options";
import { lazy, zod } from "../lazy";
import { type TokenSet, validate } from "./token-response";
import { tokenBodyZod } from "./token-body";
import { apiUrl, type Clock, resolveBaseUrl, systemClock } from "../http/transport";

/** Arguments of {@link authorizeUrl}. */
export interface AuthorizeUrlOptions {
  baseUrl?: string;
  /** Identifier issued to the approved OAuth client. */
  clientId: string;
  /** Where the service redirects the browser on success; must be registered for the client. */
  redirectUri: string;
  /** Opaque value returned with the redirect; pass a fresh random one and check it on return. */
  state?: string;
  /** Affiliate identifier. */
  aid?: string;
  allowInsecureHttp?: boolean;
}

/**
 * Builds the implicit-grant URL (`response_type=token`) that the user's browser opens.
 *
 * @example
 * ```ts
 * const state = randomBytes(16).toString("base64url");
 * const url = authorizeUrl({ clientId: "my-app", redirectUri: "http://127.0.0.1:8900/callback", state });
 * ```
 */
export function authorizeUrl(options: AuthorizeUrlOptions): string {
  const url = apiUrl(resolveBaseUrl(options.baseUrl, options.allowInsecureHttp), "/oauth_authorize");
  url.searchParams.set("response_type", "token");
  url.searchParams.set("client_id", requireString(options.clientId, "clientId"));
  const redirect = requireString(options.redirectUri, "redirectUri");
  try {
    new URL(redirect);
  } catch {
    throw new ConfigError('"redirectUri" must be an absolute URL', { field: "redirectUri" });
  }
  url.searchParams.set("redirect_uri", redirect);
  if (options.state !== undefined) url.searchParams.set("state", requireString(options.state, "state"));
  if (options.aid !== undefined) url.searchParams.set("aid", requireString(options.aid, "aid"));
  return url.href;
}

/** Options of {@link parseAuthorizeRedirect}. */
export interface ParseAuthorizeOptions {
  /** The state sent with the authorize URL; the redirect must carry exactly this value. */
  state?: string;
  clock?: Clock;
}

/** Result of {@link parseAuthorizeRedirect}: an access token without a refresh token. */
export type AuthorizeResult = TokenSet & { state?: string };

const fragmentSchema = lazy(() => tokenBodyZod().omit({ refresh_token: true }).extend({ state: zod().z.string().optional() }));

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
