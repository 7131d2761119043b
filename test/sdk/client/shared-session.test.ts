import assert from "node:assert/strict";
import { ConfigError, resetSharedSessions, sharedClient, sharedSession } from "../../../sdk";
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
});
