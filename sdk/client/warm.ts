import { tokenBodySchema } from "../auth/token-response";
import type { Validator } from "../schema";
import { errorResponseSchema } from "./api-schemas";
import { accountLimitsSchema, dedicatedIPv4AddressListSchema, deviceSchema, dnsServerSchema } from "./model";

// Why this exists (issue 35 §3): zod's code is compiled by V8 the first time a process uses it. A face's
// bundle carries V8's code cache, written by scripts/bundle.mjs after the bundle's `warm()`, and that cache
// holds only the functions compiled by then. Without zod in it, every provider process that makes a call
// compiled zod anew: about 59 ms of CPU to load zod and 95 ms of zod in all by its first calls, against about
// 14 ms and 39 ms with zod's functions in the cache (bench/zod-first-use.mjs: the minified bundle, 2 cores). tofu starts
// 3-5 provider processes per command, 1-2 of them working. `z.compile`'s generated code (`new Function`)
// never enters the cache; the code that generates it does.

const LIMIT = { limit: 10, used: 1 };
const URL = "https://d.example/dns-query";

/** Each validator a provider process uses on its first calls, with one answer it accepts. */
const FIRST_CALLS: ReadonlyArray<readonly [() => Validator<unknown>, unknown]> = [
  [tokenBodySchema, { access_token: "warm", token_type: "bearer", expires_in: 3600, refresh_token: "warm" }],
  [accountLimitsSchema, { access_rules: LIMIT, dedicated_ipv4: LIMIT, devices: LIMIT, dns_servers: LIMIT, requests: LIMIT, user_rules: LIMIT }],
  [dedicatedIPv4AddressListSchema, [{ ip: "192.0.2.1", device_id: null }, { ip: "192.0.2.2", device_id: "d" }]],
  [
    deviceSchema,
    {
      id: "d",
      name: "Warm",
      device_type: "LINUX",
      dns_server_id: "s",
      dns_addresses: {
        adguard_dns_over_https_url: URL,
        adguard_dns_over_https_with_auth_url: null,
        adguard_dns_over_quic_url: URL,
        adguard_dns_over_tls_url: URL,
        adguard_vpn_dns_over_https_url: URL,
        adguard_vpn_dns_over_quic_url: URL,
        adguard_vpn_dns_over_tls_url: URL,
        dns_over_https_url: URL,
        dns_over_quic_url: URL,
        dns_over_tls_url: URL,
        ip_addresses: [{ ip_address: "192.0.2.3", type: "V4" }],
      },
      settings: { detect_doh_auth_only: false, protection_enabled: true },
    },
  ],
  [dnsServerSchema, undefined],
  [errorResponseSchema, { error_code: "FIELD_REQUIRED", message: "warm", fields: [{ field: "name", error_code: "FIELD_REQUIRED" }] }],
];

/**
 * Builds the validators a provider process uses on its first calls (the token body, the account limits,
 * the dedicated-address listing, a device, a DNS server, an error answer) and runs each on one answer it
 * accepts and one it refuses, so that zod and these paths are compiled when a bundle's `warm()` calls this
 * before its code cache is written. Returns how many answers were accepted (one per validator with a
 * sample), which the tests check. Costs about 100 ms; no provider process calls it.
 *
 * @example
 * ```ts
 * export function warm(): void {
 *   warmValidators(); // then the build writes the bundle's code cache
 * }
 * ```
 */
export function warmValidators(): number {
  let accepted = 0;
  for (const [validator, sample] of FIRST_CALLS) {
    const v = validator();
    if (sample !== undefined && v.safeParse(sample).success) accepted++;
    v.safeParse({});
  }
  return accepted;
}
