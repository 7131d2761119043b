import type { IncomingMessage, ServerResponse } from "node:http";
import type { Account } from "../account/account";

/** What a route handler gets. `account` is set for authenticated routes only. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  /** The parsed JSON body of an authenticated POST/PUT (undefined otherwise). */
  body: unknown;
  account: Account;
}

/** One route: a method, a path template (`/oapi/v1/devices/{device_id}`) and a handler. */
export interface Route {
  method: string;
  path: string;
  /** Public routes (token, authorize, OpenAPI) need no credential and get no parsed body. */
  public?: boolean;
  handle(ctx: Ctx): void | Promise<void>;
}

interface Compiled {
  route: Route;
  regex: RegExp;
  names: string[];
}

/** Result of {@link Router.match}. */
export type Match = { route: Route; params: Record<string, string> } | { allowed: string[]; public: boolean } | undefined;

/**
 * A tiny method + path-template router; a known path with another method gives the allowed methods
 * (for 405), an unknown path gives undefined.
 *
 * @example
 * ```ts
 * const r = new Router();
 * r.add([{ method: "GET", path: "/a/{id}", handle: ({ res }) => res.end() }]);
 * r.match("GET", "/a/1"); // { route, params: { id: "1" } }
 * ```
 */
export class Router {
  private readonly exact = new Map<string, Route>();
  private readonly templated: Compiled[] = [];
  private readonly paths = new Map<string, string[]>();
  private readonly publicPaths = new Set<string>();

  add(routes: readonly Route[]): this {
    for (const route of routes) {
      const names: string[] = [];
      if (route.path.includes("{")) {
        const source = route.path.replace(/[.]/g, "\\.").replace(/\{([^}]+)\}/g, (_, n: string) => (names.push(n), "([^/]+)"));
        this.templated.push({ route, regex: new RegExp(`^${source}$`), names });
      } else {
        this.exact.set(`${route.method} ${route.path}`, route);
      }
      const methods = this.paths.get(route.path) ?? [];
      methods.push(route.method);
      if (route.public) this.publicPaths.add(route.path);
      this.paths.set(route.path, methods);
    }
    return this;
  }

  match(method: string, pathname: string): Match {
    const hit = this.exact.get(`${method} ${pathname}`);
    if (hit) return { route: hit, params: {} };
    let allowed: string[] | undefined = this.paths.get(pathname);
    for (const c of this.templated) {
      const m = c.regex.exec(pathname);
      if (!m) continue;
      if (c.route.method !== method) {
        allowed = [...(allowed ?? []), c.route.method];
        continue;
      }
      const params: Record<string, string> = {};
      try {
        c.names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1]!)));
      } catch {
        return undefined;
      }
      return { route: c.route, params };
    }
    return allowed ? { allowed, public: this.publicPaths.has(pathname) } : undefined;
  }
}
