import type { z } from "zod";
import { ProtocolError } from "../errors";
import { lazy, zod } from "../lazy";

// ## The validator pattern (follow it for every response model)
//
// 1. Each model is a plain TypeScript interface with the API's own field names. Public declarations
//    then carry no zod types (zod's .d.ts files break programs compiled without esModuleInterop).
// 2. Each model that a call returns has a validator getter built by `compiled<T>((z) => …)`:
//    - lazy: nothing is built, and zod is not even loaded, until the first call that needs it, so
//      `require("pulumi-dns-account/sdk")` stays cheap;
//    - precompiled: the schema goes through `z.compile()` once, which turns it into generated code
//      (about 3-4× faster than zod's interpreter); a failure falls back to zod's own parser for the
//      issue path, so error messages are unchanged;
//    - checked: the builder must return a `z.ZodType<T>`, so the schema and the interface cannot drift.
// 3. Objects are loose (`z.looseObject`): a field the service adds later passes through. A child model
//    is another getter, taken with the builder's second argument: `use(limitSchema)`.
// 4. A list gets its own getter (`deviceListSchema`), never `schema().array()` at the call site, which
//    would build (and not compile) a new schema on every call.
// 5. The client validates with `validateResponse(validator, value, status)`: a ProtocolError that
//    names the field (`devices.used`), never the value.

/** What the client needs from a validator: zod's `safeParse` shape, as a plain type. */
export interface Validator<T> {
  safeParse(value: unknown): ValidationResult<T>;
}

/** The result of {@link Validator.safeParse}. */
export type ValidationResult<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey> }> } };

/**
 * A lazily built, precompiled validator for `T` (see the pattern above).
 *
 * @example
 * ```ts
 * interface Limit { limit: number; used: number }
 * const limitSchema = compiled<Limit>((z) => z.looseObject({ limit: z.number().int(), used: z.number().int() }));
 * limitSchema().safeParse({ limit: 1, used: 0 }).success; // true
 * ```
 */
export function compiled<T>(build: (zod: typeof z, use: <U>(child: () => Validator<U>) => z.ZodType<U>) => z.ZodType<T>): () => Validator<T> {
  return lazy(() => {
    const { z } = zod();
    // Every Validator made here is a zod schema underneath: `use` only restores its static type.
    const use = <U>(child: () => Validator<U>): z.ZodType<U> => child() as unknown as z.ZodType<U>;
    return z.compile(build(z, use)) as Validator<T>;
  });
}

/**
 * Returns `value` as a `T` or throws a {@link ProtocolError} naming the first field at fault.
 *
 * @example
 * ```ts
 * const limits = validateResponse(accountLimitsSchema(), JSON.parse(text), 200);
 * ```
 */
export function validateResponse<T>(validator: Validator<T>, value: unknown, status?: number): T {
  const result = validator.safeParse(value);
  if (result.success) return result.data;
  const field = result.error.issues[0]?.path.map(String).join(".") ?? "";
  const init = { field: field || "body", ...(status ? { status } : {}) };
  if (field === "") throw new ProtocolError("The response body has the wrong shape", init);
  throw new ProtocolError(`"${field}" has the wrong type or value`, init);
}

/** One quota: its limit and how much of it is used. */
export interface Limit {
  limit: number;
  used: number;
}

/** Validator of {@link Limit}. */
export const limitSchema = compiled<Limit>((z) => z.looseObject({ limit: z.number().int(), used: z.number().int() }));

/** Quotas of the account and their use (`GET /account/limits`). */
export interface AccountLimits {
  access_rules: Limit;
  dedicated_ipv4: Limit;
  devices: Limit;
  dns_servers: Limit;
  requests: Limit;
  user_rules: Limit;
}

/** Validator of {@link AccountLimits}. */
export const accountLimitsSchema = compiled<AccountLimits>((z, use) =>
  z.looseObject({
    access_rules: use(limitSchema),
    dedicated_ipv4: use(limitSchema),
    devices: use(limitSchema),
    dns_servers: use(limitSchema),
    requests: use(limitSchema),
    user_rules: use(limitSchema),
  }),
);

/** Device types the service knows. */
export const deviceTypes = ["WINDOWS", "ANDROID", "MAC", "IOS", "LINUX", "ROUTER", "SMART_TV", "GAME_CONSOLE", "UNKNOWN"] as const;
/** One of {@link deviceTypes}. */
export type DeviceType = (typeof deviceTypes)[number];

/** A device. */
export interface Device {
  id: string;
  name: string;
  device_type: string;
  dns_server_id: string;
  dns_addresses: Record<string, unknown>;
  settings: { protection_enabled: boolean; detect_doh_auth_only: boolean; [key: string]: unknown };
  [key: string]: unknown;
}

/** Validator of {@link Device}. */
export const deviceSchema = compiled<Device>((z) =>
  z.looseObject({
    id: z.string(),
    name: z.string(),
    device_type: z.string(),
    dns_server_id: z.string(),
    dns_addresses: z.looseObject({}),
    settings: z.looseObject({ protection_enabled: z.boolean(), detect_doh_auth_only: z.boolean() }),
  }),
);
/** Validator of a list of {@link Device}s. */
export const deviceListSchema = compiled<Device[]>((z, use) => z.array(use(deviceSchema)));

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
  [key: string]: unknown;
}

/** Validator of {@link DnsServer}. */
export const dnsServerSchema = compiled<DnsServer>((z) =>
  z.looseObject({
    id: z.string(),
    name: z.string(),
    default: z.boolean(),
    device_ids: z.array(z.string()),
    settings: z.looseObject({}),
  }),
);
/** Validator of a list of {@link DnsServer}s. */
export const dnsServerListSchema = compiled<DnsServer[]>((z, use) => z.array(use(dnsServerSchema)));

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
  fields: Array<{ field: string; error_code: string; message?: string | undefined; [key: string]: unknown }>;
  [key: string]: unknown;
}

/** Validator of {@link ErrorResponse}. */
export const errorResponseSchema = compiled<ErrorResponse>((z) =>
  z.looseObject({
    error_code: z.string(),
    message: z.string().optional(),
    fields: z.array(z.looseObject({ field: z.string(), error_code: z.string(), message: z.string().optional() })),
  }),
);
