import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { type AccountHost, _accountHost, OPS, OPS_PASSWORD } from "../support/account-host";
import { _installedProgram } from "../support/program";
import { _closeAll } from "../support/helpers";

// The account resources against a service that does not behave: a 404 that proves nothing, creates
// that half fail, adoption that must leave things as found, and the cost in requests of each step.

/** A gateway that answers 404 to everything, as a wrong base URL or a misrouted proxy does. */
async function notFoundGateway(): Promise<{ url: string; host: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error_code: "NOT_FOUND" }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

const rejection = (p: Promise<unknown>): Promise<Error> =>
  p.then(
    () => assert.fail("expected a failure"),
    (e: Error) => e,
  );

describe("account resources against a service that does not behave", function () {
  this.timeout(180_000);
  let t: AccountHost;
  let gateway: Awaited<ReturnType<typeof notFoundGateway>>;
  let server: { id: string; properties: Record<string, unknown> };
  let device: { id: string; properties: Record<string, unknown> };
  let address: { id: string; properties: Record<string, unknown> };
  let refreshToken: string;

  before(async () => {
    t = await _accountHost({ limits: { devices: 200, dns_servers: 20, dedicated_ipv4: 5 } });
    gateway = await notFoundGateway();
    const p = t.providers;
    server = await t.host.create(t.urn("DnsServer", "kept"), { __provider: p.DnsServer, name: "Kept" });
    device = await t.host.create(t.urn("Device", "kept"), { __provider: p.Device, name: "Kept", deviceType: "LINUX", dnsServerId: server.id });
    address = await t.host.create(t.urn("DedicatedIpv4", "kept"), { __provider: p.DedicatedIpv4, deviceId: device.id });
    await t.dashboard.session.accessToken();
    refreshToken = t.dashboard.session.tokens!.refreshToken!;
  });
  after(async () => {
    await _closeAll(() => gateway?.close(), () => t?.close());
  });

  describe("a 404 is not proof that an object is gone", () => {
    const cases = (): [string, string, { id: string; properties: Record<string, unknown> }][] => [
      ["DnsServer", "kept", server],
      ["Device", "kept", device],
      ["DedicatedIpv4", "kept", address],
    ];

    it("refresh and destroy through a gateway that answers 404 to everything keep the state, naming the host", async () => {
      for (const [type, name, r] of cases()) {
        const props = { ...r.properties, credentials: { baseUrl: gateway.url, apiKey: "gateway-api-key" } };
        const read = await rejection(t.host.read(r.id, t.urn(type, name), props));
        assert.match(read.message, new RegExp(`${gateway.host.replace(/\./g, "\\.")}.*state was kept|state_kept`), `${type} read: ${read.message}`);
        assert.ok(read.message.includes(gateway.host), `${type}: names the host`);
        const del = await rejection(t.host.delete(r.id, t.urn(type, name), props));
        assert.ok(del.message.includes(gateway.host), `${type} delete: ${del.message}`);
      }
      assert.ok((await t.dashboard.dnsServers.list()).some((s) => s.id === server.id), "the server is still there");
      assert.ok((await t.dashboard.devices.list()).some((d) => d.id === device.id), "the device is still there");
      assert.equal((await t.dashboard.dedicatedIpv4.list()).find((a) => a.ip === address.id)?.device_id, device.id, "the address is still linked");
    });

    it("with refresh-token credentials a 404 from the token endpoint (a wrong base path) proves nothing either", async () => {
      for (const [type, name, r] of cases()) {
        const props = { ...r.properties, credentials: { baseUrl: `${t.emu.url}/wrong-prefix`, refreshToken } };
        const read = await rejection(t.host.read(r.id, t.urn(type, name), props));
        assert.match(read.message, /state was kept|state_kept|http_404/, `${type}: ${read.message}`);
        assert.ok(read.message.includes(new URL(t.emu.url).host), `${type} names the host: ${read.message}`);
      }
      assert.ok((await t.dashboard.devices.list()).some((d) => d.id === device.id));
    });

    it("an object really deleted out of band is still reported gone", async () => {
      const p = t.providers;
      const s = await t.host.create(t.urn("DnsServer", "oob"), { __provider: p.DnsServer, name: "Out of band" });
      const d = await t.host.create(t.urn("Device", "oob"), { __provider: p.Device, name: "Out of band", deviceType: "IOS", dnsServerId: s.id });
      await t.dashboard.devices.remove(d.id);
      await t.dashboard.dnsServers.remove(s.id);
      assert.equal((await t.host.read(d.id, t.urn("Device", "oob"), d.properties)).id, "");
      assert.equal((await t.host.read(s.id, t.urn("DnsServer", "oob"), s.properties)).id, "");
      await t.host.delete(d.id, t.urn("Device", "oob"), d.properties);
      await t.host.delete(s.id, t.urn("DnsServer", "oob"), s.properties);
    });
  });

  describe("no orphans; adoption leaves things as it found them", () => {
    it("a Device whose settings fail and whose cleanup fails too is recorded (partial state) with its id; a DnsServer has no second step to fail", async () => {
      const p = t.providers;
      // A DnsServer is created with its settings in one POST: refused, it does not exist, and nothing is recorded.
      const serversBefore = (await t.dashboard.dnsServers.list()).length;
      t.emu.inject({ kind: "status", status: 403, path: "/oapi/v1/dns_servers", count: 1, body: JSON.stringify({ error_code: "ACCESS_FORBIDDEN" }) });
      const s = (await rejection(t.host.create(t.urn("DnsServer", "half"), { __provider: p.DnsServer, name: "Half", settings: { blockTtlSeconds: 60 } }))) as Error & { partial?: unknown };
      assert.equal(s.partial, undefined, s.message);
      assert.equal((await t.dashboard.dnsServers.list()).length, serversBefore, "no server left behind");

      t.emu.inject({ kind: "status", status: 403, path: "/oapi/v1/devices/", count: 2, body: JSON.stringify({ error_code: "ACCESS_FORBIDDEN" }) });
      const dev = (await rejection(
        t.host.create(t.urn("Device", "half"), { __provider: p.Device, name: "Half", deviceType: "LINUX", dnsServerId: server.id, settings: { protectionEnabled: false } }),
      )) as Error & { partial?: { id: string; properties: Record<string, unknown> } };
      assert.ok(dev.partial, `partial state recorded: ${dev.message}`);
      assert.ok((await t.dashboard.devices.list()).some((x) => x.id === dev.partial!.id));
      assert.deepEqual(dev.partial.properties.settings, { protectionEnabled: true }, "the state says what the service has");
    });

    it("a create whose cleanup works leaves nothing behind and records nothing", async () => {
      const p = t.providers;
      const before = (await t.dashboard.devices.list()).length;
      t.emu.inject({ kind: "status", status: 403, path: "/oapi/v1/devices/", count: 1, body: JSON.stringify({ error_code: "ACCESS_FORBIDDEN" }) });
      const err = (await rejection(
        t.host.create(t.urn("Device", "clean"), { __provider: p.Device, name: "Clean", deviceType: "LINUX", dnsServerId: server.id, settings: { protectionEnabled: false } }),
      )) as Error & { partial?: unknown };
      assert.equal(err.partial, undefined);
      assert.equal((await t.dashboard.devices.list()).length, before);
    });

    it("adopting a DedicatedIpv4 without deviceId leaves its link alone, and destroying an adopted address restores it as found", async () => {
      const p = t.providers;
      const other = await t.dashboard.devices.create({ name: "Other", device_type: "ROUTER", dns_server_id: server.id });
      const ip = (await t.dashboard.dedicatedIpv4.allocate()).ip;
      await t.dashboard.devices.linkDedicatedIpv4(device.id, ip);
      const linkOf = async () => (await t.dashboard.dedicatedIpv4.list()).find((a) => a.ip === ip)?.device_id;

      const urn = t.urn("DedicatedIpv4", "adopted");
      const adopted = await t.host.create(urn, { __provider: p.DedicatedIpv4, adopt: ip });
      assert.equal(await linkOf(), device.id, "adoption without deviceId keeps the link");
      assert.equal((await t.host.diff(adopted.id, urn, adopted.properties, { __provider: p.DedicatedIpv4, adopt: ip })).changes, "none");
      await t.dashboard.devices.unlinkDedicatedIpv4(device.id, ip);
      await t.dashboard.devices.linkDedicatedIpv4(other.id, ip);
      const refreshed = await t.host.read(adopted.id, urn, adopted.properties);
      assert.equal((await t.host.diff(adopted.id, urn, refreshed.properties, { __provider: p.DedicatedIpv4, adopt: ip })).changes, "none", "an undeclared link is not managed");
      await t.host.delete(adopted.id, urn, refreshed.properties);
      assert.equal(await linkOf(), other.id, "destroy leaves an unmanaged link as it is");

      // Declared: the program moves the link; destroy puts the address back on the device it had when adopted.
      const urn2 = t.urn("DedicatedIpv4", "moved");
      const moved = await t.host.create(urn2, { __provider: p.DedicatedIpv4, adopt: ip, deviceId: device.id });
      assert.equal(await linkOf(), device.id);
      await t.host.delete(moved.id, urn2, moved.properties);
      assert.equal(await linkOf(), other.id, "linked back to the device it had");

      const urn3 = t.urn("DedicatedIpv4", "unlinked");
      await t.dashboard.devices.unlinkDedicatedIpv4(other.id, ip);
      const unlinked = await t.host.create(urn3, { __provider: p.DedicatedIpv4, adopt: ip, deviceId: device.id });
      await t.host.delete(unlinked.id, urn3, unlinked.properties);
      assert.equal(await linkOf(), undefined, "an address adopted unlinked is left unlinked");
    });
  });

  describe("no call or connection the provider does not need", () => {
    it("N devices take N+2 requests at most; a no-settings create of either resource is one request; a refresh at most two", async () => {
      // A fresh host: its first call logs in.
      const fresh = await _accountHost({ limits: { devices: 200, dns_servers: 5 } });
      try {
        const p = fresh.providers;
        const stats = fresh.emu.stats;
        const connectionsAtStart = stats.connections;
        let before = stats.requests;
        const s = await fresh.host.create(fresh.urn("DnsServer", "count"), { __provider: p.DnsServer, name: "Count" });
        assert.ok(stats.requests - before <= 2, `a server: ${stats.requests - before} requests (one login, one create)`);
        before = stats.requests;
        await fresh.host.read(s.id, fresh.urn("DnsServer", "count"), s.properties);
        assert.equal(stats.requests - before, 1, "refreshing a server");
        const N = 100;
        before = stats.requests;
        const connectionsBefore = stats.connections;
        const made = await Promise.all(
          Array.from({ length: N }, (_, i) => fresh.host.create(fresh.urn("Device", `d${i}`), { __provider: p.Device, name: `Device ${i}`, deviceType: "LINUX", dnsServerId: s.id })),
        );
        assert.ok(stats.requests - before <= N + 2, `${N} devices: ${stats.requests - before} requests`);
        assert.ok(stats.connections - connectionsBefore <= 16, `${N} concurrent creates: ${stats.connections - connectionsBefore} new connections`);
        // The login goes through the client's own connections: no 17th one for the token endpoint.
        assert.ok(stats.connections - connectionsAtStart <= 16, `the login and ${N + 1} creates: ${stats.connections - connectionsAtStart} connections`);
        assert.deepEqual(made[0]!.properties.linkedIpv4, []);
        before = stats.requests;
        await fresh.host.read(made[0]!.id, fresh.urn("Device", "d0"), made[0]!.properties);
        assert.ok(stats.requests - before <= 2, `refreshing a device: ${stats.requests - before}`);
      } finally {
        await fresh.close();
      }
    });
  });

  describe("the floor's requests: what the service needs and no more", () => {
    /** A server as a program declares one: 5 user rules, 3 blocked services, parental control. */
    const declared = {
      blockTtlSeconds: 60,
      userRules: { enabled: true, rules: ["||a.example^", "||b.example^", "||c.example^", "@@||d.example^", "||e.example^$important"] },
      blockedServices: ["youtube", "tiktok", "reddit"],
      parentalControl: { enabled: true, blockAdultWebsites: true, safeSearch: true },
    };

    it("a DnsServer with settings is created by one POST carrying them; the state is its response", async () => {
      const p = t.providers;
      const stats = t.emu.stats;
      const before = stats.requests;
      const s = await t.host.create(t.urn("DnsServer", "one-post"), { __provider: p.DnsServer, name: "One post", settings: declared });
      assert.equal(stats.requests - before, 1, "one request: POST /dns_servers with the settings");
      assert.deepEqual(s.properties.settings, declared, "the state says what the service has");
      const live = await t.dashboard.dnsServers.getSettings(s.id);
      assert.equal(live.block_ttl_seconds, 60);
      assert.deepEqual(live.user_rules_settings.rules, declared.userRules.rules);
      assert.deepEqual(
        live.parental_control_settings.blocked_services?.filter((b) => b.enabled).map((b) => b.id),
        declared.blockedServices,
      );
      assert.equal(live.parental_control_settings.block_adult_websites_enabled, true);
      const d = await t.host.diff(s.id, t.urn("DnsServer", "one-post"), s.properties, { __provider: p.DnsServer, name: "One post", settings: declared });
      assert.equal(d.changes, "none", "the next up changes nothing");
      await t.host.delete(s.id, t.urn("DnsServer", "one-post"), s.properties);
    });

    it("checks fetch the web-service ids once per process, and only for a program that names a blocked service", async () => {
      const p = t.providers;
      const stats = t.emu.stats;
      let before = stats.requests;
      // The first check of this process tries its credentials once (skipCredentialsValidation aside).
      await t.host.check(t.urn("DnsServer", "none-named"), {}, { __provider: p.DnsServer, name: "None named", settings: { blockedServices: [] } });
      assert.equal(stats.requests - before, 1, "the credentials' one validation of this process");
      before = stats.requests;
      await t.host.check(t.urn("DnsServer", "none-named-2"), {}, { __provider: p.DnsServer, name: "None named", settings: { blockedServices: [] } });
      assert.equal(stats.requests - before, 0, "no blocked service named: no request");
      before = stats.requests;
      const checks = await Promise.all(
        Array.from({ length: 5 }, (_, i) => t.host.check(t.urn("DnsServer", `named${i}`), {}, { __provider: p.DnsServer, name: `Named ${i}`, settings: declared })),
      );
      for (const c of checks) assert.deepEqual(c.failures ?? [], []);
      const bad = await t.host.check(t.urn("DnsServer", "bad"), {}, { __provider: p.DnsServer, name: "Bad", settings: { blockedServices: ["no_such_service"] } });
      assert.match(JSON.stringify(bad.failures), /settings\.blockedServices: unknown id/);
      assert.equal(stats.requests - before, 1, "six checks naming blocked services: one GET /web_services");
    });

    it("a refresh of N devices lists the dedicated addresses once, and a read after this process links one sees it", async () => {
      const p = t.providers;
      const stats = t.emu.stats;
      const N = 50;
      const made = await Promise.all(
        Array.from({ length: N }, (_, i) => t.host.create(t.urn("Device", `r${i}`), { __provider: p.Device, name: `Refreshed ${i}`, deviceType: "LINUX", dnsServerId: server.id })),
      );
      const all = [...made, device];
      const before = stats.requests;
      const reads = await Promise.all(all.map((d, i) => t.host.read(d.id, t.urn("Device", i < N ? `r${i}` : "kept"), d.properties)));
      assert.equal(stats.requests - before, all.length + 1, `${all.length} devices: a GET each and one listing of the addresses`);
      assert.deepEqual(reads.at(-1)!.properties.linkedIpv4, [address.id], "the kept device's address, from the listing");
      assert.deepEqual(reads[0]!.properties.linkedIpv4, []);
      // A write of this process (linking an address to the first device) is never hidden by a listing from before it.
      const linked = await t.host.create(t.urn("DedicatedIpv4", "r0"), { __provider: p.DedicatedIpv4, deviceId: made[0]!.id });
      const again = await t.host.read(made[0]!.id, t.urn("Device", "r0"), made[0]!.properties);
      assert.deepEqual(again.properties.linkedIpv4, [linked.id]);
      await t.host.delete(linked.id, t.urn("DedicatedIpv4", "r0"), linked.properties);
      await Promise.all(made.map((d, i) => t.host.delete(d.id, t.urn("Device", `r${i}`), d.properties)));
    });

    it("a DnsServer whose settings the service refuses is not created: one request, nothing left, nothing recorded", async () => {
      const p = t.providers;
      const serversBefore = (await t.dashboard.dnsServers.list()).length;
      const before = t.emu.stats.requests;
      const err = (await rejection(
        t.host.create(t.urn("DnsServer", "refused"), { __provider: p.DnsServer, name: "Refused", settings: { filterLists: { ids: ["no_such_list"] } } }),
      )) as Error & { partial?: unknown };
      assert.equal(t.emu.stats.requests - before, 1);
      assert.equal(err.partial, undefined);
      assert.match(err.message, /settings\.filterLists\.ids/, err.message);
      assert.equal((await t.dashboard.dnsServers.list()).length, serversBefore);
    });
  });

  describe("import: read with only an id returns inputs that describe the object", () => {
    it("check of those inputs passes and diff against the read state shows no change, for each account resource", async () => {
      const program = await _installedProgram();
      const load = (res: string) => require(path.join(program, "node_modules", "pulumi-dns-account", "dist", "provider", res, "lifecycle.js"));
      const ctx = { config: { baseUrl: t.emu.url, username: OPS, password: OPS_PASSWORD }, allowInsecureHttp: false, warn: () => undefined };
      await t.dashboard.dnsServers.updateSettings(server.id, { block_ttl_seconds: 42, user_rules_settings: { enabled: true, rules: ["||imported.example^"] } } as never);
      for (const [res, id] of [
        ["dns-server", server.id],
        ["device", device.id],
        ["dedicated-ipv4", address.id],
      ] as const) {
        const lifecycle = load(res);
        const read = await lifecycle.read(ctx, id, {});
        assert.equal(read.id, id, res);
        assert.ok(read.inputs, `${res}: inputs`);
        const checked = await lifecycle.check(ctx, {}, read.inputs);
        assert.deepEqual(checked.failures ?? [], [], `${res}: check`);
        const d = await lifecycle.diff(ctx, id, read.props, read.inputs);
        assert.equal(d.changes, false, `${res}: diff ${JSON.stringify(d)}`);
      }
      const s = await load("dns-server").read(ctx, server.id, {});
      assert.equal(s.inputs.name, "Kept");
      assert.equal(s.inputs.settings.blockTtlSeconds, 42);
      assert.deepEqual(s.inputs.settings.userRules.rules, ["||imported.example^"]);
      assert.equal((await load("dedicated-ipv4").read(ctx, address.id, {})).inputs.deviceId, device.id);
    });
  });
});
