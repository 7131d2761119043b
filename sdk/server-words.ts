/**
 * The only server-supplied words that may appear in a message, `toJSON()` or `util.inspect` output:
 * documented error codes and documented field names. Anything else a server says is never shown, because a
 * hostile or buggy server can echo a token or a password in any string it sends back, in any case.
 * The API's codes and field names come from the service's OpenAPI descriptions (facts, not prose);
 * `test/sdk/errors.test.ts` checks this list against them.
 */

/** Codes of the API's validation errors (`error_code` of an ErrorResponse and of each field). */
const API_ERROR_CODES = [
  "ACCESS_FORBIDDEN", "ALREADY_EXISTS", "BAD_REQUEST", "CERT_DOMAIN_NAME", "CERT_SELF_SIGNED", "CERT_VALIDITY_DATE",
  "CUSTOM_FILTER_SOURCE_FORBIDDEN", "CUSTOM_FILTER_SOURCE_UNREACHABLE", "FIELD_REACHED_LIMIT", "FIELD_REQUIRED",
  "FIELD_WRONG_VALUE", "INSUFFICIENT_LICENSE_TYPE", "INVITATION_ALREADY_ADDED", "INVITATION_FOR_ACTIVE_MEMBER",
  "INVITATION_FOR_OWNER", "RESOURCE_REACHED_LIMIT", "TOO_MANY_REQUESTS", "UNKNOWN",
];

/**
 * Words of token-endpoint, Bearer and redirect errors: OAuth 2.0 (RFC 6749, 6750, 7009) and the service's
 * own `error_code`s.
 */
const OAUTH_ERROR_WORDS = [
  "access_denied", "insufficient_scope", "invalid_client", "invalid_grant", "invalid_request", "invalid_scope",
  "invalid_token", "server_error", "temporarily_unavailable", "unauthorized", "unauthorized_client",
  "unsupported_grant_type", "unsupported_response_type", "unsupported_token_type",
  "2fa_required", "2fa_invalid", "bad_credentials", "grant_type_required", "missing_parameters", "missing_token",
  "token_expired", "token_not_found", "token_revoked", "unsupported_content_type", "not_found",
];

/** Property and parameter names of the API's schemas. */
const FIELD_NAMES = new Set([
  "access_rules", "access_settings", "access_token", "adguard_dns_over_https_url",
  "adguard_dns_over_https_with_auth_url", "adguard_dns_over_quic_url", "adguard_dns_over_tls_url",
  "adguard_vpn_dns_over_https_url", "adguard_vpn_dns_over_https_with_auth_url", "adguard_vpn_dns_over_quic_url",
  "adguard_vpn_dns_over_tls_url", "aid", "allowed_clients", "asn", "auto_connect_devices_enabled",
  "block_adult_websites_enabled", "block_chrome_prefetch", "block_dangerous_domains", "block_firefox_canary",
  "block_known_scanners", "block_nrd", "block_private_relay", "block_ttl_seconds", "blocked", "blocked_clients",
  "blocked_domain_rules", "blocked_filtering_categories", "blocked_service_id", "blocked_services", "blocking_mode",
  "blocking_mode_settings", "categories", "category", "category_type", "client_country", "client_id", "code",
  "code_challenge", "code_challenge_method", "code_verifier", "companies", "company_id", "company_name", "countries",
  "country", "current", "cursor", "daily_schedule", "day_of_week", "dedicated_ipv4", "default", "description",
  "detect_doh_auth_only", "device_id", "device_ids", "device_type", "devices", "devices_count", "dns_addresses",
  "dns_over_https_url", "dns_over_https_with_auth_url", "dns_over_quic_url", "dns_over_tls_url", "dns_proto_type",
  "dns_request_type", "dns_response_type", "dns_server_id", "dns_servers", "dnssec", "domain", "domains_count",
  "download_url", "enabled", "engines_safe_search_enabled", "error", "error_code", "error_description",
  "exclude_domain", "exclude_wifi_networks", "expires_in", "field", "fields", "filter_id", "filter_list",
  "filter_lists_settings", "filter_rule", "filtering_category_id", "filtering_info", "filtering_status",
  "filtering_type", "from_time", "grant_type", "homepage_url", "homoglyph_protection_enabled", "hours", "icon_svg",
  "id", "ip", "ip_address", "ip_addresses", "ip_log_enabled", "ipv4", "ipv4_blocking_address", "ipv4_limit", "ipv6",
  "ipv6_blocking_address", "items", "last_activity_time_millis", "limit", "message", "mfa_token", "minutes", "name",
  "navigation", "network", "next", "page_cursor", "page_number", "pages", "parental_control_settings", "password",
  "prev", "protection_enabled", "queries", "redirect_uri", "refresh_token", "requests", "response_country",
  "response_type", "rules", "rules_count", "safebrowsing_settings", "screen_time_schedule", "search", "settings",
  "source", "source_url", "state", "stats", "statuses", "tags", "time_from_millis", "time_iso", "time_millis",
  "time_to_millis", "time_updated", "to_time", "token_type", "top_blocked_domain", "top_queries_domain", "type",
  "typosquatting_protection_enabled", "used", "user_rules", "user_rules_settings", "username", "value",
  "youtube_safe_search_enabled",
]);

const WORDS = new Map([...API_ERROR_CODES, ...OAUTH_ERROR_WORDS].map((w) => [w.toLowerCase(), w]));

/**
 * The documented spelling of a server's error word, or undefined when the word is not documented (and
 * so must not be shown).
 *
 * @example
 * ```ts
 * documentedWord("FIELD_REQUIRED"); // "FIELD_REQUIRED"
 * documentedWord("3f9a0c7e1b");     // undefined
 * ```
 */
export function documentedWord(value: unknown): string | undefined {
  return typeof value === "string" && value.length <= 40 ? WORDS.get(value.toLowerCase()) : undefined;
}

/**
 * True for a field path made of documented field names: `name`, `settings.name`, `items[0].name`.
 *
 * @example
 * ```ts
 * isDocumentedField("settings.protection_enabled"); // true
 * isDocumentedField("a1b2c3d4e5");                  // false
 * ```
 */
export function isDocumentedField(path: unknown): path is string {
  if (typeof path !== "string" || path.length === 0 || path.length > 200) return false;
  return path.split(".").every((part) => {
    const m = /^([a-z0-9_]+)((?:\[\d{1,6}\])*)$/.exec(part);
    return m !== null && FIELD_NAMES.has(m[1]!);
  });
}

/**
 * The server's `error` and `error_code`, lower-cased, for branching only (never for display).
 *
 * @example
 * ```ts
 * serverWords({ error: "unauthorized", error_code: "2FA_required" }); // "unauthorized 2fa_required"
 * ```
 */
export function serverWords(body: unknown): string {
  if (typeof body !== "object" || body === null) return "";
  const b = body as Record<string, unknown>;
  return [b.error, b.error_code].filter((w): w is string => typeof w === "string").join(" ").toLowerCase().slice(0, 200);
}
