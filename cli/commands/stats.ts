/** `dns-account stats`: top domains, devices, countries or companies over a range; table or --json. */
import { type Command, insecureOption, json, out, profileOption, UsageError, withClient } from "../command";
import { limitOf, rangeOptions, table, timeRange } from "../report";

const BY = ["domains", "devices", "countries", "companies"] as const;
type By = (typeof BY)[number];

export const stats: Command = {
  summary: "Show statistics: top (blocked) domains, queries by device, country or company; table or --json",
  usage: `Usage: dns-account stats [--by domains|devices|countries|companies] [--blocked]
                         [--since 24h | --from T [--to T]] [--limit N] [--json] [--profile P]

Ranks the queries of a range (credentials as for dns-account token):
  --by X        what to rank: domains (default), devices, countries or companies
  --blocked     rank by blocked queries (top blocked domains, say), showing only those with any
  --since D     the last D (default 24h); or --from/--to T (ISO-8601 or epoch milliseconds)
  --limit N     the first N rows (default 10, up to 1000)
  --json        the rows as JSON: { name, queries, blocked, companies }; by devices also { id }

By devices, each row shows the device's id next to its name: two devices may share a name.`,
  options: {
    ...profileOption,
    ...insecureOption,
    by: { type: "string" },
    blocked: { type: "boolean" },
    ...rangeOptions,
    limit: { type: "string" },
    json: { type: "boolean" },
  },
  async run(v) {
    const by = ((v.by as string | undefined) ?? "domains") as By;
    if (!BY.includes(by)) throw new UsageError(`--by must be one of ${BY.join(", ")}`);
    const range = timeRange(v, Date.now(), "24h");
    const limit = limitOf(v, 10, 1000);
    await withClient(v, async (client) => {
      // Ranking by blocked reads the service's largest page and re-ranks it.
      const params = { time_from_millis: range.from, time_to_millis: range.to, limit: v.blocked ? 1000 : limit };
      type Row = { name: string; id?: string; queries: number; blocked: number; companies: number };
      let rows: Row[];
      const value = (s: { value: { queries: number; blocked: number; companies: number } }) => ({ queries: s.value.queries, blocked: s.value.blocked, companies: s.value.companies });
      if (by === "domains") rows = (await client.stats.domains(params)).stats.map((s) => ({ name: s.domain, ...value(s) }));
      else if (by === "countries") rows = (await client.stats.countries(params)).stats.map((s) => ({ name: s.country, ...value(s) }));
      else if (by === "companies") rows = (await client.stats.companies(params)).stats.map((s) => ({ name: s.company_name, ...value(s) }));
      else {
        const names = new Map((await client.devices.list()).map((d) => [d.id, d.name]));
        rows = (await client.stats.devices(params)).stats.map((s) => ({ name: names.get(s.device_id) ?? s.device_id, id: s.device_id, ...value(s) }));
      }
      if (v.blocked) rows = rows.filter((r) => r.blocked > 0).sort((a, b) => b.blocked - a.blocked || a.name.localeCompare(b.name) || (a.id ?? "").localeCompare(b.id ?? ""));
      rows = rows.slice(0, limit);
      if (v.json) return void out(json(rows, 2));
      const label = { domains: "DOMAIN", devices: "DEVICE", countries: "COUNTRY", companies: "COMPANY" }[by];
      // Devices are named by their owner, and two may share a name ("Phone"): the id tells them apart.
      const ids = by === "devices";
      out(table([[label, ...(ids ? ["ID"] : []), "QUERIES", "BLOCKED", "COMPANIES"], ...rows.map((r) => [r.name, ...(ids ? [r.id ?? ""] : []), r.queries, r.blocked, r.companies])]));
    });
  },
};
