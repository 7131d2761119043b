import { DnsAccountError, HttpError, ProtocolError, QuotaError } from "../../errors";
import type { Validator } from "../../schema";
import type { ApiCore, RequestOptions } from "../request";
import { pathSegment } from "../path";

export type { ApiCore } from "../request";

/** One encoded path segment; empty ids, `.` and `..` are a ConfigError naming the field (see ../path.ts). */
export { pathSegment as segment } from "../path";

/**
 * Runs a create that counts against an account quota. A 429 that is not rate limiting (no Retry-After,
 * no `TOO_MANY_REQUESTS`) becomes a {@link QuotaError} naming the quota's key in `account/limits`.
 *
 * @example
 * ```ts
 * const device = await withQuota("devices", core.request({ method: "POST", path: "/devices", body }));
 * ```
 */
export async function withQuota<T>(limit: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof HttpError && err.status === 429 && err.retryAfterMs === undefined && err.server?.errorCode !== "TOO_MANY_REQUESTS") {
      throw new QuotaError(limit, { ...(err.server ? { server: err.server } : {}), cause: err });
    }
    throw err;
  }
}

/** Pages one listing may span at most: a server that never stops sending cursors cannot loop forever (e.g. `MAX_PAGES` is 10,000). */
export const MAX_PAGES = 10_000;

/**
 * What one listing may hold, so a hostile or broken server cannot exhaust memory: `list()` gathers at
 * most `items` objects and `bytes` of response bodies in all (use `pages()` to stream a larger listing),
 * and no cursor longer than `cursorLength` characters is kept or sent back (cursors of the service are
 * short opaque tokens). Going past one is a `ProtocolError` whose `field` names the limit.
 *
 * @example
 * ```ts
 * if (err instanceof ProtocolError && err.field === "list.items") console.log(`more than ${LIST_LIMITS.items} objects: page through them`);
 * ```
 */
export const LIST_LIMITS = { items: 100_000, bytes: 64 * 1024 * 1024, cursorLength: 2048 } as const;

/** How many response bytes a listing may still read; the client core caps each page at `remaining` and counts it down. */
export interface ByteBudget {
  remaining: number;
}

/**
 * Follows cursors: `fetch(undefined)` for the first page, then `fetch(next(page))` until `next` gives
 * nothing. A cursor seen twice is a {@link ProtocolError} (a loop), and so is going past {@link MAX_PAGES}.
 *
 * @example
 * ```ts
 * for await (const page of followCursors((c) => fetchPage(c), (p) => p.navigation.next?.page_cursor)) use(page);
 * ```
 */
export async function* followCursors<P>(
  fetch: (cursor: string | undefined) => Promise<P>,
  next: (page: P) => string | undefined,
  field = "navigation.next",
): AsyncGenerator<P, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let n = 0; ; n++) {
    if (n >= MAX_PAGES) throw new ProtocolError(`The listing goes on past ${MAX_PAGES} pages`, { field: "navigation" });
    const page = await fetch(cursor);
    yield page;
    cursor = next(page);
    if (cursor === undefined || cursor === "") return;
    // Checked before it is kept or sent back: a cursor of megabytes would be held and resent on every page.
    if (cursor.length > LIST_LIMITS.cursorLength) {
      throw new ProtocolError(`The server sent a page cursor longer than ${LIST_LIMITS.cursorLength} characters`, { field: "list.cursorLength" });
    }
    if (seen.has(cursor)) throw new ProtocolError("The server sent a page cursor it had sent before", { field });
    seen.add(cursor);
  }
}

/** True for the 404 of an endpoint that this server does not have (the v2 lists on an older server), e.g. `isNotFound(err)`. */
export function isNotFound(err: unknown): boolean {
  return err instanceof DnsAccountError && err.status === 404;
}

/**
 * Collects every item of every page, at most {@link LIST_LIMITS}`.items`; `pages(budget)` reads the pages
 * within a byte budget of {@link LIST_LIMITS}`.bytes`. E.g. `await collect((b) => pages(filter, b), (p) => p.items)`.
 */
export async function collect<P, I>(pages: (budget: ByteBudget) => AsyncIterable<P>, items: (page: P) => readonly I[]): Promise<I[]> {
  const out: I[] = [];
  const budget: ByteBudget = { remaining: LIST_LIMITS.bytes };
  try {
    for await (const page of pages(budget)) {
      const more = items(page);
      if (out.length + more.length > LIST_LIMITS.items) {
        throw new ProtocolError(`The listing holds more than ${LIST_LIMITS.items} objects, the most list() gathers: read it with pages()`, { field: "list.items" });
      }
      for (const item of more) out.push(item);
    }
  } catch (err) {
    // The core capped the page at what the budget had left: say which limit it was.
    if (err instanceof ProtocolError && err.field === "body" && budget.remaining < LIST_LIMITS.bytes) {
      throw new ProtocolError(`The listing is larger than ${LIST_LIMITS.bytes / (1024 * 1024)} MiB, the most list() gathers: read it with pages()`, { field: "list.bytes" });
    }
    throw err;
  }
  return out;
}

/** A v2 listing page: its items and the cursors around it. */
export interface ListPage<T> {
  items: T[];
  navigation: { next?: { page_cursor?: string } | undefined; [field: string]: unknown };
}

/**
 * The pages of a v2 listing (`GET /oapi/v2/<what>` with `filter` and cursors). A server without v2
 * (404 on the first page) gets one page from `v1()` instead, which filters the way v2 would.
 *
 * @example
 * ```ts
 * const pages = listPages<DevicesResponse>(core, "/oapi/v2/devices", filter, devicesResponseSchema, async () => v1Page);
 * ```
 */
export async function* listPages<P extends ListPage<unknown>>(
  core: ApiCore,
  v2Path: string,
  filter: object,
  schema: () => Validator<P>,
  v1: (budget: ByteBudget | undefined) => Promise<P>,
  budget?: ByteBudget,
): AsyncGenerator<P, void, undefined> {
  const v2 = followCursors<P>(
    (cursor) =>
      core.request({ path: v2Path, query: { ...filter, ...(cursor ? { cursor } : {}) } as NonNullable<RequestOptions<P>["query"]>, schema: schema(), ...(budget ? { budget } : {}) }),
    (page) => page.navigation.next?.page_cursor,
  );
  let first: IteratorResult<P, void>;
  try {
    first = await v2.next();
  } catch (err) {
    if (!isNotFound(err)) throw err;
    yield await v1(budget);
    return;
  }
  if (first.done) return;
  yield first.value;
  yield* v2;
}

/** The calls every object of the account has: get, create (counted against a quota), update, remove, settings. */
export interface ObjectCalls<T, C, U, S, SU> {
  get(id: string): Promise<T>;
  create(body: C): Promise<T>;
  update(id: string, body: U): Promise<void>;
  remove(id: string): Promise<void>;
  getSettings(id: string): Promise<S>;
  updateSettings(id: string, body: SU): Promise<void>;
}

/**
 * {@link ObjectCalls} for the objects under `base` (`/devices`, `/dns_servers`), with `path(id, rest)`
 * for the group's other calls.
 *
 * @example
 * ```ts
 * const { path, calls } = objectCalls(core, "/devices", "devices", deviceSchema, deviceSettingsSchema);
 * ```
 */
export function objectCalls<T, C, U, S, SU>(
  core: ApiCore,
  base: string,
  limit: string,
  schema: () => Validator<T>,
  settingsSchema: () => Validator<S>,
): { path: (id: string, rest?: string) => string; calls: ObjectCalls<T, C, U, S, SU> } {
  const path = (id: string, rest = ""): string => `${base}/${pathSegment(id, "id")}${rest}`;
  return {
    path,
    calls: {
      get: async (id) => core.request({ path: path(id), schema: schema() }),
      create: (body) => withQuota(limit, core.request({ method: "POST", path: base, body, schema: schema() })),
      update: async (id, body) => {
        await core.request({ method: "PUT", path: path(id), body });
      },
      remove: async (id) => {
        await core.request({ method: "DELETE", path: path(id) });
      },
      getSettings: async (id) => core.request({ path: path(id, "/settings"), schema: settingsSchema() }),
      updateSettings: async (id, body) => {
        await core.request({ method: "PUT", path: path(id, "/settings"), body });
      },
    },
  };
}
