import { lazy, zod } from "../lazy";
import type { Schema } from "../schema";

// Shapes of the business resources, with the API's own field names. Objects are loose: a field the
// service adds later passes through instead of failing the call. Built on first use (see lazy.ts).

const limit = lazy(() => zod().z.looseObject({ limit: zod().z.number().int(), used: zod().z.number().int() }));

/** A quota and its use. */
export interface Limit {
  limit: number;
  used: number;
  [field: string]: unknown;
}

/** Quotas of the account and their use. */
export interface AccountLimits {
  access_rules: Limit;
  dedicated_ipv4: Limit;
  devices: Limit;
  dns_servers: Limit;
  requests: Limit;
  user_rules: Limit;
  [field: string]: unknown;
}

/** `GET /account/limits`. */
export const accountLimitsSchema: () => Schema<AccountLimits> = lazy(() =>
  zod().z.looseObject({
    access_rules: limit(),
    dedicated_ipv4: limit(),
    devices: limit(),
    dns_servers: limit(),
    requests: limit(),
    user_rules: limit(),
  }),
);

/** Device types the service knows. */
export const deviceTypes = ["WINDOWS", "ANDROID", "MAC", "IOS", "LINUX", "ROUTER", "SMART_TV", "GAME_CONSOLE", "UNKNOWN"] as const;
export type DeviceType = (typeof deviceTypes)[number];

/** A device. */
export interface Device {
  id: string;
  name: string;
  device_type: string;
  dns_server_id: string;
  dns_addresses: Record<string, unknown>;
  settings: { protection_enabled: boolean; detect_doh_auth_only: boolean; [field: string]: unknown };
  [field: string]: unknown;
}

const deviceZod = lazy(() => {
  const { z } = zod();
  return z.looseObject({
    id: z.string(),
    name: z.string(),
    device_type: z.string(),
    dns_server_id: z.string(),
    dns_addresses: z.looseObject({}),
    settings: z.looseObject({ protection_enabled: z.boolean(), detect_doh_auth_only: z.boolean() }),
  });
});
/** `GET /devices/{device_id}`. */
export const deviceSchema: () => Schema<Device> = deviceZod;
/** `GET /devices`. */
export const deviceListSchema: () => Schema<Device[]> = lazy(() => deviceZod().array());

/** Body of `POST /devices`. */
export interface DeviceCreate {
  name: string;
  device_type: DeviceType;
  dns_server_id: string;
}
/** Body of `PUT /devices/{device_id}`. */
export type DeviceUpdate = Partial<DeviceCreate>;

/** A DNS server (profile). */
export interface DnsServer {
  id: string;
  name: string;
  default: boolean;
  device_ids: string[];
  settings: Record<string, unknown>;
  [field: string]: unknown;
}

const dnsServerZod = lazy(() => {
  const { z } = zod();
  return z.looseObject({
    id: z.string(),
    name: z.string(),
    default: z.boolean(),
    device_ids: z.array(z.string()),
    settings: z.looseObject({}),
  });
});
/** `GET /dns_servers/{dns_server_id}`. */
export const dnsServerSchema: () => Schema<DnsServer> = dnsServerZod;
/** `GET /dns_servers`. */
export const dnsServerListSchema: () => Schema<DnsServer[]> = lazy(() => dnsServerZod().array());

/** Body of `POST /dns_servers`. */
export interface DnsServerCreate {
  name: string;
  settings?: Record<string, unknown>;
}
/** Body of `PUT /dns_servers/{dns_server_id}`. */
export interface DnsServerUpdate {
  name?: string;
}

/** The validation-error body of the business endpoints. */
export interface ErrorResponse {
  error_code: string;
  message?: string | undefined;
  fields: { field: string; error_code: string; message?: string | undefined; [key: string]: unknown }[];
  [key: string]: unknown;
}

/** Validates {@link ErrorResponse}. */
export const errorResponseSchema: () => Schema<ErrorResponse> = lazy(() => {
  const { z } = zod();
  return z.looseObject({
    error_code: z.string(),
    message: z.string().optional(),
    fields: z.array(z.looseObject({ field: z.string(), error_code: z.string(), message: z.string().optional() })),
  });
});
