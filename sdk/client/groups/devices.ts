import { ConfigError } from "../../errors";
import { requireString } from "../../options";
import {
  type DedicatedIps,
  dedicatedIpsSchema,
  type Device,
  type DeviceCreate,
  deviceSchema,
  type DeviceSettings,
  deviceSettingsSchema,
  type DeviceSettingsUpdate,
  type DevicesResponse,
  devicesResponseSchema,
  type DeviceUpdate,
  type operations,
} from "../model";
import { deviceListSchema as v1DeviceListSchema } from "../api-schemas";
import { type ApiCore, type ByteBudget, collect, listPages, objectCalls, withQuota } from "./shared";

/**
 * Filter of {@link DevicesApi.list} and {@link DevicesApi.pages}: the query of `GET /oapi/v2/devices`
 * without its cursor, e.g. `{ search: "laptop", dns_servers: ["a1b2"], limit: 100 }`.
 */
export type DeviceFilter = Omit<NonNullable<operations["getDevices"]["parameters"]["query"]>, "cursor">;

/** Options of {@link DevicesApi.mobileConfig}, e.g. `{ protocol: "dot", excludeWifiNetworks: ["Office"] }`. */
export interface MobileConfigOptions {
  /** Encrypted DNS protocol of the profile: DNS-over-HTTPS or DNS-over-TLS. */
  protocol: "doh" | "dot";
  /** Wi-Fi network names (SSIDs) on which the profile stays off. */
  excludeWifiNetworks?: readonly string[];
  /** Domains that bypass the profile. */
  excludeDomains?: readonly string[];
}

/**
 * Devices: the v2 listing with cursors (v1 on servers without it), CRUD, settings, the DoH password,
 * Apple configuration profiles and dedicated IPv4 addresses.
 *
 * @example
 * ```ts
 * const laptops = await client.devices.list({ search: "laptop" });
 * const profile = await client.devices.mobileConfig(laptops[0]!.id, { protocol: "doh" }); // Buffer
 * ```
 */
export interface DevicesApi {
  /**
   * Every device matching `filter`, across all pages (`GET /oapi/v2/devices`). A server without v2 (404)
   * is listed with `GET /devices`, filtered here, in the shape it has (checked as 1.11).
   */
  list(filter?: DeviceFilter): Promise<Device[]>;
  /** The pages of the listing one by one, following `navigation.next`. */
  pages(filter?: DeviceFilter): AsyncGenerator<DevicesResponse, void, undefined>;
  get(id: string): Promise<Device>;
  /** Creates a device; a used-up quota is a `QuotaError` with `limit: "devices"`. */
  create(body: DeviceCreate): Promise<Device>;
  update(id: string, body: DeviceUpdate): Promise<void>;
  remove(id: string): Promise<void>;
  getSettings(id: string): Promise<DeviceSettings>;
  updateSettings(id: string, body: DeviceSettingsUpdate): Promise<void>;
  /** Issues a new DNS-over-HTTPS password for the device (`PUT …/doh_password/reset`). */
  resetDohPassword(id: string): Promise<void>;
  /** The `.mobileconfig` file (an Apple configuration profile) as bytes. */
  mobileConfig(id: string, options: MobileConfigOptions): Promise<Buffer>;
  /** The dedicated IPv4 and IPv6 addresses linked to the device. */
  dedicatedAddresses(id: string): Promise<DedicatedIps>;
  /** Links an allocated dedicated IPv4 address; a used-up quota is a `QuotaError` (`dedicated_ipv4`). */
  linkDedicatedIpv4(id: string, ip: string): Promise<void>;
  unlinkDedicatedIpv4(id: string, ip: string): Promise<void>;
}

/** Builds the devices group on a client core, e.g. `devicesApi(client).list()`. */
export function devicesApi(core: ApiCore): DevicesApi {
  const { path, calls } = objectCalls<Device, DeviceCreate, DeviceUpdate, DeviceSettings, DeviceSettingsUpdate>(core, "/devices", "devices", deviceSchema, deviceSettingsSchema);
  // A server without v2 (before 1.15): one page from v1, filtered here the way v2 filters, checked
  // against the shape such a server has (1.11), not 1.15's settings model.
  const pages = (filter: DeviceFilter = {}, budget?: ByteBudget) =>
    listPages<DevicesResponse>(
      core,
      "/oapi/v2/devices",
      filter,
      devicesResponseSchema,
      async (budget) => ({
        items: filterDevices((await core.request({ path: "/devices", schema: v1DeviceListSchema(), ...(budget ? { budget } : {}) })) as Device[], filter),
        navigation: {},
      }),
      budget,
    );
  return {
    list: (filter) => collect((budget) => pages(filter, budget), (p) => p.items),
    pages: (filter) => pages(filter),
    ...calls,
    resetDohPassword: async (id) => {
      await core.request({ method: "PUT", path: path(id, "/doh_password/reset") });
    },
    mobileConfig: async (id, options) => {
      const protocol = options?.protocol;
      if (protocol !== "doh" && protocol !== "dot") throw new ConfigError('"protocol" must be "doh" or "dot"', { field: "protocol" });
      return core.request<Buffer>({
        path: path(id, `/${protocol}.mobileconfig`),
        query: {
          ...(options.excludeWifiNetworks ? { exclude_wifi_networks: options.excludeWifiNetworks } : {}),
          ...(options.excludeDomains ? { exclude_domain: options.excludeDomains } : {}),
        },
        responseType: "bytes",
      });
    },
    dedicatedAddresses: async (id) => core.request({ path: path(id, "/dedicated_addresses"), schema: dedicatedIpsSchema() }),
    linkDedicatedIpv4: async (id, ip) => {
      const body = { ip: requireString(ip, "ip") };
      await withQuota("dedicated_ipv4", core.request({ method: "POST", path: path(id, "/dedicated_addresses/ipv4"), body }));
    },
    unlinkDedicatedIpv4: async (id, ip) => {
      await core.request({ method: "DELETE", path: path(id, "/dedicated_addresses/ipv4"), query: { ip: requireString(ip, "ip") } });
    },
  };
}

/** v2's filters applied to a v1 listing: ids of devices and of their DNS servers, and a name search. */
function filterDevices(all: Device[], filter: DeviceFilter): Device[] {
  const search = filter.search?.toLowerCase();
  return all.filter(
    (d) =>
      (!filter.devices?.length || filter.devices.includes(d.id)) &&
      (!filter.dns_servers?.length || filter.dns_servers.includes(d.dns_server_id)) &&
      (!search || d.name.toLowerCase().includes(search)),
  );
}
