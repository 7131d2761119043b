import assert from "node:assert/strict";
import sinon from "sinon";
import { Client, ConfigError, createClient, issueToken, Session, sharedClient } from "../../../sdk";
import { resolveClientConfig } from "../../../sdk/client/client";
import { resolveSessionConfig, resolveTransportConfig } from "../../../sdk/config/resolve";
import { resetSharedSessions } from "../../../sdk/client/shared-session";
import { callFunction } from "../../../provider/shared/functions";
import type { ProviderContext } from "../../../provider/shared/lifecycle";
import { _rejects, _useEmulator, USER } from "../../support/helpers";
import { _useTempDirs } from "../../support/temp";

// The module object the SDK's layers call resolveBaseUrl through (compiled CommonJS reads it at each call).
const transport = require("../../../sdk/http/transport") as typeof import("../../../sdk/http/transport");

/** Issue 26 §2: a lookup's options are resolved once into a frozen configuration that every layer reads. */
describe("options resolved once (sdk/config)", () => {
  const emu = _useEmulator();
  const tmp = _useTempDirs();
  const saved: Record<string, string | undefined> = {};
  let refreshToken: string;
  before(async () => {
    // No credential of this machine's environment or default profile takes part.
    for (const [k, v] of Object.entries(process.env)) if (k.startsWith("DNS_ACCOUNT_")) (saved[k] = v), delete process.env[k];
    process.env.DNS_ACCOUNT_CONFIG_DIR = tmp("dns-account-resolve-");
    refreshToken = (await issueToken({ baseUrl: emu().url, ...USER })).refreshToken;
  });
  after(async () => {
    delete process.env.DNS_ACCOUNT_CONFIG_DIR;
    Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)));
    await resetSharedSessions();
  });
  afterEach(async () => {
    sinon.restore();
    await resetSharedSessions();
  });

  it("a lookup (the provider's function call) checks its base URL once, from the call to the answer, login included", async () => {
    const spy = sinon.spy(transport, "resolveBaseUrl");
    const ctx: ProviderContext = { config: {}, allowInsecureHttp: false, warn: () => undefined };
    const limits = await callFunction(ctx, "dns-account:index:getAccountLimits", { credentials: { baseUrl: emu().url, refreshToken } });
    assert.equal(typeof limits.devices.limit, "number");
    assert.equal(spy.callCount, 1);
  });

  it("a shared client checks its base URL once for the registry key, its session's grants and its calls", async () => {
    const spy = sinon.spy(transport, "resolveBaseUrl");
    const client = sharedClient({ baseUrl: emu().url, credentials: { refreshToken } });
    await client.account.limits();
    await client.session.invalidate(client.session.currentToken()!); // a second grant: no second check
    await client.account.limits();
    assert.equal(spy.callCount, 1);
  });

  it("the resolved configuration is frozen, and a layer handed one takes it as it is", async () => {
    const config = resolveClientConfig({ baseUrl: `${emu().url}/`, credentials: { refreshToken }, timeoutMs: 5_000, retry: { retries: 1 } });
    // The client takes the config as it is (no second check) and closes what the config made for it.
    const spy = sinon.spy(transport, "resolveBaseUrl");
    const client = new Client(config);
    try {
      assert.ok(Object.isFrozen(config) && Object.isFrozen(config.endpoint) && Object.isFrozen(config.retry) && Object.isFrozen(config.auth));
      assert.equal(config.endpoint.origin, emu().url);
      assert.equal(config.endpoint.pathPrefix, "");
      assert.deepEqual([config.timeoutMs, config.retry.retries, config.retry.baseDelayMs, config.maxBodyBytes], [5_000, 1, 200, 16 * 1024 * 1024]);
      assert.equal(resolveClientConfig(config), config);
      assert.equal((await client.account.limits()).devices.limit > 0, true);
      assert.equal(spy.callCount, 0);
    } finally {
      await client.close();
    }
    const session = resolveSessionConfig({ credentials: USER, baseUrl: emu().url, keepAlive: true });
    assert.ok(Object.isFrozen(session) && Object.isFrozen(session.credentials));
    assert.equal(resolveSessionConfig(session), session);
    const t = resolveTransportConfig({ baseUrl: emu().url, grantType: false });
    assert.deepEqual([t.timeoutMs, t.grantType, Object.isFrozen(t)], [30_000, false, true]);
  });

  it("errors keep their codes, fields and words; a session still reports a bad base URL on its first token call", async () => {
    const e1 = (() => {
      try {
        createClient({ baseUrl: "ftp://x", apiKey: "k" });
      } catch (err) {
        return err as ConfigError;
      }
      return undefined;
    })();
    assert.ok(e1 instanceof ConfigError);
    assert.equal(e1.field, "baseUrl");
    assert.equal(e1.message, '"baseUrl" must use https:// (or http:// for loopback)');
    assert.throws(() => createClient({ baseUrl: emu().url, apiKey: "k", timeoutMs: -1 }), { field: "timeoutMs", message: '"timeoutMs" must be a positive number of milliseconds' });
    assert.throws(() => createClient({ baseUrl: emu().url, apiKey: "k", retry: { retries: -1 } }), { field: "retry.retries" });
    const session = new Session({ credentials: { refreshToken }, baseUrl: "http://example.com" });
    const err = await _rejects(session.accessToken());
    assert.ok(err instanceof ConfigError);
    assert.equal(err.field, "baseUrl");
    assert.equal(err.message, '"baseUrl" uses http:// for a non-loopback host; use https:// or set allowInsecureHttp');
  });
});
