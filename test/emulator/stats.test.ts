import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../emulator";
import { traffic } from "../../emulator/stats/traffic";
import { _api } from "./_api";

describe("emulator: query log and statistics from seeded synthetic traffic", () => {
  const NOW = Date.UTC(2026, 10, 1, 12);
  const DAY = 86_400_000;
  let emu: Emulator;
  let now = NOW;
  const call = _api(() => emu);
  const window = `time_from_millis=${NOW - DAY}&time_to_millis=${NOW}`;
  let devices: string[] = [];
  before(async () => {
    emu = await startEmulator({ now: () => now, trafficSeed: 7 });
    const server = (await call("GET", "/oapi/v1/dns_servers")).json[0].id;
    for (const name of ["A", "B"]) devices.push((await call("POST", "/oapi/v1/devices", { name, device_type: "IOS", dns_server_id: server })).json.id);
    devices = devices.sort();
  });
  after(() => emu.close());

  it("the generator is deterministic for a seed and independent of the window that asks", () => {
    const devs = [{ id: "a", dns_server_id: "s" }, { id: "b", dns_server_id: "s" }];
    const day = traffic(7, devs, NOW - DAY, NOW, NOW);
    assert.deepEqual(traffic(7, devs, NOW - DAY, NOW, NOW), day);
    assert.notDeepEqual(traffic(8, devs, NOW - DAY, NOW, NOW), day);
    const hour = traffic(7, devs, NOW - 3_600_000, NOW, NOW);
    assert.deepEqual(hour, day.filter((q) => q.time_millis >= NOW - 3_600_000));
    assert.deepEqual(traffic(7, devs, NOW, NOW + DAY, NOW).filter((q) => q.time_millis > NOW), [], "no future traffic");
    assert.deepEqual(traffic(7, [], NOW - DAY, NOW, NOW), [], "no devices, no traffic");
  });

  it("query log pages cover the window once, newest first, and filters apply", async () => {
    const all: { time_millis: number; device_id: string; filtering_info: { filtering_status: string } }[] = [];
    let cursor: string | undefined;
    do {
      const res = await call("GET", `/oapi/v1/query_log?${window}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      assert.equal(res.status, 200);
      all.push(...res.json.items);
      assert.equal(res.json.pages.filter((p: { current: boolean }) => p.current).length, 1);
      cursor = res.json.pages.find((p: { current: boolean; page_number: number }, i: number, pages: { current: boolean }[]) => !p.current && i > pages.findIndex((x) => x.current))?.page_cursor;
    } while (cursor);
    assert.ok(all.length > 100);
    assert.deepEqual(all.map((q) => q.time_millis), [...all.map((q) => q.time_millis)].sort((a, b) => b - a));
    const blocked = await call("GET", `/oapi/v1/query_log?${window}&limit=1000&statuses=REQUEST_BLOCKED&devices=${devices[0]}`);
    assert.ok(blocked.json.items.length > 0);
    for (const q of blocked.json.items) {
      assert.equal(q.filtering_info.filtering_status, "REQUEST_BLOCKED");
      assert.equal(q.device_id, devices[0]);
    }
    const stats = (await call("GET", `/oapi/v1/stats/devices?${window}`)).json.stats;
    assert.equal(stats.reduce((n: number, s: { value: { queries: number } }) => n + s.value.queries, 0), all.length, "stats agree with the log");
  });

  it("stats rank and paginate; time buckets hourly over a day; bad windows are 400", async () => {
    const domains = await call("GET", `/oapi/v1/stats/domains?${window}&limit=3`);
    assert.equal(domains.json.stats.length, 3);
    const q = domains.json.stats.map((s: { value: { queries: number } }) => s.value.queries);
    assert.deepEqual(q, [...q].sort((a: number, b: number) => b - a));
    const next = await call("GET", `/oapi/v1/stats/domains?${window}&limit=3&cursor=${encodeURIComponent(domains.json.navigation.next.page_cursor)}`);
    assert.equal(next.status, 200);
    assert.equal(next.json.navigation.prev.page_number, 1);
    const time = await call("GET", `/oapi/v1/stats/time?${window}`);
    assert.equal(time.json.stats.length, 25);
    for (const [query, field] of [
      ["time_to_millis=1", "time_from_millis"],
      [`time_from_millis=${NOW}&time_to_millis=${NOW - 1}`, "time_from_millis"],
      [`time_from_millis=0&time_to_millis=${NOW}`, "time_from_millis"],
    ]) {
      const bad = await call("GET", `/oapi/v1/stats/countries?${query}`);
      assert.equal(bad.status, 400, query);
      assert.equal(bad.json.fields[0].field, field);
    }
  });

  it("clearing the query log answers 202 and hides what came before; stats keep counting", async () => {
    assert.equal((await call("DELETE", "/oapi/v1/query_log")).status, 202);
    assert.deepEqual((await call("GET", `/oapi/v1/query_log?${window}`)).json.items, []);
    assert.ok((await call("GET", `/oapi/v1/stats/categories?${window}`)).json.stats.length > 0);
    now = NOW + DAY;
    const later = await call("GET", `/oapi/v1/query_log?time_from_millis=${NOW}&time_to_millis=${NOW + DAY}`);
    assert.ok(later.json.items.length > 0, "new traffic appears after the clear");
  });
});
