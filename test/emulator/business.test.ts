import assert from "node:assert/strict";
import { request } from "undici";
import { issueToken } from "../../sdk";
import { _useEmulator, USER } from "../support/helpers";

describe("emulator business endpoints", () => {
  const emu = _useEmulator({ limits: { devices: 2 } });
  let token = "";
  before(async () => {
    token = (await issueToken({ baseUrl: emu().url, ...USER })).accessToken;
  });

  async function call(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown, auth = `Bearer ${token}`) {
    const res = await request(`${emu().url}/oapi/v1${path}`, {
      method,
      headers: { authorization: auth, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? null : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, json: text ? JSON.parse(text) : undefined };
  }

  it("refuses missing, unknown and expired bearer tokens with 401 and the error shape", async () => {
    for (const auth of ["", "Bearer nope", "Basic abc"]) {
      const res = await call("GET", "/account/limits", undefined, auth);
      assert.equal(res.status, 401);
      assert.equal(res.headers["www-authenticate"], 'Bearer error="invalid_token"');
      assert.deepEqual(Object.keys(res.json).sort(), ["error", "error_code", "error_description"]);
    }
    const mine = await issueToken({ baseUrl: emu().url, ...USER });
    emu().expireAccessTokens();
    const expired = await call("GET", "/account/limits", undefined, `Bearer ${mine.accessToken}`);
    assert.equal(expired.json.error_code, "token_expired");
    token = (await issueToken({ baseUrl: emu().url, ...USER })).accessToken;
  });

  it("GET /account/limits shows limits and use", async () => {
    const res = await call("GET", "/account/limits");
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.json).sort(), ["access_rules", "dedicated_ipv4", "devices", "dns_servers", "requests", "user_rules"]);
    assert.deepEqual(res.json.devices, { limit: 2, used: 0 });
  });

  it("DNS servers: a default one, create, get, update, list, delete; the default cannot be removed", async () => {
    const list = await call("GET", "/dns_servers");
    assert.equal(list.json.length, 1);
    const def = list.json[0];
    assert.equal(def.default, true);
    const created = await call("POST", "/dns_servers", { name: "Kids", settings: { protection_enabled: false } });
    assert.equal(created.status, 200);
    assert.equal(created.json.settings.protection_enabled, false);
    assert.equal(created.json.settings.safebrowsing_settings.enabled, true);
    assert.equal((await call("PUT", `/dns_servers/${created.json.id}`, { name: "Children" })).status, 200);
    assert.equal((await call("GET", `/dns_servers/${created.json.id}`)).json.name, "Children");
    const bad = await call("DELETE", `/dns_servers/${def.id}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error_code, "BAD_REQUEST");
    assert.equal((await call("DELETE", `/dns_servers/${created.json.id}`)).status, 200);
    assert.equal((await call("GET", `/dns_servers/${created.json.id}`)).status, 404);
  });

  it("devices: create, get, update, list, delete, quota (429) and validation errors", async () => {
    const def = (await call("GET", "/dns_servers")).json[0];
    const a = await call("POST", "/devices", { name: "Phone", device_type: "ANDROID", dns_server_id: def.id });
    assert.equal(a.status, 200);
    assert.equal(a.json.dns_server_id, def.id);
    assert.match(a.json.dns_addresses.dns_over_https_url, /^https:\/\//);
    assert.deepEqual((await call("GET", `/dns_servers/${def.id}`)).json.device_ids, [a.json.id]);
    assert.equal((await call("PUT", `/devices/${a.json.id}`, { name: "Pixel" })).status, 200);
    assert.equal((await call("GET", `/devices/${a.json.id}`)).json.name, "Pixel");
    await call("POST", "/devices", { name: "Laptop", device_type: "LINUX", dns_server_id: def.id });
    assert.equal((await call("POST", "/devices", { name: "TV", device_type: "SMART_TV", dns_server_id: def.id })).status, 429);
    assert.equal((await call("GET", "/devices")).json.length, 2);

    const invalid = await call("POST", "/devices", { name: "", device_type: "TOASTER" });
    assert.equal(invalid.status, 400);
    assert.deepEqual(invalid.json.fields.map((f: { field: string; error_code: string }) => [f.field, f.error_code]), [
      ["name", "FIELD_WRONG_VALUE"],
      ["device_type", "FIELD_WRONG_VALUE"],
      ["dns_server_id", "FIELD_REQUIRED"],
    ]);
    assert.equal((await call("POST", "/devices", "{oops")).json.error_code, "BAD_REQUEST");
    assert.equal((await call("DELETE", `/devices/${a.json.id}`)).status, 200);
    assert.equal((await call("DELETE", `/devices/${a.json.id}`)).status, 404);
    assert.equal((await call("PUT", "/devices/missing", { name: "x" })).status, 404);
    assert.equal((await call("PATCH" as "PUT", "/devices")).status, 405);
  });

  it("serves its OpenAPI description without authentication", async () => {
    const res = await request(`${emu().url}/static/swagger/openapi.json`);
    const doc = (await res.body.json()) as { openapi: string; paths: Record<string, unknown>; servers: { url: string }[] };
    assert.equal(res.statusCode, 200);
    assert.match(doc.openapi, /^3\./);
    assert.equal(doc.servers[0]!.url, emu().url);
    assert.ok(doc.paths["/oapi/v1/devices/{device_id}"]);
  });
});
