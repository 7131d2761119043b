import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type AuthorizeResult, authorizeUrl, parseAuthorizeRedirect } from "../sdk/auth/authorize";
import { DnsAccountError, ProtocolError, TransportError } from "../sdk/errors";
import { openBrowser } from "./open-browser";

/** Options of {@link browserLogin}. */
export interface BrowserLoginOptions {
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
}

// The callback page: the token is in the fragment, which never reaches a server; the page posts it back
// to this listener (same origin) and clears it from the address bar.
const CALLBACK_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>dns-account login</title></head>
<body><p id="status">Completing login…</p><script>
const url = location.href;
history.replaceState(null, "", location.pathname);
fetch("/complete", { method: "POST", headers: { "content-type": "text/plain" }, body: url })
  .then((r) => r.text().then((t) => { document.getElementById("status").textContent = t; }))
  .catch(() => { document.getElementById("status").textContent = "Login failed: see the terminal."; });
</script></body></html>`;

class TooLarge extends Error {}

async function body(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) {
    text += (chunk as Buffer).toString("utf8");
    if (text.length > 64 * 1024) throw new TooLarge();
  }
  return text;
}

/**
 * The implicit grant from a terminal: listens on 127.0.0.1, sends the user's browser to the authorize URL
 * with a fresh random `state` and a `redirect_uri` pointing at the listener, and resolves with the token
 * from the redirect once the state matches. A redirect with a wrong or missing state is ignored (any
 * local process could post one): the login keeps waiting for its own, until `timeoutMs`.
 *
 * @example
 * ```ts
 * const tokens = await browserLogin({ clientId: "my-app", onUrl: (u) => console.error(`Open ${u}`) });
 * ```
 */
export async function browserLogin(options: BrowserLoginOptions): Promise<AuthorizeResult> {
  const state = randomBytes(16).toString("base64url");
  let settle!: { resolve: (r: AuthorizeResult) => void; reject: (e: unknown) => void };
  const done = new Promise<AuthorizeResult>((resolve, reject) => (settle = { resolve, reject }));
  let origin = "";
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/callback") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" });
      return void res.end(CALLBACK_PAGE);
    }
    if (req.method === "POST" && path === "/complete") {
      // Only our own callback page may complete the login (no other web page can post here).
      if (req.headers.origin !== origin) {
        res.writeHead(403, { "content-type": "text/plain" });
        return void res.end("Forbidden");
      }
      body(req)
        .then((location) => {
          let result: AuthorizeResult;
          try {
            result = parseAuthorizeRedirect(location, { state });
          } catch (err) {
            // A wrong or missing state is not this login's redirect: any local process can post here,
            // and must not be able to end the login. Only a redirect carrying our state settles it.
            if (err instanceof ProtocolError && (err.field === "state" || err.field === "location")) {
              res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
              return void res.end("Ignored: this redirect does not belong to the login in progress. Still waiting.");
            }
            throw err;
          }
          res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
          res.end("Logged in. You can close this tab.");
          settle.resolve(result);
        })
        .catch((err: unknown) => {
          if (!(err instanceof DnsAccountError)) {
            // Too large, or the connection broke mid-body: not a redirect at all, so not an answer.
            res.writeHead(err instanceof TooLarge ? 413 : 400, { "content-type": "text/plain; charset=utf-8" });
            return void res.end("Ignored: not a redirect.");
          }
          res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
          res.end(`Login failed: ${err.message}`);
          settle.reject(err);
        });
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.redirectPort ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  const url = authorizeUrl({
    clientId: options.clientId,
    redirectUri: `${origin}/callback`,
    state,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  });
  options.onUrl(url);
  const cleanup = options.open !== false ? openBrowser(url) : () => undefined;
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  const timer = setTimeout(() => settle.reject(new TransportError("timeout", `No login completed within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  try {
    return await done;
  } finally {
    cleanup();
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  }
}
