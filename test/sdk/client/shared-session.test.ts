import assert from "node:assert/strict";
import { ConfigError, resetSharedSessions, sharedClient, sharedSession } from "../../../sdk";
import { startEmulator } from "../../../emulator";
import { _useEmulator, USER } from "../../support/helpers";

describe("sharedClient and sharedSession", () => {
  const emu = _useEmulator();
  afterEach(() => resetSharedSessions());

  it("honour allowInsecureHttp as createClient does, and refuse plain http:// to a non-loopback host without it", () => {
    const credentials = { refreshToken: "rt-shared-1" };
    const client = sharedClient({ baseUrl: "http://dns-api.lan:8787", allowInsecureHttp: true, credentials });
    assert.equal(sharedClient({ baseUrl: "http://dns-api.lan:8787", allowInsecureHttp: true, credentials }), client, "one client per credential");
    assert.ok(sharedSession({ baseUrl: "http://dns-api.lan:8787", allowInsecureHttp: true, credentials }));
    assert.throws(() => sharedClient({ baseUrl: "http://dns-api.lan:8787", credentials }), (e: unknown) => e instanceof ConfigError && e.field === "baseUrl");
    assert.throws(() => sharedSession({ baseUrl: "http://dns-api.lan:8787", credentials }), (e: unknown) => e instanceof ConfigError && e.field === "baseUrl");
  });

  it("one login however many callers", async () => {
    emu().resetStats();
    const clients = Array.from({ length: 5 }, () => sharedClient({ baseUrl: emu().url, credentials: USER }));
    await Promise.all(clients.map((c) => c.account.limits()));
    assert.equal(emu().stats.passwordGrants, 1);
  });

  it("the login goes through the client's pool: `connections` bounds the connections of a login and many calls", async () => {
    const fresh = await startEmulator(); // no idle connection of an earlier test to reuse
    try {
      const pooled = sharedClient({ baseUrl: fresh.url, credentials: USER, connections: 2 });
      await Promise.all(Array.from({ length: 20 }, () => pooled.account.limits()));
      assert.equal(fresh.stats.passwordGrants, 1);
      assert.ok(fresh.stats.connections <= 2, `a login and 20 calls: ${fresh.stats.connections} connections`);
      assert.throws(() => sharedClient({ baseUrl: fresh.url, credentials: { refreshToken: "rt-shared-c" }, connections: 0 }), (e: unknown) => e instanceof ConfigError && e.field === "connections");
    } finally {
      await resetSharedSessions();
      await fresh.close();
    }
  });
});
