import { TRAFFIC_COUNTRIES, TRAFFIC_DOMAINS } from "../reference-data/data";

/** One synthetic DNS query (`QueryLogItem`). */
export interface Query {
  time_millis: number;
  time_iso: string;
  domain: string;
  company_id: string;
  category_type: string;
  device_id: string;
  dns_server_id: string;
  client_country: string;
  asn: number;
  network: string;
  dnssec: boolean;
  dns_request_type: string;
  dns_response_type: string;
  /** How the query arrived (`DnsProtoType`): DOH, DOT, DOQ, DNSCRYPT… or plain DNS. */
  dns_proto_type?: string;
  /** Country of the answer's address; absent when the query was blocked (no answer went out). */
  response_country?: string;
  filtering_info: { filtering_status: string; filtering_type?: string; filter_id?: string; filtering_category_id?: string };
  /** The parental category that blocked it, if any (for `blocked_parental_categories`). */
  parental?: string;
}

/** Protocols of the synthetic queries, encrypted ones first (most clients of the service use them). */
const PROTOCOLS = ["DOH", "DOT", "DOQ", "DOH", "DNSCRYPT", "PLAIN_UDP", "DOH", "PLAIN_TCP"] as const;

/** The traffic generator's bucket: each 10-minute slot of absolute time gets its own queries. */
export const BUCKET_MS = 600_000;
/** The widest window a query-log or stats request may ask for. */
export const MAX_WINDOW_MS = 31 * 86_400_000;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The synthetic queries of `[from, to]` (never after `now`), newest first. Deterministic: the same seed,
 * devices and window give the same queries, and a query belongs to its 10-minute slot whatever window
 * asks for it. Devices are given in a stable order with their DNS server.
 *
 * @example
 * ```ts
 * const queries = traffic(1, [{ id: "d1", dns_server_id: "s1" }], Date.now() - 3_600_000, Date.now(), Date.now());
 * ```
 */
export function traffic(seed: number, devices: readonly { id: string; dns_server_id: string }[], from: number, to: number, now: number): Query[] {
  const out: Query[] = [];
  if (devices.length === 0) return out;
  const end = Math.min(to, now);
  for (let bucket = Math.floor(from / BUCKET_MS); bucket * BUCKET_MS <= end; bucket++) {
    const rng = mulberry32(Math.imul(seed ^ 0x9e3779b9, 2654435761) ^ bucket);
    const n = Math.floor(rng() * 4);
    for (let i = 0; i < n; i++) {
      const time = bucket * BUCKET_MS + Math.floor(rng() * BUCKET_MS);
      const domainIndex = Math.floor(rng() * TRAFFIC_DOMAINS.length);
      const d = TRAFFIC_DOMAINS[domainIndex]!;
      const device = devices[Math.floor(rng() * devices.length)]!;
      const country = TRAFFIC_COUNTRIES[Math.floor(rng() * TRAFFIC_COUNTRIES.length)]!;
      const roll = rng();
      if (time < from || time > end) continue;
      const blockedAds = (d.category === "ADS" || d.category === "TRACKERS") && roll < 0.8;
      const blockedParental = d.parental !== undefined && roll < 0.5;
      const filtering: Query["filtering_info"] = blockedAds
        ? { filtering_status: "REQUEST_BLOCKED", filtering_type: "FILTERS", filter_id: "adguard_dns_filter" }
        : blockedParental
          ? { filtering_status: "REQUEST_BLOCKED", filtering_type: "PARENTAL_FILTERING_CATEGORY", filtering_category_id: d.parental! }
          : { filtering_status: "NONE" };
      out.push({
        time_millis: time,
        time_iso: new Date(time).toISOString(),
        domain: d.domain,
        company_id: d.company,
        category_type: d.category,
        device_id: device.id,
        dns_server_id: device.dns_server_id,
        client_country: country,
        asn: 64_496 + Math.floor(roll * 16),
        network: "Emulator Net",
        dnssec: roll > 0.7,
        dns_request_type: roll > 0.3 ? "A" : "AAAA",
        dns_response_type: "RcodeSuccess",
        // Derived from draws already made, so adding these fields left every other value unchanged.
        dns_proto_type: PROTOCOLS[Math.floor(roll * 1009) % PROTOCOLS.length]!,
        ...(filtering.filtering_status === "REQUEST_BLOCKED" ? {} : { response_country: TRAFFIC_COUNTRIES[(domainIndex + bucket) % TRAFFIC_COUNTRIES.length]! }),
        filtering_info: filtering,
        ...(blockedParental && !blockedAds ? { parental: d.parental! } : {}),
      });
    }
  }
  return out.sort((a, b) => b.time_millis - a.time_millis);
}
