import assert from "node:assert/strict";
import { request } from "undici";
import { DEFAULT_API_KEYS } from "../../../emulator";
import { _useEmulator } from "../../support/helpers";

describe("emulator: API keys (Authorization: ApiKey <key>)", () => {
  const emu = _useEmulator({ apiKeys: [...DEFAULT_API_KEYS, { key: "ci-Key-lowercase-secret", username: "ci@example.com" }] });
  const get = async (path: string, authorization: string) => {
    const res = await request(`${emu().url}${path}`, { headers: { authorization } });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
  };

  it("a seeded key works on every kind of API call and is counted", async () => {
    const key = DEFAULT_API_KEYS[0]!.key;
    const before = emu().stats.apiKeyCalls;
    assert.equal((await get("/oapi/v1/account/limits", `ApiKey ${key}`)).status, 200);
    assert.equal((await get("/oapi/v2/devices", `ApiKey ${key}`)).status, 200);
    assert.equal((await get("/oapi/v1/filter_lists", `apikey ${key}`)).status, 200, "scheme is case-insensitive");
    assert.equal(emu().stats.apiKeyCalls - before, 3);
    assert.equal(emu().stats.tokenCalls, 0, "an API key never needs the token endpoint");
  });

  it("a configured key acts as its user; the same account as that user's Bearer calls", async () => {
    const created = await request(`${emu().url}/oapi/v1/dns_servers`, {
      method: "POST",
      headers: { authorization: "ApiKey ci-Key-lowercase-secret", "content-type": "application/json" },
      body: JSON.stringify({ name: "CI" }),
    });
    assert.equal(created.statusCode, 200);
    await created.body.dump();
    const list = await get("/oapi/v1/dns_servers", "ApiKey ci-Key-lowercase-secret");
    assert.deepEqual(list.json.map((s: { name: string }) => s.name).sort(), ["CI", "Default server"]);
  });

  it("unknown and deleted keys get 401 invalid_api_key, and the body never echoes the key", async () => {
    const key = emu().addApiKey("user@example.com");
    assert.equal((await get("/oapi/v1/account/limits", `ApiKey ${key}`)).status, 200);
    emu().revokeApiKey(key);
    for (const k of [key, "nope"]) {
      const res = await get("/oapi/v1/account/limits", `ApiKey ${k}`);
      assert.equal(res.status, 401);
      assert.equal(res.json.error_code, "invalid_api_key");
      assert.equal(res.headers["www-authenticate"], 'ApiKey error="invalid_key"');
      assert.ok(!res.text.includes(k));
    }
  });
});
