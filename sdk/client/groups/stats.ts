import {
  type BlockedParentalCategoryQueriesStatsList,
  blockedParentalCategoryQueriesStatsListSchema,
  type CategoryQueriesStatsList,
  categoryQueriesStatsListSchema,
  type CompanyDetailedQueriesStatsList,
  companyDetailedQueriesStatsListSchema,
  type CompanyQueriesStatsList,
  companyQueriesStatsListSchema,
  type CountryQueriesStatsList,
  countryQueriesStatsListSchema,
  type DeviceQueriesStatsList,
  deviceQueriesStatsListSchema,
  type DomainQueriesStatsList,
  domainQueriesStatsListSchema,
  type operations,
  type TimeQueriesStatsList,
  timeQueriesStatsListSchema,
} from "../model";
import type { ApiCore } from "./shared";

type Query<K extends keyof operations> = operations[K] extends { parameters: { query: infer Q } } ? Q : never;

/** Query of the time series and category statistics: a time window (epoch ms) and filters, e.g. `{ time_from_millis: 0, time_to_millis: Date.now(), devices: ["d1"] }`. */
export type StatsParams = Query<"getTimeQueriesStats">;
/** Query of the ranked statistics, which also take `cursor` and `limit`, e.g. `{ time_from_millis: 0, time_to_millis: Date.now(), limit: 10 }`. */
export type RankedStatsParams = Query<"getDomainsQueriesStats">;

/**
 * Query statistics over a time window, by time, domain, company, country, device and category.
 *
 * @example
 * ```ts
 * const now = Date.now();
 * const { stats } = await client.stats.domains({ time_from_millis: now - 86_400_000, time_to_millis: now, limit: 10 });
 * ```
 */
export interface StatsApi {
  time(params: StatsParams): Promise<TimeQueriesStatsList>;
  domains(params: RankedStatsParams): Promise<DomainQueriesStatsList>;
  companies(params: RankedStatsParams): Promise<CompanyQueriesStatsList>;
  companiesDetailed(params: RankedStatsParams): Promise<CompanyDetailedQueriesStatsList>;
  countries(params: RankedStatsParams): Promise<CountryQueriesStatsList>;
  devices(params: RankedStatsParams): Promise<DeviceQueriesStatsList>;
  categories(params: StatsParams): Promise<CategoryQueriesStatsList>;
  blockedParentalCategories(params: StatsParams): Promise<BlockedParentalCategoryQueriesStatsList>;
}

/** Builds the statistics group on a client core, e.g. `statsApi(client).time(window)`. */
export function statsApi(core: ApiCore): StatsApi {
  return {
    time: (query) => core.request({ path: "/stats/time", query, schema: timeQueriesStatsListSchema() }),
    domains: (query) => core.request({ path: "/stats/domains", query, schema: domainQueriesStatsListSchema() }),
    companies: (query) => core.request({ path: "/stats/companies", query, schema: companyQueriesStatsListSchema() }),
    companiesDetailed: (query) => core.request({ path: "/stats/companies/detailed", query, schema: companyDetailedQueriesStatsListSchema() }),
    countries: (query) => core.request({ path: "/stats/countries", query, schema: countryQueriesStatsListSchema() }),
    devices: (query) => core.request({ path: "/stats/devices", query, schema: deviceQueriesStatsListSchema() }),
    categories: (query) => core.request({ path: "/stats/categories", query, schema: categoryQueriesStatsListSchema() }),
    blockedParentalCategories: (query) =>
      core.request({ path: "/stats/blocked_parental_categories", query, schema: blockedParentalCategoryQueriesStatsListSchema() }),
  };
}
