/** `dns-account logs`: the query log over a time range, as a table or JSON, following the v2 cursors. */
import { type Command, type cliClient, insecureOption, json, note, out, profileOption, UsageError, withClient } from "../command";
import { limitOf, rangeOptions, shortTime, table, timeRange } from "../report";

/** A device given by id or by name (exactly one device of that name). */
export async function deviceIds(client: Awaited<ReturnType<typeof cliClient>>, wanted: string): Promise<{ ids: string[]; names: Map<string, string> }> {
  const list = await client.devices.list();
  const names = new Map(list.map((d) => [d.id, d.name]));
  if (names.has(wanted)) return { ids: [wanted], names };
  const byName = list.filter((d) => d.name === wanted);
  if (byName.length === 0) throw new UsageError(`--device: no device has that id or name (dns-account devices lists them)`);
  if (byName.length > 1) throw new UsageError(`--device: ${byName.length} devices have that name: give the id (dns-account devices lists them)`);
  return { ids: [byName[0]!.id], names };
}

/**
 * How many pages `--limit` may take: ten times the pages the limit needs at the asked page size, so a
 * server that caps its pages below the size asked still gives the whole result, while one that sends a
 * query or two a page cannot make a small limit cost thousands of requests (e.g. `pageBudget(1500, 1000)`
 * is 20, `pageBudget(50, 50)` is 10).
 */
export function pageBudget(limit: number, pageSize: number): number {
  return 10 * Math.ceil(limit / pageSize);
}

export const logs: Command = {
  summary: "Show the query log: time range, device, blocked only, domain search; table or --json",
  usage: `Usage: dns-account logs [--since 1h | --from T [--to T]] [--device NAME|ID] [--blocked]
                        [--search DOMAIN] [--limit N] [--json] [--profile P] [--allow-insecure-http]

Prints the newest queries first (credentials as for dns-account token):
  --since D         the last D (45s, 30m, 1h, 7d, 2w; default 1h)
  --from/--to T     an ISO-8601 time or epoch milliseconds (--to defaults to now; 31 days at most)
  --device X        one device, by id or by name (dns-account devices lists them)
  --blocked         only blocked queries
  --search DOMAIN   only queries for domains containing DOMAIN
  --limit N         at most N queries (default 50, up to 100000), read page by page with the v2 cursors
                    (pages of up to 1000; an empty page ends the log; at most ten times the pages N
                    needs); progress goes to stderr while it pages
  --json            the service's query-log items, as one JSON array`,
  options: {
    ...profileOption,
    ...insecureOption,
    ...rangeOptions,
    device: { type: "string" },
    blocked: { type: "boolean" },
    search: { type: "string" },
    limit: { type: "string" },
    json: { type: "boolean" },
  },
  async run(v) {
    const range = timeRange(v, Date.now(), "1h");
    const limit = limitOf(v, 50, 100_000);
    await withClient(v, async (client) => {
      const devices = v.device !== undefined ? await deviceIds(client, v.device as string) : undefined;
      const names = devices?.names ?? new Map((await client.devices.list()).map((d) => [d.id, d.name]));
      const params = {
        time_from_millis: range.from,
        time_to_millis: range.to,
        limit: Math.min(limit, 1000),
        ...(devices ? { devices: devices.ids } : {}),
        ...(v.blocked ? { statuses: ["REQUEST_BLOCKED", "RESPONSE_BLOCKED"] as ("REQUEST_BLOCKED" | "RESPONSE_BLOCKED")[] } : {}),
        ...(v.search !== undefined ? { search: v.search as string } : {}),
      };
      const items: Awaited<ReturnType<typeof client.queryLog.get>>["items"] = [];
      const budget = pageBudget(limit, params.limit);
      let pages = 0;
      for await (const page of client.queryLog.pages(params)) {
        items.push(...page.items.slice(0, limit - items.length));
        pages++;
        if (pages > 1) note(`logs: ${items.length} queries read (page ${pages})…`);
        // An empty page ends the log, whatever cursor comes with it: a server that keeps sending empty
        // pages with fresh cursors would otherwise be followed for thousands of requests.
        if (items.length >= limit || page.items.length === 0) break;
        if (pages >= budget) {
          note(`logs: stopped after ${pages} pages with ${items.length} of ${limit} queries: the server's pages hold far fewer than the ${params.limit} asked`);
          break;
        }
      }
      if (v.json) return void out(json(items, 2));
      if (items.length === 0) return void note("No queries in that range.");
      out(
        table([
          ["TIME (UTC)", "DEVICE", "STATUS", "TYPE", "DOMAIN"],
          ...items.map((q) => [
            shortTime(q.time_millis),
            names.get(q.device_id) ?? q.device_id,
            String(q.filtering_info?.filtering_status ?? ""),
            q.dns_request_type ?? "",
            q.domain,
          ]),
        ]),
      );
    });
  },
};
