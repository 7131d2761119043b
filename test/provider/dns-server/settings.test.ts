import assert from "node:assert/strict";
import { checkSettings, drift, effective, programField, project, toServiceUpdate } from "../../../provider/dns-server/settings";

const live = {
  protection_enabled: true,
  ip_log_enabled: true,
  block_ttl_seconds: 10,
  block_private_relay: false,
  block_firefox_canary: false,
  block_chrome_prefetch: false,
  auto_connect_devices_enabled: false,
  blocking_mode_settings: { blocking_mode: "NULL_IP" },
  user_rules_settings: { enabled: true, rules: ["||a.example^"], rules_count: 1 },
  filter_lists_settings: {
    enabled: true,
    filter_list: [
      { filter_id: "adguard_dns_filter", enabled: true },
      { filter_id: "old_list", enabled: true },
      { filter_id: "off_list", enabled: false },
    ],
  },
  parental_control_settings: {
    enabled: false,
    block_adult_websites_enabled: false,
    engines_safe_search_enabled: false,
    youtube_safe_search_enabled: false,
    blocked_services: [{ id: "tiktok", enabled: true }],
    screen_time_schedule: {
      daily_schedule: [
        { day_of_week: "MONDAY", enabled: true, from_time: { hours: 9, minutes: 0 }, to_time: { hours: 17, minutes: 30 } },
        { day_of_week: "TUESDAY", enabled: false, from_time: { hours: 0, minutes: 0 }, to_time: { hours: 0, minutes: 0 } },
      ],
    },
  },
  safebrowsing_settings: {
    enabled: true,
    block_dangerous_domains: true,
    block_nrd: false,
    typosquatting_protection_enabled: false,
    homoglyph_protection_enabled: false,
    blocking_mode_settings: { blocking_mode: "NULL_IP" },
  },
  access_settings: { enabled: true, allowed_clients: [], blocked_clients: ["1.2.3.4"], blocked_domain_rules: [], block_known_scanners: true },
};

describe("DnsServer settings mapping", () => {
  it("sends only the declared settings, under the service's field names", () => {
    const update = toServiceUpdate({ protectionEnabled: false, safeBrowsing: { homoglyph: true }, userRules: { rules: ["@@||b.example^"] } });
    assert.deepEqual(update, {
      protection_enabled: false,
      safebrowsing_settings: { homoglyph_protection_enabled: true },
      user_rules_settings: { rules: ["@@||b.example^"] },
    });
  });

  it("enables the declared lists and services and disables every other enabled one", () => {
    const update = toServiceUpdate({ filterLists: { ids: ["adguard_dns_filter", "new_list"] }, blockedServices: ["youtube"] }, live);
    assert.deepEqual(update, {
      filter_lists_settings: {
        filter_list: [
          { filter_id: "adguard_dns_filter", enabled: true },
          { filter_id: "new_list", enabled: true },
          { filter_id: "old_list", enabled: false },
        ],
      },
      parental_control_settings: { blocked_services: [{ id: "youtube", enabled: true }, { id: "tiktok", enabled: false }] },
    });
  });

  it("writes a schedule for all seven days, the undeclared ones disabled, and reads it back", () => {
    const update = toServiceUpdate({ parentalControl: { schedule: { monday: { from: "09:00", to: "17:30" } } } });
    const week = (update.parental_control_settings as { screen_time_schedule: { daily_schedule: unknown[] } }).screen_time_schedule;
    assert.equal(week.daily_schedule.length, 7);
    assert.deepEqual(week.daily_schedule[0], { day_of_week: "MONDAY", enabled: true, from_time: { hours: 9, minutes: 0 }, to_time: { hours: 17, minutes: 30 } });
    assert.deepEqual(week.daily_schedule[6], { day_of_week: "SUNDAY", enabled: false });
    assert.deepEqual(project({ parentalControl: { schedule: {} } }, live).parentalControl?.schedule, { monday: { from: "09:00", to: "17:30" } });
  });

  it("projects only declared settings and reports drift by setting name", () => {
    const declared = { protectionEnabled: true, blockTtlSeconds: 3600, access: { blockedClients: ["1.2.3.4"] }, filterLists: { ids: ["adguard_dns_filter"] } };
    const seen = project(declared, live);
    assert.deepEqual(seen, { protectionEnabled: true, blockTtlSeconds: 10, access: { blockedClients: ["1.2.3.4"] }, filterLists: { ids: ["adguard_dns_filter", "old_list"] } });
    assert.deepEqual(drift(declared, seen), ["settings.blockTtlSeconds", "settings.filterLists.ids"]);
    assert.deepEqual(drift({ ipLogEnabled: true }, project({ ipLogEnabled: true }, live)), []);
  });

  it("compares id lists as sets, keeping the declared order when they match", () => {
    const declared = { access: { blockedClients: ["b", "a"] } };
    const seen = project(declared, { access_settings: { blocked_clients: ["a", "b", "a"] } });
    assert.deepEqual(seen, declared);
    assert.deepEqual(drift(declared, seen), []);
  });

  it("keeps the declared value of a setting the service does not report (no false drift)", () => {
    const declared = { blockedCategories: ["gambling"] };
    assert.deepEqual(drift(declared, project(declared, live)), []);
  });

  it("reports the whole effective model camelCased", () => {
    const all = effective(live);
    assert.equal(all.blockTtlSeconds, 10);
    assert.deepEqual(all.blockedServices, ["tiktok"]);
    assert.deepEqual(all.filterLists, { enabled: true, ids: ["adguard_dns_filter", "old_list"] });
    assert.deepEqual(all.blockingMode, { mode: "NULL_IP" });
  });

  it("check names the setting at fault and never echoes values", () => {
    const unknown = (v: unknown) => v === "UNKNOWN";
    const problems = checkSettings(
      { blockTtlSeconds: 4000, protectionEnabled: "yes-secret", nope: 1, blockingMode: { mode: "LOUD" }, parentalControl: { schedule: { funday: {} } } },
      unknown,
    );
    const names = problems.map(([p]) => p).sort();
    assert.deepEqual(names, ["settings.blockTtlSeconds", "settings.blockingMode.mode", "settings.nope", "settings.parentalControl.schedule", "settings.protectionEnabled"]);
    for (const [, reason] of problems) assert.ok(!reason.includes("yes-secret") && !reason.includes("LOUD"));
    assert.deepEqual(checkSettings({ protectionEnabled: "UNKNOWN", userRules: { rules: ["UNKNOWN", "x"] } }, unknown), []);
    assert.deepEqual(checkSettings("UNKNOWN", unknown), []);
  });

  it("manages access.enabled and safe browsing's own blocking mode (issue 22 §3)", () => {
    const declared = { access: { enabled: false }, safeBrowsing: { blockingMode: { mode: "CUSTOM_IP" as const, ipv4: "192.0.2.9" } } };
    assert.deepEqual(toServiceUpdate(declared, live), {
      access_settings: { enabled: false },
      safebrowsing_settings: { blocking_mode_settings: { blocking_mode: "CUSTOM_IP", ipv4_blocking_address: "192.0.2.9" } },
    });
    // The service requires blocking_mode with any blocking_mode_settings: taken from what it has.
    assert.deepEqual(toServiceUpdate({ safeBrowsing: { blockingMode: { ipv6: "2001:db8::9" } as never } }, live), {
      safebrowsing_settings: { blocking_mode_settings: { blocking_mode: "NULL_IP", ipv6_blocking_address: "2001:db8::9" } },
    });
    assert.deepEqual(drift(declared, project(declared, live)), ["settings.access.enabled", "settings.safeBrowsing.blockingMode.mode"]);
    const all = effective(live);
    assert.equal(all.access?.enabled, true);
    assert.deepEqual(all.safeBrowsing?.blockingMode, { mode: "NULL_IP" });
    const problems = checkSettings({ safeBrowsing: { blockingMode: { mode: "LOUD", ipv4: "::1" } } }, () => false).map(([p]) => p).sort();
    assert.deepEqual(problems, ["settings.safeBrowsing.blockingMode.ipv4", "settings.safeBrowsing.blockingMode.mode"]);
    assert.equal(programField("safebrowsing_settings.blocking_mode_settings.ipv4_blocking_address"), "settings.safeBrowsing.blockingMode.ipv4");
    assert.equal(programField("access_settings.enabled"), "settings.access.enabled");
  });
});
