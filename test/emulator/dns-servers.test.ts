import assert from "node:assert/strict";
import { _useEmulator } from "../support/helpers";
import { _api } from "./_api";

describe("emulator: DNS servers (v2 pages, the settings model, rule quotas)", () => {
  const emu = _useEmulator({ limits: { dns_servers: 20, user_rules: 5, access_rules: 3 } });
  const call = _api(emu);
  let def = "";
  before(async () => {
    def = (await call("GET", "/oapi/v1/dns_servers")).json[0].id;
  });

  it("v1 items carry devices_count beside the deprecated device_ids; v2 pages with search and filters", async () => {
    const d = await call("POST", "/oapi/v1/devices", { name: "TV", device_type: "SMART_TV", dns_server_id: def });
    const one = (await call("GET", `/oapi/v1/dns_servers/${def}`)).json;
    assert.equal(one.devices_count, 1);
    assert.deepEqual(one.device_ids, [d.json.id]);
    for (let i = 0; i < 12; i++) await call("POST", "/oapi/v1/dns_servers", { name: `Branch ${i}` });
    const first = await call("GET", "/oapi/v2/dns_servers?search=branch&limit=10");
    assert.equal(first.json.items.length, 10);
    assert.equal(first.json.navigation.next.page_number, 2);
    const second = await call("GET", `/oapi/v2/dns_servers?search=branch&limit=10&cursor=${encodeURIComponent(first.json.navigation.next.page_cursor)}`);
    assert.equal(second.json.items.length, 2);
    assert.equal(second.json.navigation.next, undefined);
    assert.equal(second.json.navigation.prev.page_number, 1);
    const only = await call("GET", `/oapi/v2/dns_servers?dns_servers=${def}`);
    assert.deepEqual(only.json.items.map((s: { id: string }) => s.id), [def]);
  });

  it("settings: a partial update merges (schedule by weekday), list items get enabled=true, GET shows the whole model", async () => {
    const res = await call("PUT", `/oapi/v1/dns_servers/${def}/settings`, {
      block_ttl_seconds: 3600,
      blocking_mode_settings: { blocking_mode: "CUSTOM_IP", ipv4_blocking_address: "192.0.2.1" },
      filter_lists_settings: { filter_list: [{ filter_id: "emulator_security" }] },
      parental_control_settings: {
        enabled: true,
        blocked_services: [{ id: "tiktok" }],
        blocked_filtering_categories: [{ id: "gambling" }],
        screen_time_schedule: { daily_schedule: [{ day_of_week: "SUNDAY", enabled: true, from_time: { hours: 8, minutes: 0 } }] },
      },
      user_rules_settings: { rules: ["||a.test^", "||b.test^"] },
    });
    assert.equal(res.status, 200);
    const s = (await call("GET", `/oapi/v1/dns_servers/${def}/settings`)).json;
    assert.equal(s.block_ttl_seconds, 3600);
    assert.equal(s.safebrowsing_settings.enabled, true, "untouched parts stay");
    assert.deepEqual(s.filter_lists_settings.filter_list, [{ filter_id: "emulator_security", enabled: true }]);
    assert.deepEqual(s.parental_control_settings.blocked_services, [{ id: "tiktok", enabled: true }]);
    assert.equal(s.parental_control_settings.blocked_filtering_categories, undefined, "update-only field not shown");
    const days = s.parental_control_settings.screen_time_schedule.daily_schedule;
    assert.equal(days.length, 7);
    assert.deepEqual(days[6], { day_of_week: "SUNDAY", enabled: true, from_time: { hours: 8, minutes: 0 }, to_time: { hours: 23, minutes: 59 } });
    assert.equal(s.user_rules_settings.rules_count, 2);
    assert.equal((await call("GET", "/oapi/v1/account/limits")).json.user_rules.used, 2);
  });

  it("validation names each field path with FIELD_REQUIRED / FIELD_WRONG_VALUE, and changes nothing", async () => {
    const before = (await call("GET", `/oapi/v1/dns_servers/${def}/settings`)).json;
    const bad = await call("PUT", `/oapi/v1/dns_servers/${def}/settings`, {
      block_ttl_seconds: 3601,
      blocking_mode_settings: { blocking_mode: "SINKHOLE" },
      access_settings: { blocked_domain_rules: ["x".repeat(1025)] },
      parental_control_settings: { screen_time_schedule: { daily_schedule: [{ enabled: true, from_time: { hours: 24, minutes: 0 } }] } },
      filter_lists_settings: { filter_list: [{ enabled: true }] },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error_code, "BAD_REQUEST");
    assert.deepEqual(bad.json.fields.map((f: { field: string; error_code: string }) => `${f.field} ${f.error_code}`).sort(), [
      "access_settings.blocked_domain_rules[0] FIELD_WRONG_VALUE",
      "block_ttl_seconds FIELD_WRONG_VALUE",
      "blocking_mode_settings.blocking_mode FIELD_WRONG_VALUE",
      "filter_lists_settings.filter_list[0].filter_id FIELD_REQUIRED",
      "parental_control_settings.screen_time_schedule.daily_schedule[0].day_of_week FIELD_REQUIRED",
      "parental_control_settings.screen_time_schedule.daily_schedule[0].from_time.hours FIELD_WRONG_VALUE",
    ]);
    assert.ok(!JSON.stringify(bad.json).includes("xxxxxxxx"), "never echoes values");
    const refs = await call("PUT", `/oapi/v1/dns_servers/${def}/settings`, {
      filter_lists_settings: { filter_list: [{ filter_id: "no_such_list" }] },
      parental_control_settings: { blocked_services: [{ id: "no_such_service" }] },
      blocking_mode_settings: { blocking_mode: "CUSTOM_IP", ipv4_blocking_address: "::1" },
    });
    assert.deepEqual(refs.json.fields.map((f: { field: string }) => f.field), [
      "filter_lists_settings.filter_list[0].filter_id",
      "parental_control_settings.blocked_services[0].id",
      "blocking_mode_settings.ipv4_blocking_address",
    ]);
    assert.deepEqual((await call("GET", `/oapi/v1/dns_servers/${def}/settings`)).json, before);
    assert.equal((await call("PUT", "/oapi/v1/dns_servers/missing/settings", {})).status, 404);
  });

  it("user rules and access rules count against the account's limits (FIELD_REACHED_LIMIT), across servers", async () => {
    const rules = (n: number) => Array.from({ length: n }, (_, i) => `||r${i}.test^`);
    const other = (await call("POST", "/oapi/v1/dns_servers", { name: "Rules", settings: { user_rules_settings: { rules: rules(3) } } })).json.id;
    const over = await call("PUT", `/oapi/v1/dns_servers/${other}/settings`, { user_rules_settings: { rules: rules(4) } });
    assert.equal(over.status, 400);
    assert.deepEqual(over.json.fields.map((f: { field: string; error_code: string }) => [f.field, f.error_code]), [["user_rules_settings.rules", "FIELD_REACHED_LIMIT"]]);
    const onCreate = await call("POST", "/oapi/v1/dns_servers", { name: "More", settings: { access_settings: { blocked_clients: ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"] } } });
    assert.deepEqual(onCreate.json.fields.map((f: { field: string }) => f.field), ["settings.access_settings"]);
  });
});
