import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../emulator";
import * as dedicatedIpv4 from "../../provider/dedicated-ipv4/lifecycle";
import * as device from "../../provider/device/lifecycle";
import * as dnsServer from "../../provider/dns-server/lifecycle";
import { credentialsChanged } from "../../provider/shared/account-client";
import type { ProviderContext } from "../../provider/shared/lifecycle";
import { UNKNOWN } from "../../provider/shared/unknown";
import { type Client, createClient, issueToken, revokeToken } from "../../sdk";

const OPS = "follow@example.com";
const PASSWORD = "pw-FOLLOW-1c9e";
const KEY_A = "key-FOLLOW-A-61c0e9d2";
const KEY_B = "key-FOLLOW-B-3a7f5b18";

/**
 * Issue 32 §1 at the lifecycles: new `credentials` (a rotated Token's) are a change of `credentials` in
 * `diff`, and an update that changes nothing else records them without a request to the service, so
 * refresh and delete, which read the state, use them.
 */
describe("account resources: new credentials are recorded by an update that calls nothing", function () {
  this.timeout(60_000);
  let emu: Emulator;
  let dashboard: Client;
  const requests: string[] = [];
  const ctx: ProviderContext = { config: {}, allowInsecureHttp: false, warn: () => undefined };

  before(async () => {
    emu = await startEmulator({ users: [{ username: OPS, password: PASSWORD }], apiKeys: [{ key: KEY_A, username: OPS }, { key: KEY_B, username: OPS }], log: (line) => requests.push(line) });
    dashboard = createClient({ baseUrl: emu.url, apiKey: KEY_A });
  });

  after(async () => {
    await dashboard?.close();
    await emu?.close();
  });

  it("credentialsChanged: a new key, credentials added or taken away, or not known yet; not empty fields or null", () => {
    const a = { credentials: { baseUrl: "https://x.example", apiKey: KEY_A } };
    assert.equal(credentialsChanged(a, a), false);
    assert.equal(credentialsChanged(a, { credentials: { baseUrl: "https://x.example", apiKey: KEY_B } }), true);
    assert.equal(credentialsChanged({}, a), true);
    assert.equal(credentialsChanged(a, {}), true);
    assert.equal(credentialsChanged(a, { credentials: { baseUrl: "https://x.example", apiKey: UNKNOWN } }), true);
    assert.equal(credentialsChanged({ credentials: { apiKey: KEY_A, refreshToken: "" } } as never, { credentials: { apiKey: KEY_A, refreshToken: null } } as never), false);
    assert.equal(credentialsChanged({}, { credentials: {} }), false);
  });

  it("DnsServer, Device and DedicatedIpv4: diff names credentials, the update sends nothing and records them; delete uses them", async () => {
    // The first credentials are a Token's refresh token, revoked below as a rotation revokes it.
    const issued = await issueToken({ baseUrl: emu.url, username: OPS, password: PASSWORD, allowInsecureHttp: true });
    const first = { baseUrl: emu.url, refreshToken: issued.refreshToken! };
    const second = { baseUrl: emu.url, apiKey: KEY_B };
    const server = await dnsServer.create(ctx, { name: "CI only", credentials: first });
    const dev = await device.create(ctx, { name: "CI runner", deviceType: "LINUX", dnsServerId: server.id, credentials: first });
    const ip = await dedicatedIpv4.create(ctx, { deviceId: dev.id, credentials: first });

    const serverDiff = await dnsServer.diff(ctx, server.id, server.outs, { name: "CI only", credentials: second });
    assert.deepEqual([serverDiff.changes, serverDiff.replaces], [true, []]);
    const deviceDiff = await device.diff(ctx, dev.id, dev.outs, { name: "CI runner", deviceType: "LINUX", dnsServerId: server.id, credentials: second });
    assert.deepEqual([deviceDiff.changes, deviceDiff.replaces], [true, []]);
    const ipDiff = await dedicatedIpv4.diff(ctx, ip.id, ip.outs, { deviceId: dev.id, credentials: second });
    assert.deepEqual([ipDiff.changes, ipDiff.replaces], [true, []]);
    // Unchanged credentials: no change at all.
    assert.equal((await dnsServer.diff(ctx, server.id, server.outs, { name: "CI only", credentials: first })).changes, false);

    const before = requests.length;
    const s2 = await dnsServer.update(ctx, server.id, server.outs, { name: "CI only", credentials: second });
    const d2 = await device.update(ctx, dev.id, dev.outs, { name: "CI runner", deviceType: "LINUX", dnsServerId: server.id, credentials: second });
    const i2 = await dedicatedIpv4.update(ctx, ip.id, ip.outs, { deviceId: dev.id, credentials: second });
    assert.deepEqual(requests.slice(before), [], "an update of the credentials alone sends nothing");
    assert.deepEqual([s2.outs.credentials, d2.outs.credentials, i2.outs.credentials], [second, second, second]);
    assert.deepEqual({ ...s2.outs, credentials: undefined }, { ...server.outs, credentials: undefined }, "nothing else changes");

    // The first refresh token is revoked: refresh and delete work from the recorded (second) credentials.
    await revokeToken({ baseUrl: emu.url, refreshToken: first.refreshToken, allowInsecureHttp: true });
    await assert.rejects(dnsServer.read(ctx, server.id, server.outs), /invalid_grant|rejected/, "the first credentials no longer work");
    assert.equal((await dnsServer.read(ctx, server.id, s2.outs)).id, server.id);
    assert.equal((await device.read(ctx, dev.id, d2.outs)).id, dev.id);
    await dedicatedIpv4.remove(ctx, ip.id, i2.outs);
    await device.remove(ctx, dev.id, d2.outs);
    await dnsServer.remove(ctx, server.id, s2.outs);
    const check = createClient({ baseUrl: emu.url, apiKey: KEY_B });
    assert.equal((await check.dnsServers.list()).some((s) => s.id === server.id), false);
    await check.close();

    // Taken away: the state holds none after the update.
    const none = await dnsServer.update(ctx, "unused", { ...s2.outs }, { name: "CI only" });
    assert.equal("credentials" in none.outs, false);
  });
});
