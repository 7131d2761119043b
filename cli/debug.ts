/**
 * `--debug` and `DNS_ACCOUNT_DEBUG=1`: a trace of each HTTP exchange on stderr — method, origin and path,
 * status, time — from undici's diagnostics channels, so it covers every request whatever the dispatcher.
 * Nothing secret is printed: no header values, no bodies, and every query value is replaced (a revoke
 * that falls back to the query carries the refresh token there).
 */
import diagnostics from "node:diagnostics_channel";

/** Query parameters whose values are never a secret (ranges, limits, filters): shown as they are. */
const SHOWN = new Set(["time_from_millis", "time_to_millis", "limit", "devices", "dns_servers", "statuses", "categories", "countries", "companies"]);

/**
 * The request's path with every query value redacted but those of {@link SHOWN}:
 * `/oapi/v1/revoke_token?refresh_token=<redacted>`.
 */
export function redactedPath(path: string): string {
  const q = path.indexOf("?");
  if (q < 0) return path;
  const keys = path
    .slice(q + 1)
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const key = decodeURIComponentSafe(pair.split("=")[0]!).replace(/[^\w.\-[\]]/g, "_");
      return `${key}=${SHOWN.has(key) ? pair.slice(pair.indexOf("=") + 1).replace(/[^\w.\-%]/g, "_") : "<redacted>"}`;
    });
  return `${path.slice(0, q)}?${keys.join("&")}`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

interface TracedRequest {
  method?: string;
  origin?: string | URL;
  path?: string;
}

let on = false;

/**
 * Starts the trace (once per process).
 *
 * @example
 * ```ts
 * if (v.debug || process.env.DNS_ACCOUNT_DEBUG === "1") enableDebug();
 * ```
 */
export function enableDebug(write: (line: string) => void = (line) => void process.stderr.write(`${line}\n`)): void {
  if (on) return;
  on = true;
  const started = new WeakMap<object, number>();
  const label = (r: TracedRequest) => `${r.method ?? "?"} ${String(r.origin ?? "")}${redactedPath(r.path ?? "")}`;
  diagnostics.subscribe("undici:request:create", (m) => {
    const { request } = m as { request: TracedRequest };
    started.set(request, performance.now());
    write(`debug: → ${label(request)}`);
  });
  diagnostics.subscribe("undici:request:headers", (m) => {
    const { request, response } = m as { request: TracedRequest; response: { statusCode: number } };
    const t = started.get(request);
    write(`debug: ← ${response.statusCode} ${label(request)}${t !== undefined ? ` (${Math.round(performance.now() - t)} ms)` : ""}`);
  });
  diagnostics.subscribe("undici:request:error", (m) => {
    const { request, error } = m as { request: TracedRequest; error: { code?: string; name?: string } };
    write(`debug: ✗ ${label(request)}: ${error.code ?? error.name ?? "error"}`);
  });
}
