import {
  type DNSServer,
  type DNSServerCreate,
  dnsServerSchema,
  type DNSServerSettings,
  dnsServerSettingsSchema,
  type DNSServerSettingsUpdate,
  type DnsServersResponse,
  dnsServersResponseSchema,
  type DNSServerUpdate,
  type operations,
} from "../model";
import { dnsServerListSchema as v1DnsServerListSchema } from "../api-schemas";
import { type ApiCore, type ByteBudget, collect, listPages, objectCalls } from "./shared";

/**
 * Filter of {@link DnsServersApi.list} and {@link DnsServersApi.pages}: the query of
 * `GET /oapi/v2/dns_servers` without its cursor, e.g. `{ search: "home", limit: 100 }`.
 */
export type DnsServerFilter = Omit<NonNullable<operations["getDnsServers"]["parameters"]["query"]>, "cursor">;

/**
 * DNS servers (profiles): the v2 listing with cursors (v1 on servers without it), CRUD and the settings
 * model (user rules, filter lists, parental control, safe browsing, access lists, blocking mode…).
 *
 * @example
 * ```ts
 * const [server] = await client.dnsServers.list({ search: "home" });
 * const settings = await client.dnsServers.getSettings(server!.id);
 * await client.dnsServers.updateSettings(server!.id, { user_rules_settings: { rules: ["||ads.example^"] } });
 * ```
 */
export interface DnsServersApi {
  /**
   * Every DNS server matching `filter`, across all pages (`GET /oapi/v2/dns_servers`). A server without
   * v2 (404) is listed with `GET /dns_servers`, filtered here, in the shape it has (checked as 1.11).
   */
  list(filter?: DnsServerFilter): Promise<DNSServer[]>;
  /** The pages of the listing one by one, following `navigation.next`. */
  pages(filter?: DnsServerFilter): AsyncGenerator<DnsServersResponse, void, undefined>;
  get(id: string): Promise<DNSServer>;
  /** Creates a DNS server; a used-up quota is a `QuotaError` with `limit: "dns_servers"`. */
  create(body: DNSServerCreate): Promise<DNSServer>;
  update(id: string, body: DNSServerUpdate): Promise<void>;
  remove(id: string): Promise<void>;
  getSettings(id: string): Promise<DNSServerSettings>;
  updateSettings(id: string, body: DNSServerSettingsUpdate): Promise<void>;
}

/** Builds the DNS servers group on a client core, e.g. `dnsServersApi(client).list()`. */
export function dnsServersApi(core: ApiCore): DnsServersApi {
  const { calls } = objectCalls<DNSServer, DNSServerCreate, DNSServerUpdate, DNSServerSettings, DNSServerSettingsUpdate>(
    core,
    "/dns_servers",
    "dns_servers",
    dnsServerSchema,
    dnsServerSettingsSchema,
  );
  // A server without v2 (before 1.15): one page from v1, filtered here the way v2 filters, checked
  // against the shape such a server has (1.11), not 1.15's settings model.
  const pages = (filter: DnsServerFilter = {}, budget?: ByteBudget) =>
    listPages<DnsServersResponse>(
      core,
      "/oapi/v2/dns_servers",
      filter,
      dnsServersResponseSchema,
      async (budget) => {
        const all = withDevicesCount(await core.request({ path: "/dns_servers", schema: v1DnsServerListSchema(), ...(budget ? { budget } : {}) })) as DNSServer[];
        const search = filter.search?.toLowerCase();
        const items = all.filter((s) => (!filter.dns_servers?.length || filter.dns_servers.includes(s.id)) && (!search || s.name.toLowerCase().includes(search)));
        return { items, navigation: {} };
      },
      budget,
    );
  return { list: (filter) => collect((budget) => pages(filter, budget), (p) => p.items), pages: (filter) => pages(filter), ...calls };
}

/** Servers before 1.15 send `device_ids` and no `devices_count`: derive it, as 1.15 defines it. */
function withDevicesCount(list: readonly { device_ids: string[]; devices_count?: unknown }[]): unknown[] {
  return list.map((s) => (s.devices_count === undefined ? { ...s, devices_count: s.device_ids.length } : s));
}
