import assert from "node:assert/strict";
import { _useEmulator } from "../support/helpers";
import { _api } from "./_api";

describe("emulator: devices (v2 pages, settings, DoH password, mobileconfig, dedicated IPv4)", () => {
  const emu = _useEmulator({ limits: { devices: 30, dedicated_ipv4: 2 } });
  const call = _api(emu);
  let servers: string[] = [];
  const ids: string[] = [];

  before(async () => {
    servers = [(await call("GET", "/oapi/v1/dns_servers")).json[0].id, (await call("POST", "/oapi/v1/dns_servers", { name: "Kids" })).json.id];
    for (let i = 0; i < 25; i++) {
      const d = await call("POST", "/oapi/v1/devices", { name: `${i % 2 ? "Phone" : "Laptop"} ${i}`, device_type: "LINUX", dns_server_id: servers[i % 2]! });
      ids.push(d.json.id);
    }
  });

  it("v2 walks every device once with opaque cursors, default 10 per page, prev links back", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await call("GET", `/oapi/v2/devices${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`);
      assert.equal(res.status, 200);
      seen.push(...res.json.items.map((d: { id: string }) => d.id));
      pages++;
      if (pages > 1) assert.equal(typeof res.json.navigation.prev.page_cursor, "string");
      cursor = res.json.navigation.next?.page_cursor;
      if (cursor) assert.doesNotMatch(cursor, /^\d+$/, "opaque");
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...ids].reverse(), "newest first, as the service lists");
  });

  it("v2 filters by repeated dns_servers and devices, and by search, and keeps the filter across pages", async () => {
    const kids = await call("GET", `/oapi/v2/devices?dns_servers=${servers[1]}&limit=1000`);
    assert.equal(kids.json.items.length, 12);
    const two = await call("GET", `/oapi/v2/devices?devices=${ids[0]}&devices=${ids[3]}`);
    assert.deepEqual(two.json.items.map((d: { id: string }) => d.id), [ids[3], ids[0]]);
    const phones = await call("GET", "/oapi/v2/devices?search=phone&limit=5");
    assert.equal(phones.json.items.length, 5);
    const next = phones.json.navigation.next.page_cursor as string;
    const other = await call("GET", `/oapi/v2/devices?search=laptop&cursor=${encodeURIComponent(next)}`);
    assert.equal(other.status, 400, "a cursor only continues its own listing");
    assert.equal(other.json.fields[0].field, "cursor");
    for (const limit of ["0", "1001", "x"]) {
      const bad = await call("GET", `/oapi/v2/devices?limit=${limit}`);
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.json.fields.map((f: { field: string }) => f.field), ["limit"]);
    }
    const forged = await call("GET", "/oapi/v2/devices?cursor=eyJvIjoxfQ.AAAAAAAAAAAAAAAAAAAAAA");
    assert.equal(forged.status, 400);
  });

  it("settings: get, update, validation naming the field; 404 for unknown devices", async () => {
    const id = ids[0]!;
    assert.deepEqual((await call("GET", `/oapi/v1/devices/${id}/settings`)).json, { protection_enabled: true, detect_doh_auth_only: false });
    assert.equal((await call("PUT", `/oapi/v1/devices/${id}/settings`, { detect_doh_auth_only: true, unknown: 1 })).status, 200);
    assert.deepEqual((await call("GET", `/oapi/v1/devices/${id}`)).json.settings, { protection_enabled: true, detect_doh_auth_only: true });
    const bad = await call("PUT", `/oapi/v1/devices/${id}/settings`, { protection_enabled: "yes" });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.json.fields.map((f: { field: string; error_code: string }) => [f.field, f.error_code]), [["protection_enabled", "FIELD_WRONG_VALUE"]]);
    assert.equal((await call("GET", "/oapi/v1/devices/missing/settings")).status, 404);
  });

  it("DoH password reset answers 200 with no body; only the with-auth addresses carry (and change with) the password", async () => {
    const before = (await call("GET", `/oapi/v1/devices/${ids[1]}`)).json.dns_addresses;
    const res = await call("PUT", `/oapi/v1/devices/${ids[1]}/doh_password/reset`);
    assert.equal(res.status, 200);
    assert.equal(res.bytes.length, 0);
    const after = (await call("GET", `/oapi/v1/devices/${ids[1]}`)).json.dns_addresses;
    const password = (a: Record<string, string>) => new URL(a.dns_over_https_with_auth_url!).password;
    assert.ok(password(before) && password(after) && password(before) !== password(after));
    for (const [k, v] of Object.entries(after)) {
      if (!k.endsWith("_with_auth_url")) assert.ok(!JSON.stringify(v).includes(password(after)), k);
    }
    assert.equal((await call("PUT", "/oapi/v1/devices/missing/doh_password/reset")).status, 404);
  });

  it("mobileconfig: a plist of bytes for DoH and DoT, with excluded Wi-Fi networks and domains (escaped)", async () => {
    const doh = await call("GET", `/oapi/v1/devices/${ids[2]}/doh.mobileconfig?exclude_wifi_networks=Home&exclude_wifi_networks=Caf%C3%A9%20%3C5G%3E&exclude_domain=corp.test`);
    assert.equal(doh.status, 200);
    assert.equal(doh.headers["content-type"], "application/x-apple-aspen-config");
    const xml = doh.bytes.toString("utf8");
    assert.match(xml, /^<\?xml/);
    assert.match(xml, /<key>DNSProtocol<\/key><string>HTTPS<\/string>/);
    assert.match(xml, /<string>Home<\/string><string>Café &#60;5G&#62;<\/string>/);
    assert.match(xml, /<string>corp\.test<\/string>/);
    const dot = await call("GET", `/oapi/v1/devices/${ids[2]}/dot.mobileconfig`);
    assert.match(dot.bytes.toString(), /<string>TLS<\/string><key>ServerName<\/key><string>[a-f0-9]+\.dns\.emulator\.invalid<\/string>/);
    assert.equal((await call("GET", "/oapi/v1/devices/missing/doh.mobileconfig")).status, 404);
  });

  it("dedicated IPv4: allocate within the quota (429 after), link, list, refuse a second device, unlink", async () => {
    const a = (await call("POST", "/oapi/v1/dedicated_addresses/ipv4")).json.ip as string;
    await call("POST", "/oapi/v1/dedicated_addresses/ipv4");
    const over = await call("POST", "/oapi/v1/dedicated_addresses/ipv4");
    assert.equal(over.status, 429);
    assert.equal(over.json.error_code, "RESOURCE_REACHED_LIMIT");
    assert.equal(over.json.fields[0].field, "dedicated_ipv4");
    assert.equal((await call("POST", `/oapi/v1/devices/${ids[0]}/dedicated_addresses/ipv4`, { ip: a })).status, 200);
    assert.deepEqual((await call("GET", `/oapi/v1/devices/${ids[0]}/dedicated_addresses`)).json, { ipv4: [a], ipv6: [], ipv4_limit: { limit: 2, used: 2 } });
    assert.ok((await call("GET", `/oapi/v1/devices/${ids[0]}`)).json.dns_addresses.ip_addresses.some((i: { ip_address: string }) => i.ip_address === a));
    assert.deepEqual((await call("GET", "/oapi/v1/dedicated_addresses/ipv4")).json[0], { ip: a, device_id: ids[0] });
    const taken = await call("POST", `/oapi/v1/devices/${ids[1]}/dedicated_addresses/ipv4`, { ip: a });
    assert.equal(taken.status, 400);
    assert.equal(taken.json.error_code, "ALREADY_EXISTS");
    const unknown = await call("POST", `/oapi/v1/devices/${ids[1]}/dedicated_addresses/ipv4`, { ip: "198.51.100.1" });
    assert.equal(unknown.status, 404, "an address never allocated is not found");
    assert.equal((await call("DELETE", `/oapi/v1/devices/${ids[1]}/dedicated_addresses/ipv4?ip=${a}`)).status, 404, "not linked to that device");
    assert.equal((await call("DELETE", `/oapi/v1/devices/${ids[0]}/dedicated_addresses/ipv4?ip=${a}`)).status, 200);
    assert.deepEqual((await call("GET", `/oapi/v1/devices/${ids[0]}/dedicated_addresses`)).json.ipv4, []);
  });

  it("a device over the quota gets 429 RESOURCE_REACHED_LIMIT naming the devices limit", async () => {
    for (let i = ids.length; i < 30; i++) await call("POST", "/oapi/v1/devices", { name: `x${i}`, device_type: "IOS", dns_server_id: servers[0]! });
    const over = await call("POST", "/oapi/v1/devices", { name: "one too many", device_type: "IOS", dns_server_id: servers[0]! });
    assert.equal(over.status, 429);
    assert.deepEqual(over.json, { error_code: "RESOURCE_REACHED_LIMIT", message: "The devices limit is reached", fields: [{ field: "devices", error_code: "FIELD_REACHED_LIMIT", message: "Limit reached" }] });
  });
});
