import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the fake API saw. */
export interface _SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A reply: status, JSON (or raw bytes with a content type), headers. */
export interface _FakeReply {
  status?: number;
  json?: unknown;
  bytes?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

/**
 * A loopback HTTP server answering each request with `route(req)` (404 when it returns undefined), for
 * client behaviours the emulator does not stage (loops of cursors, odd servers). Closes in `after`.
 */
export function _useFakeApi(route: (req: _SeenRequest) => _FakeReply | undefined): { url: () => string; seen: _SeenRequest[] } {
  const seen: _SeenRequest[] = [];
  let url = "";
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const u = new URL(req.url ?? "/", "http://127.0.0.1");
      const seenReq = { method: req.method ?? "GET", path: u.pathname, query: u.searchParams, headers: req.headers, body };
      seen.push(seenReq);
      const reply = route(seenReq) ?? { status: 404, json: { error_code: "NOT_FOUND" } };
      const payload = reply.bytes ?? (reply.json === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(reply.json)));
      res.writeHead(reply.status ?? 200, {
        "content-type": reply.contentType ?? "application/json",
        "content-length": String(payload.length),
        ...reply.headers,
      });
      res.end(payload);
    });
  });
  before(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    seen.length = 0;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { url: () => url, seen };
}

/** Token credentials that a session uses as they are, with no token call (valid for an hour of `now`). */
export function _staticTokens(accessToken = "fake-access-token", now = Date.now()) {
  return { accessToken, refreshToken: "fake-refresh-token", tokenType: "bearer" as const, expiresIn: 3600, expiresAt: now + 3_600_000 };
}
