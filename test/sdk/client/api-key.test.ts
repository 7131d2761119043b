import assert from "node:assert/strict";
import { inspect } from "node:util";
import { ConfigError, createClient, InvalidApiKeyError, resetSharedSessions, sharedClient } from "../../../sdk";
import { _assertNoSecrets, _errorText, _rejects, _useEmulator } from "../../support/helpers";
import { _useFakeApi } from "../../support/fake-api";

const KEY = "apikey-0f1e2d3c4b5a69788796a5b4c3d2e1f0";
const LOWER_KEY = "lowercase-api-key-abcdefabcdef";

describe("createClient({ apiKey })", () => {
  let refuse = false;
  const api = _useFakeApi((req) => {
    if (req.path.endsWith("/oauth_token") || req.path.endsWith("/revoke_token")) return { status: 500 };
    if (refuse) return { status: 401, json: { error: "unauthorized", error_code: "invalid_api_key" } };
    if (req.path === "/oapi/v1/account/limits") {
      const l = { limit: 10, used: 1 };
      return { json: { access_rules: l, dedicated_ipv4: l, devices: l, dns_servers: l, requests: l, user_rules: l } };
    }
    return undefined;
  });
  beforeEach(() => {
    refuse = false;
  });
  after(() => resetSharedSessions());

  it("sends Authorization: ApiKey <key> on every call and never calls a token endpoint", async () => {
    const client = createClient({ baseUrl: api.url(), apiKey: KEY });
    try {
      await client.account.limits();
      await client.account.limits();
      assert.deepEqual(api.seen.map((r) => [r.path, r.headers.authorization]), [
        ["/oapi/v1/account/limits", `ApiKey ${KEY}`],
        ["/oapi/v1/account/limits", `ApiKey ${KEY}`],
      ]);
      assert.equal(client.authMode, "apiKey");
      assert.throws(() => client.session, ConfigError);
    } finally {
      await client.close();
    }
  });

  it("a 401 is terminal: invalid_api_key, no refresh, and no further call with the key", async () => {
    refuse = true;
    const client = createClient({ baseUrl: api.url(), apiKey: KEY, retry: { retries: 3, baseDelayMs: 1 } });
    try {
      const first = await _rejects(client.account.limits());
      assert.ok(first instanceof InvalidApiKeyError);
      assert.equal(first.code, "invalid_api_key");
      assert.equal(first.status, 401);
      const second = await _rejects(client.account.limits());
      assert.equal(second.code, "invalid_api_key");
      assert.equal(api.seen.length, 1, "one call; no token call, no replay, no retry");
      _assertNoSecrets(_errorText(first) + _errorText(second), [KEY]);
    } finally {
      await client.close();
    }
  });

  it("refuses to send the key to a token, revoke or authorize endpoint", async () => {
    const client = createClient({ baseUrl: api.url(), apiKey: KEY });
    try {
      for (const path of ["/oauth_token", "/revoke_token", "/oauth_authorize", "/oapi/v1/oauth_token"]) {
        const err = await _rejects(client.request({ method: "POST", path }));
        assert.ok(err instanceof ConfigError, path);
      }
      assert.equal(api.seen.length, 0);
    } finally {
      await client.close();
    }
  });

  it("checks the key and the choice of credentials, naming the option and never the value", () => {
    for (const bad of ["", "has space", "line\nbreak", 42 as unknown as string]) {
      assert.throws(
        () => createClient({ baseUrl: api.url(), apiKey: bad }),
        (e: unknown) => e instanceof ConfigError && e.field === "apiKey" && (typeof bad !== "string" || bad === "" || !e.message.includes(bad)),
      );
    }
    assert.throws(() => createClient({ baseUrl: api.url(), apiKey: KEY, credentials: { refreshToken: "r" } }), { field: "credentials" });
  });

  it("keeps the key out of util.inspect and JSON, including lowercase keys", async () => {
    for (const key of [KEY, LOWER_KEY]) {
      const client = createClient({ baseUrl: api.url(), apiKey: key });
      _assertNoSecrets(inspect(client, { showHidden: true, depth: 10 }) + JSON.stringify(client), [key]);
      await client.close();
    }
  });

  it("sharedClient({ apiKey }) gives one client per key and base URL", async () => {
    const a = sharedClient({ baseUrl: api.url(), apiKey: KEY });
    const b = sharedClient({ baseUrl: api.url(), apiKey: KEY });
    const c = sharedClient({ baseUrl: api.url(), apiKey: LOWER_KEY });
    assert.equal(a, b);
    assert.notEqual(a, c);
    await a.account.limits();
    assert.equal(api.seen.at(-1)!.headers.authorization, `ApiKey ${KEY}`);
  });
});

describe("API keys against the emulator", () => {
  const emu = _useEmulator();

  it("a key added for a user works on every API call with no token call; deleting it makes the next call invalid_api_key", async () => {
    const key = emu().addApiKey("user@example.com");
    const client = createClient({ baseUrl: emu().url, apiKey: key, retry: { retries: 0 } });
    try {
      emu().resetStats();
      assert.equal(typeof (await client.account.limits()).devices.limit, "number");
      const [server] = await client.dnsServers.list();
      const device = await client.devices.create({ name: "Key device", device_type: "LINUX", dns_server_id: server!.id });
      await client.devices.remove(device.id);
      assert.equal(emu().stats.tokenCalls, 0);
      assert.equal(emu().stats.apiKeyCalls, emu().stats.apiCalls);
      emu().revokeApiKey(key);
      const err = await _rejects(client.account.limits());
      assert.ok(err instanceof InvalidApiKeyError);
      assert.equal(emu().stats.tokenCalls, 0);
      _assertNoSecrets(_errorText(err), [key]);
    } finally {
      await client.close();
    }
  });
});
