import type { z } from "zod";
import { lazy, zod } from "../lazy";

// Shapes of the business resources, with the API's own field names. Objects are loose: a field the
// service adds later passes through instead of failing the call. Built on first use (see lazy.ts).

const limit = lazy(() => zod().z.looseObject({ limit: zod().z.number().int(), used: zod().z.number().int() }));

/** `GET /account/limits`. */
export const accountLimitsSchema = lazy(() =>
  zod().z.looseObject({
    access_rules: limit(),
    dedicated_ipv4: limit(),
    devices: limit(),
    dns_servers: limit(),
    requests: limit(),
    user_rules: limit(),
  }),
);
/** Quotas of the account and their use. */
export type AccountLimits = z.infer<ReturnType<typeof accountLimitsSchema>>;

/** Device types the service knows. */
export const deviceTypes = ["WINDOWS", "ANDROID", "MAC", "IOS", "LINUX", "ROUTER", "SMART_TV", "GAME_CONSOLE", "UNKNOWN"] as const;
export type DeviceType = (typeof deviceTypes)[number];

/** A device. */
export const deviceSchema = lazy(() => {
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
export type Device = z.infer<ReturnType<typeof deviceSchema>>;

/** Body of `POST /devices`. */
export interface DeviceCreate {
  name: string;
  device_type: DeviceType;
  dns_server_id: string;
}
/** Body of `PUT /devices/{device_id}`. */
export type DeviceUpdate = Partial<DeviceCreate>;

/** A DNS server (profile). */
export const dnsServerSchema = lazy(() => {
  const { z } = zod();
  return z.looseObject({
    id: z.string(),
    name: z.string(),
    default: z.boolean(),
    device_ids: z.array(z.string()),
    settings: z.looseObject({}),
  });
});
export type DnsServer = z.infer<ReturnType<typeof dnsServerSchema>>;

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
export const errorResponseSchema = lazy(() => {
  const { z } = zod();
  return z.looseObject({
    error_code: z.string(),
    message: z.string().optional(),
    fields: z.array(z.looseObject({ field: z.string(), error_code: z.string(), message: z.string().optional() })),
  });
});
