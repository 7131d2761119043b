import { type operations, type QueryLogResponse, queryLogResponseSchema } from "../model";
import { type ApiCore, followCursors } from "./shared";

/**
 * Query of `GET /query_log`: the time window (epoch ms) is required, filters are optional, e.g.
 * `{ time_from_millis: Date.now() - 3_600_000, time_to_millis: Date.now(), statuses: ["REQUEST_BLOCKED"] }`.
 */
export type QueryLogParams = operations["getQueryLog"]["parameters"]["query"];

/**
 * The DNS query log: one page, every page in turn, or clear it.
 *
 * @example
 * ```ts
 * const now = Date.now();
 * for await (const page of client.queryLog.pages({ time_from_millis: now - 3_600_000, time_to_millis: now })) {
 *   for (const item of page.items) console.log(item.domain);
 * }
 * ```
 */
export interface QueryLogApi {
  /** One page of the log. */
  get(params: QueryLogParams): Promise<QueryLogResponse>;
  /** Every page from `params.cursor` (or the first) on, following the page after the current one. */
  pages(params: QueryLogParams): AsyncGenerator<QueryLogResponse, void, undefined>;
  /** Clears the whole log (`DELETE /query_log`). */
  clear(): Promise<void>;
}

/** Builds the query log group on a client core, e.g. `queryLogApi(client).clear()`. */
export function queryLogApi(core: ApiCore): QueryLogApi {
  const get = (params: QueryLogParams): Promise<QueryLogResponse> => core.request({ path: "/query_log", query: params, schema: queryLogResponseSchema() });
  return {
    get,
    pages: (params) => {
      const start = params.cursor;
      return followCursors<QueryLogResponse>(
        (cursor) => {
          const next = cursor ?? start;
          return get({ ...params, ...(next !== undefined ? { cursor: next } : {}) });
        },
        nextPageCursor,
        "pages",
      );
    },
    clear: async () => {
      await core.request({ method: "DELETE", path: "/query_log" });
    },
  };
}

/** The cursor of the lowest-numbered page after the current one, if any. */
function nextPageCursor(page: QueryLogResponse): string | undefined {
  const current = page.pages.find((p) => p.current);
  if (!current) return undefined;
  let next: (typeof page.pages)[number] | undefined;
  for (const p of page.pages) if (p.page_number > current.page_number && (!next || p.page_number < next.page_number)) next = p;
  return next?.page_cursor;
}
