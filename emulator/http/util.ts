import type { IncomingMessage, ServerResponse } from "node:http";

/** Largest request body the emulator reads. */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/** Thrown by {@link readBody} when a request body is larger than {@link MAX_REQUEST_BYTES}. */
export class BodyTooLarge extends Error {}

/** Reads a whole request body as text (events, not an async iterator: this is the token endpoint's hot path). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        req.removeAllListeners("data");
        req.resume();
        return reject(new BodyTooLarge());
      }
      if (first === undefined) first = chunk;
      else (chunks ??= [first]).push(chunk);
    });
    req.once("end", () => resolve(chunks ? Buffer.concat(chunks).toString("utf8") : first ? first.toString("utf8") : ""));
    req.once("error", reject);
  });
}

/**
 * True when a Content-Type header names a form (`application/x-www-form-urlencoded`), compared as HTTP
 * compares media types: without parameters, whatever the case (e.g. `isFormType("Application/X-WWW-Form-URLEncoded; charset=UTF-8")`).
 */
export function isFormType(type: string | undefined): boolean {
  return (type ?? "").split(";")[0]!.trim().toLowerCase() === "application/x-www-form-urlencoded";
}

/** Parses a form-urlencoded body into a plain record (last value wins). */
export function parseForm(text: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(text));
}

/** Writes a JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Writes an empty response. */
export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-length": 0, ...headers });
  res.end();
}

/** Writes an HTML page. */
export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-length": Buffer.byteLength(html),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(html);
}

/** Escapes text for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Reads one cookie from a request. */
export function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}
