/**
 * Every property of 1.15's DNS server settings the resources manage, each set to a value other than a
 * new server's (the emulator's defaults), as the API takes them: the export tests (the CLI's, and
 * tofu's of `--format hcl`) set them on a server and check that every one comes out.
 *
 * @example
 * ```ts
 * await dashboard.dnsServers.updateSettings(id, _EVERY_SETTINGS as never);
 * ```
 */
export const _EVERY_SETTINGS: Readonly<Record<string, any>> = {
  protection_enabled: false,
  ip_log_enabled: false,
  block_ttl_seconds: 42,
  block_private_relay: true,
  block_firefox_canary: false,
  block_chrome_prefetch: true,
  auto_connect_devices_enabled: true,
  blocking_mode_settings: { blocking_mode: "CUSTOM_IP", ipv4_blocking_address: "192.0.2.7", ipv6_blocking_address: "2001:db8::7" },
  user_rules_settings: { enabled: false, rules: ["||games.example^", "@@||school.example^", "! homework first"] },
  filter_lists_settings: { enabled: false, filter_list: [{ filter_id: "emulator_security", enabled: true }, { filter_id: "adguard_dns_filter", enabled: false }] },
  parental_control_settings: {
    enabled: true,
    block_adult_websites_enabled: true,
    engines_safe_search_enabled: true,
    youtube_safe_search_enabled: true,
    blocked_services: [{ id: "tiktok", enabled: true }, { id: "roblox", enabled: true }],
    blocked_filtering_categories: [{ id: "gambling", enabled: true }],
    screen_time_schedule: {
      daily_schedule: [
        { day_of_week: "MONDAY", enabled: true, from_time: { hours: 7, minutes: 30 }, to_time: { hours: 21, minutes: 0 } },
        { day_of_week: "SATURDAY", enabled: true, from_time: { hours: 9, minutes: 5 }, to_time: { hours: 22, minutes: 45 } },
      ],
    },
  },
  safebrowsing_settings: {
    enabled: false,
    block_dangerous_domains: false,
    block_nrd: true,
    typosquatting_protection_enabled: true,
    homoglyph_protection_enabled: true,
    blocking_mode_settings: { blocking_mode: "CUSTOM_IP", ipv4_blocking_address: "192.0.2.8", ipv6_blocking_address: "2001:db8::8" },
  },
  access_settings: { enabled: true, allowed_clients: ["192.0.2.0/24"], blocked_clients: ["198.51.100.1"], blocked_domain_rules: ["blocked.example"], block_known_scanners: false },
};
