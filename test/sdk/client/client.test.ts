import assert from "node:assert/strict";
import { inspect } from "node:util";
import {
  ConfigError,
  createClient,
  HttpError,
  issueToken,
  ProtocolError,
  Session,
  accountLimitsSchema,
  deviceListSchema,
  validateResponse,
} from "../../../sdk";
import { z } from "zod";
import { _assertNoSecrets, _errorText, _rejects, _useEmulator, USER } from "../../support/helpers";

const noWait = { retries: 4, baseDelayMs: 1, maxDelayMs: 1, random: () => 0 };

describe("createClient against the emulator", () => {
  let t = 1_750_000_000_000;
  const clock = { now: () => t };
  const emu = _useEmulator({ tokenLifetimeSeconds: 3600, now: clock.now });
  const make = (extra: Parameters<typeof createClient>[0] = {}) =>
    createClient({ baseUrl: emu().url, credentials: USER, clock, retry: noWait, ...extra });
  beforeEach(() => emu().resetStats());

  it("typed methods: account limits, DNS servers and devices with the API's field names", async () => {
    const client = make();
    try {
      const limits = await client.account.limits();
      assert.equal(typeof limits.devices.limit, "number");
      const [def] = await client.dnsServers.list();
      assert.equal(def!.default, true);
      const server = await client.dnsServers.create({ name: "Lab", settings: { block_private_relay: true } });
      await client.dnsServers.update(server.id, { name: "Lab 2" });
      assert.equal((await client.dnsServers.get(server.id)).name, "Lab 2");
      const device = await client.devices.create({ name: "Router", device_type: "ROUTER", dns_server_id: server.id });
      assert.equal(device.dns_server_id, server.id);
      assert.ok(device.dns_addresses.dns_over_tls_url);
      await client.devices.update(device.id, { name: "Gateway" });
      assert.equal((await client.devices.get(device.id)).name, "Gateway");
      assert.deepEqual((await client.devices.list()).map((d) => d.id), [device.id]);
      await client.devices.remove(device.id);
      await client.dnsServers.remove(server.id);
      assert.equal((await client.dnsServers.list()).length, 1);
    } finally {
      await client.close();
    }
  });

  it("parses the validation-error body (error_code, fields[]) into the error", async () => {
    const client = make();
    try {
      const err = await _rejects(client.devices.create({ name: "", device_type: "TOASTER" as "MAC", dns_server_id: "nope" }));
      assert.ok(err instanceof HttpError);
      assert.equal(err.code, "http_400");
      assert.deepEqual(err.fields, [
        { field: "name", errorCode: "FIELD_WRONG_VALUE" },
        { field: "device_type", errorCode: "FIELD_WRONG_VALUE" },
        { field: "dns_server_id", errorCode: "FIELD_WRONG_VALUE" },
      ]);
      assert.equal(err.message, "The API rejected the request: name (FIELD_WRONG_VALUE), device_type (FIELD_WRONG_VALUE), dns_server_id (FIELD_WRONG_VALUE)");
      assert.equal((await _rejects(client.devices.get("missing"))).code, "http_404");
      assert.equal((await _rejects(client.devices.get(""))).code, "invalid_config");
    } finally {
      await client.close();
    }
  });

  it("1,000 concurrent calls crossing one expiry: exactly one token call and no 401 reaches the caller", async () => {
    const client = make();
    try {
      await client.account.limits();
      emu().resetStats();
      t += 3600_000; // every token is now expired, at the server too
      const results = await Promise.all(Array.from({ length: 1000 }, () => client.request({ path: "/account/limits" })));
      assert.equal(results.length, 1000);
      assert.equal(emu().stats.tokenCalls, 1);
      assert.equal(emu().stats.apiCalls, 1000);
    } finally {
      await client.close();
    }
  });

  it("many concurrent 401s for the same token cause one refresh and one replay each", async () => {
    const client = make();
    try {
      await client.account.limits();
      emu().resetStats();
      emu().expireAccessTokens(); // the server refuses a token the client still thinks valid
      await Promise.all(Array.from({ length: 200 }, () => client.account.limits()));
      assert.equal(emu().stats.tokenCalls, 1);
      assert.equal(emu().stats.apiCalls, 400, "each call: one 401, one replay");
    } finally {
      await client.close();
    }
  });

  it("replays a 401 only once", async () => {
    const client = make();
    try {
      await client.account.limits();
      emu().resetStats();
      emu().inject({ kind: "status", status: 401, count: 2, path: "/oapi/v1/account/limits", body: JSON.stringify({ error: "unauthorized", error_code: "invalid_token" }) });
      const err = await _rejects(client.account.limits());
      assert.equal(err.code, "http_401");
      assert.equal(emu().stats.requests, 3, "call, refresh, replay");
    } finally {
      await client.close();
    }
  });

  it("retries idempotent calls on 429/5xx (with Retry-After) and resets; not POST unless opted in", async () => {
    const client = make();
    try {
      await client.account.limits();
      emu().resetStats();
      emu().inject({ kind: "status", status: 503, retryAfter: 0, path: "/oapi/v2/dns_servers" });
      emu().inject({ kind: "reset", path: "/oapi/v2/dns_servers" });
      emu().inject({ kind: "status", status: 429, path: "/oapi/v2/dns_servers" });
      assert.equal((await client.dnsServers.list()).length >= 1, true);
      assert.equal(emu().stats.requests, 4);

      emu().resetStats();
      emu().inject({ kind: "status", status: 503, count: 20, path: "/oapi/v2/dns_servers" });
      assert.equal((await _rejects(client.dnsServers.list())).code, "http_503");
      assert.equal(emu().stats.requests, 5, "bounded: 1 + 4 retries");
      emu().clearFaults();

      emu().resetStats();
      emu().inject({ kind: "status", status: 503, path: "/oapi/v1/dns_servers" });
      assert.equal((await _rejects(client.dnsServers.create({ name: "x" }))).code, "http_503");
      assert.equal(emu().stats.requests, 1, "POST is not retried");
      emu().inject({ kind: "status", status: 503, path: "/oapi/v1/dns_servers" });
      const created = (await client.request({ method: "POST", path: "/dns_servers", body: { name: "y" }, retry: true })) as { name: string };
      assert.equal(created.name, "y");
    } finally {
      await client.close();
    }
  });

  it("request() with a schema names the offending field", async () => {
    const client = make();
    try {
      const wrong = z.object({ devices: z.object({ limit: z.string() }) });
      const err = await _rejects(client.request({ path: "/account/limits", schema: wrong }));
      assert.ok(err instanceof ProtocolError);
      assert.equal(err.field, "devices.limit");
      assert.equal(await client.request({ method: "PUT", path: "/dns_servers/nope", body: { name: "z" } }).catch((e: HttpError) => e.status), 404);
    } finally {
      await client.close();
    }
  });

  it("typed validators are built once, compose child models and name the field at fault", () => {
    assert.equal(accountLimitsSchema(), accountLimitsSchema(), "built once");
    const limits = { access_rules: { limit: 1, used: 0 }, dedicated_ipv4: { limit: 1, used: 0 }, devices: { limit: 1, used: 0 },
      dns_servers: { limit: 1, used: 0 }, requests: { limit: 1, used: 0 }, user_rules: { limit: 1, used: 0 }, added_later: true };
    assert.deepEqual(validateResponse(accountLimitsSchema(), limits), limits, "loose: later fields pass");
    assert.throws(
      () => validateResponse(accountLimitsSchema(), { ...limits, devices: { limit: 1, used: "secret-ish-value" } }, 200),
      (e: unknown) => e instanceof ProtocolError && e.field === "devices.used" && !_errorText(e).includes("secret-ish-value"),
    );
    const device = { id: "d", name: "n", device_type: "LINUX", dns_server_id: "s", dns_addresses: {}, settings: { protection_enabled: true, detect_doh_auth_only: false } };
    const bad = { ...device, settings: { protection_enabled: "yes", detect_doh_auth_only: false } };
    assert.throws(() => validateResponse(deviceListSchema(), [device, bad]), (e: ProtocolError) => e.field === "1.settings.protection_enabled");
    assert.throws(() => validateResponse(deviceListSchema(), {}), (e: ProtocolError) => e.field === "body");
  });

  it("operations() lists the OpenAPI description's operations; call() calls one by id, checking parameters", async () => {
    const client = make();
    try {
      const ops = await client.operations();
      assert.ok(ops.some((o) => o.operationId === "getDevice" && o.method === "GET" && o.pathParams.join() === "device_id"));
      assert.equal(await client.operations(), await client.operations(), "cached");
      const limits = (await client.call("getAccountLimits")) as { devices: unknown };
      assert.ok(limits.devices);
      const [def] = (await client.call("listDNSServers")) as { id: string }[];
      const device = (await client.call("createDevice", { body: { name: "Tablet", device_type: "IOS", dns_server_id: def!.id } })) as { id: string };
      assert.equal(((await client.call("getDevice", { path: { device_id: device.id } })) as { name: string }).name, "Tablet");
      await client.call("removeDevice", { path: { device_id: device.id } });
      emu().resetStats();
      for (const [id, args, field] of [
        ["getDevice", {}, "path.device_id"],
        ["createDevice", {}, "body"],
        ["noSuchOperation", {}, "operationId"],
      ] as const) {
        const err = await _rejects(client.call(id, args));
        assert.ok(err instanceof ConfigError);
        assert.equal(err.field, field);
      }
      assert.equal(emu().stats.apiCalls, 0, "nothing sent for a bad call");
    } finally {
      await client.close();
    }
  });

  it("shares a given session and reuses keep-alive connections", async () => {
    const session = new Session({ baseUrl: emu().url, credentials: USER, clock });
    const a = createClient({ baseUrl: emu().url, session });
    const b = createClient({ baseUrl: emu().url, session });
    try {
      await Promise.all([a.account.limits(), b.account.limits()]);
      await a.account.limits();
      assert.equal(emu().stats.tokenCalls, 1);
      assert.equal(a.session, b.session);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("refuses wrong options", () => {
    assert.throws(() => createClient({ baseUrl: emu().url }), { field: "credentials" });
    assert.throws(() => createClient({ baseUrl: "http://api.example.com", credentials: USER }), { field: "baseUrl" });
    assert.throws(() => createClient({ credentials: USER, timeoutMs: 0 }), { field: "timeoutMs" });
  });

  it("never shows a secret in errors or util.inspect of the client", async () => {
    const issued = await issueToken({ baseUrl: emu().url, ...USER });
    const client = createClient({ baseUrl: emu().url, credentials: { refreshToken: issued.refreshToken }, clock, retry: noWait });
    const texts: string[] = [inspect(client, { depth: 6, showHidden: true })];
    try {
      await client.account.limits();
      emu().inject({ kind: "status", status: 401, count: 2, path: "/oapi/v1/account/limits", body: JSON.stringify({ error: issued.accessToken }) });
      texts.push(_errorText(await _rejects(client.account.limits())));
      emu().inject({ kind: "reset", count: 10, path: "/oapi/v1/account/limits" });
      texts.push(_errorText(await _rejects(client.account.limits())));
      emu().revokeRefreshToken(issued.refreshToken);
      t += 3600_000;
      texts.push(_errorText(await _rejects(client.account.limits())));
      texts.push(inspect(client.session, { showHidden: true }));
      const current = client.session.tokens;
      _assertNoSecrets(texts.join("\n"), [USER.password, issued.accessToken, issued.refreshToken, current?.accessToken ?? ""]);
    } finally {
      await client.close();
    }
  });
});
