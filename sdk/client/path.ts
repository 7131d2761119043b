import { ConfigError, ProtocolError } from "../errors";

/**
 * Encodes one path segment from a caller's value (an id). Refuses empty values and `.`/`..`, which a
 * URL parser would resolve as "this folder" / "the parent" and so change the route.
 *
 * @example
 * ```ts
 * pathSegment("b3e82cd1", "id"); // "b3e82cd1"
 * pathSegment("..", "id");       // throws ConfigError (field "id")
 * ```
 */
export function pathSegment(value: unknown, field: string): string {
  if (typeof value !== "string" || value === "") throw new ConfigError(`"${field}" must be a non-empty string`, { field });
  if (value === "." || value === "..") throw new ConfigError(`"${field}" must not be "." or ".."`, { field });
  return encodeURIComponent(value);
}

// A template from a server's OpenAPI document is appended to the base URL's origin: it must be an
// absolute path and nothing else. `@` or no leading slash would move the host (`https://api@evil`),
// `//` or `\` an authority, dot segments the base path; `?` and `#` would cut the path.
const SAFE_TEMPLATE = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:%/{}]*$/;

/**
 * True for a path template (`/oapi/v1/devices/{device_id}`) that can only name a path under the
 * origin it is appended to.
 *
 * @example
 * ```ts
 * isSafePathTemplate("/oapi/v1/devices/{device_id}"); // true
 * isSafePathTemplate("@evil.example/steal");          // false
 * ```
 */
export function isSafePathTemplate(template: unknown): template is string {
  if (typeof template !== "string" || template.length > 2048 || !SAFE_TEMPLATE.test(template)) return false;
  return template.split("/").every((s) => s !== "." && s !== ".." && !/^%2e(%2e)?$|^\.%2e$|^%2e\.$/i.test(s));
}

/**
 * Fills a path template's `{name}` placeholders with encoded segments.
 *
 * @example
 * ```ts
 * operationPath("/oapi/v1/devices/{device_id}", { device_id: "b3e82cd1" }); // "/oapi/v1/devices/b3e82cd1"
 * ```
 */
export function operationPath(template: string, params: Record<string, string | number> = {}): string {
  if (!isSafePathTemplate(template)) {
    throw new ProtocolError("An operation's path in the API description is not a plain absolute path", { field: "path" });
  }
  return template.replace(/\{([^}]+)\}/g, (_, name: string) =>
    pathSegment(Object.hasOwn(params, name) ? String(params[name]) : undefined, `path.${name}`),
  );
}

/**
 * Joins an origin-and-base-path prefix and a path, and checks that the result stays on the prefix's
 * origin and under its path: the last guard before a request carries a Bearer token.
 *
 * @example
 * ```ts
 * joinPath("https://api.adguard-dns.io", "/oapi/v1/devices"); // "https://api.adguard-dns.io/oapi/v1/devices"
 * ```
 */
export function joinPath(prefix: string, path: string): string {
  const joined = `${prefix}${path}`;
  let url: URL;
  try {
    url = new URL(joined);
  } catch {
    throw new ConfigError('"path" does not make a valid URL', { field: "path" });
  }
  const base = new URL(prefix);
  if (url.origin !== base.origin || !`${url.pathname}/`.startsWith(`${base.pathname.replace(/\/+$/, "")}/`)) {
    throw new ConfigError('"path" leaves the base URL', { field: "path" });
  }
  return joined;
}
