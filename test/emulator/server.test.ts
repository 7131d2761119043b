import assert from "node:assert/strict";
import { Client } from "undici";
import { _useEmulator } from "../support/helpers";
import { _api } from "./_api";

describe("emulator: server (keep-alive, routing, request quota)", () => {
  const emu = _useEmulator({ limits: { requests: 600 } });
  const call = _api(emu);

  it("an undici client reuses one connection for 500 sequential calls", async () => {
    const before = emu().stats.connections;
    const client = new Client(emu().url);
    try {
      for (let i = 0; i < 500; i++) {
        const res = await client.request({ method: "GET", path: "/oapi/v1/account/limits", headers: { authorization: "ApiKey emulator-api-key-user" } });
        assert.equal(res.statusCode, 200);
        await res.body.dump();
      }
    } finally {
      await client.close();
    }
    assert.equal(emu().stats.connections - before, 1);
  });

  it("401 before 405 on API paths; 405 with Allow on public ones; 404 elsewhere", async () => {
    assert.equal((await call("PATCH", "/oapi/v1/devices")).status, 405);
    const anon = await _api(emu, "nope")("PATCH", "/oapi/v1/devices");
    assert.equal(anon.status, 401);
    const token = await _api(emu)("GET", "/oapi/v1/oauth_token");
    assert.equal(token.status, 405);
    assert.equal(token.headers.allow, "POST");
    assert.equal((await call("GET", "/oapi/v1/nothing")).status, 404);
    assert.equal((await call("GET", "/oapi/v1/devices/%E0%A4%A")).status, 404, "a malformed escape is not found, not a crash");
  });

  it("past the requests limit, calls get 429 TOO_MANY_REQUESTS", async () => {
    let res = await call("GET", "/oapi/v1/account/limits");
    while (res.status === 200) res = await call("GET", "/oapi/v1/account/limits");
    assert.equal(res.status, 429);
    assert.equal(res.json.error_code, "TOO_MANY_REQUESTS");
    assert.equal(emu().stats.apiCalls > 600, true);
  });
});
