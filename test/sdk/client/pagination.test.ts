import assert from "node:assert/strict";
import { createClient, HttpError, ProtocolError, QuotaError } from "../../../sdk";
import { _rejects } from "../../support/helpers";
import { _staticTokens, _useFakeApi } from "../../support/fake-api";

// Client mechanics the emulator does not stage: cursor loops, a server without v2, odd bodies.

const addresses = Object.fromEntries(
  ["adguard_dns_over_https_url", "adguard_dns_over_quic_url", "adguard_dns_over_tls_url", "adguard_vpn_dns_over_https_url", "adguard_vpn_dns_over_quic_url", "adguard_vpn_dns_over_tls_url", "dns_over_https_url", "dns_over_quic_url", "dns_over_tls_url"].map((k) => [k, `https://d.example/${k}`]),
);
const device = (id: string, server = "s1") => ({
  id,
  name: `Device ${id}`,
  device_type: "LINUX",
  dns_server_id: server,
  dns_addresses: addresses,
  settings: { protection_enabled: true, detect_doh_auth_only: false },
});
const nav = (next?: string) => (next ? { next: { page_cursor: next, page_number: 2 } } : {});

describe("client pagination, bytes, paths and quotas (fake API on loopback)", () => {
  let v2 = true;
  let loop = false;
  let redirect = false;
  const other = _useFakeApi(() => ({ json: { openapi: "3.0.1", paths: {} } }));
  const api = _useFakeApi((req) => {
    if (req.path === "/oapi/v2/devices" && v2) {
      const cursor = req.query.get("cursor");
      if (loop) return { json: { items: [device("x")], navigation: nav("same") } };
      if (!cursor) return { json: { items: [device("a"), device("b")], navigation: nav("c2") } };
      if (cursor === "c2") return { json: { items: [device("c")], navigation: nav("c3") } };
      return { json: { items: [device("d", "s2")], navigation: {} } };
    }
    if (req.path === "/oapi/v1/devices" && req.method === "GET") {
      return { json: [device("a"), { ...device("b", "s2"), name: "Kitchen TV" }, device("c")].map(({ dns_addresses: _d, ...d }) => ({ ...d, dns_addresses: {} })) };
    }
    if (req.path === "/oapi/v1/devices" && req.method === "POST") {
      return req.body.includes('"rate"') ? { status: 429, headers: { "retry-after": "7" } } : { status: 429, json: { error_code: "RESOURCE_REACHED_LIMIT", fields: [] } };
    }
    if (req.path === "/oapi/v1/devices/a/doh.mobileconfig") {
      return { bytes: Buffer.from('<?xml version="1.0"?><plist/>'), contentType: "application/x-apple-aspen-config" };
    }
    if (req.path === "/oapi/v1/query_log") {
      const cursor = req.query.get("cursor") ?? "p1";
      const n = Number(cursor.slice(1));
      const pages = [1, 2, 3].map((i) => ({ current: i === n, page_cursor: `p${i}`, page_number: i }));
      return { json: { items: [], pages } };
    }
    if (req.path === "/swagger/openapi.json" && redirect) return { status: 302, headers: { location: `${other.url()}/swagger/openapi.json` } };
    if (req.path === "/static/swagger/openapi.json") {
      return { json: { openapi: "3.0.1", paths: { "/oapi/v1/account/limits": { get: { operationId: "getAccountLimits" } } } } };
    }
    if (req.path === "/oapi/v2/anything") return { json: { ok: true } };
    return undefined;
  });
  const make = () => createClient({ baseUrl: api.url(), credentials: _staticTokens(), retry: { retries: 0 } });
  beforeEach(() => {
    v2 = true;
    loop = false;
    redirect = false;
  });

  it("list() follows navigation.next across pages and sends array filters as repeated keys", async () => {
    const client = make();
    try {
      const all = await client.devices.list({ dns_servers: ["s1", "s2"], limit: 2, search: "dev" });
      assert.deepEqual(all.map((d) => d.id), ["a", "b", "c", "d"]);
      assert.deepEqual(api.seen.map((r) => r.query.get("cursor")), [null, "c2", "c3"]);
      for (const r of api.seen) {
        assert.equal(r.path, "/oapi/v2/devices");
        assert.deepEqual(r.query.getAll("dns_servers"), ["s1", "s2"]);
        assert.equal(r.query.get("limit"), "2");
        assert.equal(r.query.get("search"), "dev");
        assert.equal(r.headers.authorization, "Bearer fake-access-token");
      }
    } finally {
      await client.close();
    }
  });

  it("pages() yields each page as the server sent it", async () => {
    const client = make();
    try {
      const sizes: number[] = [];
      for await (const page of client.devices.pages()) sizes.push(page.items.length);
      assert.deepEqual(sizes, [2, 1, 1]);
    } finally {
      await client.close();
    }
  });

  it("a cursor sent twice is a ProtocolError, not an endless loop", async () => {
    loop = true;
    const client = make();
    try {
      const err = await _rejects(client.devices.list());
      assert.ok(err instanceof ProtocolError);
      assert.equal(err.field, "navigation.next");
      assert.equal(api.seen.length, 2);
    } finally {
      await client.close();
    }
  });

  it("falls back to v1 on a 404 from v2, applying the filters itself", async () => {
    v2 = false;
    const client = make();
    try {
      assert.deepEqual((await client.devices.list()).map((d) => d.id), ["a", "b", "c"]);
      assert.deepEqual((await client.devices.list({ dns_servers: ["s2"] })).map((d) => d.id), ["b"]);
      assert.deepEqual((await client.devices.list({ search: "kitchen" })).map((d) => d.id), ["b"]);
      assert.deepEqual((await client.devices.list({ devices: ["a", "c"] })).map((d) => d.id), ["a", "c"]);
      assert.deepEqual(api.seen.slice(0, 2).map((r) => r.path), ["/oapi/v2/devices", "/oapi/v1/devices"]);
    } finally {
      await client.close();
    }
  });

  it("returns a .mobileconfig as bytes (not refused as non-JSON) with exclusions as repeated keys", async () => {
    const client = make();
    try {
      const bytes = await client.devices.mobileConfig("a", { protocol: "doh", excludeWifiNetworks: ["Home", "Office"], excludeDomains: ["intranet.example"] });
      assert.ok(Buffer.isBuffer(bytes));
      assert.match(bytes.toString(), /^<\?xml/);
      const sent = api.seen.at(-1)!;
      assert.deepEqual(sent.query.getAll("exclude_wifi_networks"), ["Home", "Office"]);
      assert.deepEqual(sent.query.getAll("exclude_domain"), ["intranet.example"]);
      assert.equal((await _rejects(client.devices.mobileConfig("a", { protocol: "ikev2" as "doh" }))).field, "protocol");
    } finally {
      await client.close();
    }
  });

  it("a 429 on create names the quota (limit_reached); a rate-limit 429 stays an HttpError", async () => {
    const client = make();
    try {
      const err = await _rejects(client.devices.create({ name: "n", device_type: "LINUX", dns_server_id: "s1" }));
      assert.ok(err instanceof QuotaError);
      assert.equal(err.code, "limit_reached");
      assert.equal((err as QuotaError).limit, "devices");
      assert.match(err.message, /"devices" quota/);
      assert.equal(JSON.parse(JSON.stringify(err)).limit, "devices");
      const rate = await _rejects(client.devices.create({ name: "rate", device_type: "LINUX", dns_server_id: "s1" }));
      assert.ok(rate instanceof HttpError && !(rate instanceof QuotaError));
      assert.equal(rate.code, "http_429");
    } finally {
      await client.close();
    }
  });

  it("queryLog.pages() walks to the page after the current one until there is none", async () => {
    const client = make();
    try {
      let n = 0;
      for await (const _ of client.queryLog.pages({ time_from_millis: 0, time_to_millis: 1 })) n++;
      assert.equal(n, 3);
      assert.deepEqual(api.seen.map((r) => r.query.get("cursor")), [null, "p2", "p3"]);
      assert.equal(api.seen[0]!.query.get("time_from_millis"), "0");
    } finally {
      await client.close();
    }
  });

  it("request() reaches /oapi/v2 and refuses dot segments, queries and fragments in the path; ids . and .. are refused", async () => {
    const client = make();
    try {
      assert.deepEqual(await client.request({ path: "/oapi/v2/anything" }), { ok: true });
      for (const path of ["/../../x", "/devices/%2e%2e/x", "/a?b=1", "/a#f", "/a\\b", "/oapi/v2/.."]) {
        const err = await _rejects(client.request({ path }));
        assert.equal(err.field, "path", path);
      }
      for (const id of ["", ".", ".."]) assert.equal((await _rejects(client.devices.get(id))).field, "id");
      assert.equal(api.seen.length, 1);
    } finally {
      await client.close();
    }
  });

  it("operations() falls back to /static/swagger/openapi.json on a 404", async () => {
    const client = make();
    try {
      assert.deepEqual((await client.operations()).map((o) => o.operationId), ["getAccountLimits"]);
      assert.deepEqual(api.seen.map((r) => r.path), ["/swagger/openapi.json", "/static/swagger/openapi.json"]);
    } finally {
      await client.close();
    }
  });

  it("operations() never follows a redirect to another origin", async () => {
    redirect = true;
    const client = make();
    try {
      assert.equal((await _rejects(client.operations())).code, "http_302");
      assert.equal(other.seen.length, 0);
    } finally {
      await client.close();
    }
  });
});
