import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { authorizeUrl, type CodeAuthorization, parseCodeRedirect } from "../sdk/auth/authorize";
import { exchangeCode } from "../sdk/auth/grants";
import type { TokenSet } from "../sdk/auth/token-response";
import { DnsAccountError, ProtocolError, TransportError } from "../sdk/errors";
import { openBrowser } from "./open-browser";

/** Options of {@link codeLogin}. */
export interface CodeLoginOptions {
  baseUrl?: string;
  clientId: string;
  /** Port of the loopback listener; default 0 (any free port). */
  redirectPort?: number;
  /** Try to open the system browser (the URL is always printed too). Default true. */
  open?: boolean;
  /** Receives the authorize URL to show the user. */
  onUrl: (url: string) => void;
  /** Give up after this many ms; default 5 minutes. */
  timeoutMs?: number;
  allowInsecureHttp?: boolean;
}

const page = (text: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>dns-account login</title></head><body><p id="status">${text}</p></body></html>`;

/**
 * Authorization Code + PKCE from a terminal: listens on 127.0.0.1 only, sends the browser to the
 * authorize URL (fresh verifier, S256 challenge and `state`), takes the code from the redirect to the
 * listener, and exchanges it (with the verifier) for tokens, refresh token included.
 *
 * A callback with a missing or different `state` is answered 400 and ignored: a page that guesses the
 * port cannot end (or hijack) the login; the real redirect still completes it. An `error=` with the right
 * state ends the login with an `AuthorizationError`.
 *
 * @example
 * ```ts
 * const tokens = await codeLogin({ clientId: "dns-account-cli", onUrl: (u) => console.error(`Open ${u}`) });
 * ```
 */
export async function codeLogin(options: CodeLoginOptions): Promise<TokenSet> {
  let settle!: { resolve: (r: TokenSet) => void; reject: (e: unknown) => void };
  const done = new Promise<TokenSet>((resolve, reject) => (settle = { resolve, reject }));
  let host = "";
  let redirectUri = "";
  let auth: CodeAuthorization | undefined;
  let busy = false;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const reply = (status: number, text: string): void => {
      res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" });
      res.end(page(text));
    };
    // Only a request addressed to this listener by its loopback name (no DNS-rebound host) may complete it.
    if (req.method !== "GET" || url.pathname !== "/callback" || req.headers.host !== host || !auth) return reply(404, "Not found.");
    let code: string;
    try {
      code = parseCodeRedirect(`${redirectUri}${url.search}`, { state: auth.state }).code;
    } catch (err) {
      if (err instanceof ProtocolError && (err.field === "state" || err.field === "code")) return reply(400, "This is not the login this terminal started.");
      reply(400, "Login failed: see the terminal.");
      return settle.reject(err);
    }
    if (busy) return reply(409, "Login already in progress.");
    busy = true;
    exchangeCode({
      code,
      codeVerifier: auth.codeVerifier,
      clientId: options.clientId,
      redirectUri,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(options.allowInsecureHttp !== undefined ? { allowInsecureHttp: options.allowInsecureHttp } : {}),
    }).then(
      (tokens) => {
        reply(200, "Logged in. You can close this tab.");
        settle.resolve(tokens);
      },
      (err: unknown) => {
        reply(400, `Login failed: ${err instanceof DnsAccountError ? err.message : "see the terminal"}`);
        settle.reject(err);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.redirectPort ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  host = `127.0.0.1:${port}`;
  redirectUri = `http://${host}/callback`;
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  const timer = setTimeout(() => settle.reject(new TransportError("timeout", `No login completed within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  let cleanup = (): void => undefined;
  try {
    auth = authorizeUrl({
      responseType: "code",
      clientId: options.clientId,
      redirectUri,
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(options.allowInsecureHttp !== undefined ? { allowInsecureHttp: options.allowInsecureHttp } : {}),
    });
    options.onUrl(auth.url);
    if (options.open !== false) cleanup = openBrowser(auth.url);
    return await done;
  } finally {
    cleanup();
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  }
}
