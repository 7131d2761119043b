import type { Account } from "../account/account";
import { encodeCursor, paginate } from "../http/cursor";
import { type FieldError, sendInvalid, wrong } from "../http/errors";
import { millis, pageParams, repeated } from "../http/query";
import type { Ctx, Route } from "../http/router";
import { sendEmpty, sendJson } from "../http/util";
import type { EmulatorState } from "../state";
import { MAX_WINDOW_MS, type Query, traffic } from "./traffic";

type Value = { queries: number; blocked: number; companies: number };

const blocked = (q: Query): boolean => q.filtering_info.filtering_status === "REQUEST_BLOCKED";

function value(queries: readonly Query[]): Value {
  return { queries: queries.length, blocked: queries.filter(blocked).length, companies: new Set(queries.map((q) => q.company_id)).size };
}

function groupBy(queries: readonly Query[], key: (q: Query) => string | undefined): Map<string, Query[]> {
  const groups = new Map<string, Query[]>();
  for (const q of queries) {
    const k = key(q);
    if (k === undefined) continue;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(q);
  }
  return groups;
}

/** Sorted by queries (most first), then by key, so pages are stable. */
function ranked(groups: Map<string, Query[]>): [string, Query[]][] {
  return [...groups].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
}

/**
 * The statistics group and the query log, both read from the seeded synthetic traffic of the
 * account's devices (see `traffic.ts`).
 *
 * @example
 * ```ts
 * router.add(statsRoutes(state));
 * ```
 */
export function statsRoutes(state: EmulatorState): Route[] {
  /** Reads the window and the common filters; answers 400 itself and returns undefined on bad input. */
  function window(ctx: Ctx, extra: readonly string[] = []): Query[] | undefined {
    const { url, res, account } = ctx;
    const errors: FieldError[] = [];
    const from = millis(url, "time_from_millis", errors);
    const to = millis(url, "time_to_millis", errors);
    if (!errors.length && from > to) errors.push(wrong("time_from_millis", "Must not be after time_to_millis"));
    if (!errors.length && to - from > MAX_WINDOW_MS) errors.push(wrong("time_from_millis", "The window is at most 31 days"));
    if (errors.length) return void sendInvalid(res, errors);
    const filters: Record<string, string[]> = {};
    for (const f of ["dns_servers", "devices", "countries", ...extra]) filters[f] = repeated(url, f);
    const pick = (list: string[] | undefined, v: string | undefined): boolean => !list || list.length === 0 || (v !== undefined && list.includes(v));
    const extras = state.accounts.extras(account);
    const end = Math.min(to, state.now());
    const seeded = (extras?.queries ?? []).filter((q) => q.time_millis >= from && q.time_millis <= end);
    const synthetic = extras?.syntheticTraffic === false ? [] : traffic(state.trafficSeed, devicesOf(account), from, to, state.now());
    const all = seeded.length === 0 ? synthetic : [...seeded, ...synthetic].sort((a, b) => b.time_millis - a.time_millis);
    return all.filter(
      (q) =>
        pick(filters.dns_servers, q.dns_server_id) &&
        pick(filters.devices, q.device_id) &&
        pick(filters.countries, q.client_country) &&
        pick(filters.companies, q.company_id) &&
        pick(filters.statuses, q.filtering_info.filtering_status) &&
        pick(filters.categories, q.category_type),
    );
  }

  const devicesOf = (account: Account) => [...account.devices.values()].map((d) => ({ id: d.id, dns_server_id: d.dns_server_id }));

  /** A paginated ranking: `{ stats, navigation }`. */
  const rankedStats = (key: (q: Query) => string, row: (k: string, qs: Query[]) => Record<string, unknown>) => (ctx: Ctx) => {
    const page = pageParams(state.cursorKey, ctx.url, ["time_from_millis", "time_to_millis", "dns_servers", "devices", "countries"], 10);
    if (Array.isArray(page)) return sendInvalid(ctx.res, page);
    const queries = window(ctx);
    if (!queries) return;
    const { items, navigation } = paginate(state.cursorKey, page.scope, ranked(groupBy(queries, key)), page.offset, page.limit);
    sendJson(ctx.res, 200, { stats: items.map(([k, qs]) => row(k, qs)), navigation });
  };

  function time(ctx: Ctx): void {
    const queries = window(ctx);
    if (!queries) return;
    const from = Number(ctx.url.searchParams.get("time_from_millis"));
    const to = Number(ctx.url.searchParams.get("time_to_millis"));
    const step = to - from <= 2 * 86_400_000 ? 3_600_000 : 86_400_000;
    const stats = [];
    for (let t = Math.floor(from / step) * step; t <= to; t += step) {
      stats.push({ time_millis: t, value: value(queries.filter((q) => q.time_millis >= t && q.time_millis < t + step)) });
    }
    sendJson(ctx.res, 200, { stats });
  }

  function queryLog(ctx: Ctx): void {
    const filters = ["time_from_millis", "time_to_millis", "dns_servers", "devices", "countries", "companies", "statuses", "categories", "search"];
    const page = pageParams(state.cursorKey, ctx.url, filters, 20);
    if (Array.isArray(page)) return sendInvalid(ctx.res, page);
    const queries = window(ctx, ["companies", "statuses", "categories"]);
    if (!queries) return;
    const search = (ctx.url.searchParams.get("search") ?? "").toLowerCase();
    const visible = queries.filter((q) => q.time_millis > ctx.account.queryLogClearedAt && (search === "" || q.domain.includes(search)));
    const { items, navigation, pageNumber } = paginate(state.cursorKey, page.scope, visible, page.offset, page.limit);
    const pages = [
      ...(navigation.prev ? [{ ...navigation.prev, current: false }] : []),
      { page_cursor: encodeCursor(state.cursorKey, page.scope, page.offset), page_number: pageNumber, current: true },
      ...(navigation.next ? [{ ...navigation.next, current: false }] : []),
    ];
    const protocolFields = state.options.queryLogProtocolFields !== false;
    const shown = items.map(({ parental: _p, dns_proto_type, response_country, ...item }) =>
      protocolFields ? { ...item, ...(dns_proto_type !== undefined ? { dns_proto_type } : {}), ...(response_country !== undefined ? { response_country } : {}) } : item,
    );
    sendJson(ctx.res, 200, { items: shown, pages });
  }

  const S = "/oapi/v1/stats";
  return [
    { method: "GET", path: "/oapi/v1/query_log", handle: queryLog },
    {
      method: "DELETE",
      path: "/oapi/v1/query_log",
      handle: ({ res, account }) => {
        account.queryLogClearedAt = state.now();
        sendEmpty(res, 202);
      },
    },
    { method: "GET", path: `${S}/time`, handle: time },
    { method: "GET", path: `${S}/domains`, handle: rankedStats((q) => q.domain, (domain, qs) => ({ domain, value: value(qs) })) },
    { method: "GET", path: `${S}/companies`, handle: rankedStats((q) => q.company_id, (company_name, qs) => ({ company_name, value: value(qs) })) },
    {
      method: "GET",
      path: `${S}/companies/detailed`,
      handle: rankedStats(
        (q) => q.company_id,
        (company_name, qs) => {
          const top = ranked(groupBy(qs, (q) => q.domain))[0]![0];
          const topBlocked = ranked(groupBy(qs.filter(blocked), (q) => q.domain))[0]?.[0];
          return {
            company_name,
            domains_count: new Set(qs.map((q) => q.domain)).size,
            top_queries_domain: top,
            ...(topBlocked !== undefined ? { top_blocked_domain: topBlocked } : {}),
            value: value(qs),
          };
        },
      ),
    },
    { method: "GET", path: `${S}/countries`, handle: rankedStats((q) => q.client_country, (country, qs) => ({ country, value: value(qs) })) },
    {
      method: "GET",
      path: `${S}/devices`,
      handle: rankedStats((q) => q.device_id, (device_id, qs) => ({ device_id, last_activity_time_millis: qs[0]!.time_millis, value: value(qs) })),
    },
    {
      method: "GET",
      path: `${S}/categories`,
      handle: (ctx) => {
        const queries = window(ctx);
        if (!queries) return;
        sendJson(ctx.res, 200, { stats: ranked(groupBy(queries, (q) => q.category_type)).map(([category_type, qs]) => ({ category_type, queries: qs.length })) });
      },
    },
    {
      method: "GET",
      path: `${S}/blocked_parental_categories`,
      handle: (ctx) => {
        const queries = window(ctx);
        if (!queries) return;
        sendJson(ctx.res, 200, { stats: ranked(groupBy(queries, (q) => q.parental)).map(([category, qs]) => ({ category, blocked: qs.length })) });
      },
    },
  ];
}
