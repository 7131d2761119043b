// One small module per API group; the client core (../client.ts) mounts them.
export { type AccountApi, accountApi } from "./account";
export { type DedicatedIpv4Api, dedicatedIpv4Api } from "./dedicated-ipv4";
export { type DeviceFilter, type DevicesApi, devicesApi, type MobileConfigOptions } from "./devices";
export { type DnsServerFilter, type DnsServersApi, dnsServersApi } from "./dns-servers";
export { type QueryLogApi, queryLogApi, type QueryLogParams } from "./query-log";
export { type ListApi, referenceDataApis } from "./reference-data";
export { type ApiCore, followCursors, MAX_PAGES, withQuota } from "./shared";
export { type RankedStatsParams, type StatsApi, statsApi, type StatsParams } from "./stats";
