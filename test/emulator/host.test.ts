import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import { type Emulator, startEmulator } from "../../emulator";
import { HostCheck, isLoopbackHost, parseAllowedHost, parseHost } from "../../emulator/http/host";
import { ConfigError } from "../../sdk";
import { _rejects, _useEmulator } from "../support/helpers";

const KEY = "emulator-api-key-user";
const PASSWORD = "emulator-password";

interface Reply {
  status: number;
  body: string;
}

/** One request over its own connection to `address:port`, with exactly the Host given (none when undefined). */
function send(port: number, host: string | undefined, req: { method?: string; path: string; headers?: Record<string, string>; body?: string }, address = "127.0.0.1"): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...req.headers };
    if (host !== undefined) headers.host = host;
    if (req.body !== undefined) headers["content-length"] = String(Buffer.byteLength(req.body));
    const r = http.request({ host: address, port, method: req.method ?? "GET", path: req.path, headers, setHost: false, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    r.once("error", reject);
    r.end(req.body);
  });
}

/** A request written byte for byte (HTTP/1.0, no Host, two Hosts, absolute form), read to its close. */
function raw(port: number, text: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(text));
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (data += d));
    socket.once("error", reject);
    socket.once("close", () => {
      const [head = "", ...rest] = data.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1]), body: rest.join("\r\n\r\n") });
    });
  });
}

const form = (fields: Record<string, string>) => ({ headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
const apiKey = { authorization: `ApiKey ${KEY}` };

/** One request of each kind the emulator serves, and what it answers when the Host is right. */
function routes(refreshToken: () => string, serverId: () => string) {
  return [
    { kind: "token (password grant)", ok: 200, method: "POST", path: "/oapi/v1/oauth_token", ...form({ grant_type: "password", username: "user@example.com", password: PASSWORD }) },
    { kind: "token (refresh grant)", ok: 200, method: "POST", path: "/oapi/v1/oauth_token", get body() { return new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken() }).toString(); }, headers: form({}).headers },
    { kind: "authorize", ok: 302, path: "/oapi/v1/oauth_authorize?response_type=token&client_id=dns-account-cli&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcallback&state=s" },
    { kind: "login page", ok: 200, path: "/login" },
    { kind: "OpenAPI document", ok: 200, path: "/swagger/openapi.json" },
    { kind: "OpenAPI document (static)", ok: 200, path: "/static/swagger/openapi.json" },
    { kind: "API read (ApiKey)", ok: 200, path: "/oapi/v1/account/limits", headers: apiKey },
    { kind: "API listing (ApiKey)", ok: 200, path: "/oapi/v2/dns_servers", headers: apiKey },
    { kind: "API write (ApiKey)", ok: 200, method: "POST", path: "/oapi/v1/devices", headers: { ...apiKey, "content-type": "application/json" }, get body() { return JSON.stringify({ name: "Rebound", device_type: "MAC", dns_server_id: serverId() }); } },
    { kind: "API without credentials", ok: 401, path: "/oapi/v1/devices" },
    { kind: "unknown path", ok: 404, path: "/nothing-here" },
    { kind: "wrong method", ok: 405, method: "GET", path: "/oapi/v1/oauth_token" },
    { kind: "revoke", ok: 200, method: "POST", path: "/oapi/v1/revoke_token", get body() { return new URLSearchParams({ token: refreshToken() }).toString(); }, headers: form({}).headers },
  ];
}

describe("emulator: answers only requests for its own address (DNS rebinding)", () => {
  const emu = _useEmulator();
  let refreshToken = "";
  let serverId = "";
  const port = () => emu().port;

  before(async () => {
    const r = await send(port(), `127.0.0.1:${port()}`, { method: "POST", path: "/oapi/v1/oauth_token", ...form({ username: "user@example.com", password: PASSWORD }) });
    refreshToken = (JSON.parse(r.body) as { refresh_token: string }).refresh_token;
    const servers = await send(port(), `127.0.0.1:${port()}`, { path: "/oapi/v1/dns_servers", headers: apiKey });
    serverId = (JSON.parse(servers.body) as { id: string }[])[0]!.id;
  });

  it("Host rebind.attacker.example:<port> gets 421 on every route, with the published API key too, and changes nothing", async () => {
    const before = { ...emu().stats };
    const devices = await send(port(), `127.0.0.1:${port()}`, { path: "/oapi/v1/devices", headers: apiKey });
    for (const route of routes(() => refreshToken, () => serverId)) {
      const r = await send(port(), `rebind.attacker.example:${port()}`, route);
      assert.equal(r.status, 421, route.kind);
      assert.deepEqual(Object.keys(JSON.parse(r.body) as object), ["error", "error_code", "error_description"], route.kind);
      assert.equal((JSON.parse(r.body) as { error_code: string }).error_code, "misdirected_request", route.kind);
      for (const leak of ["rebind", "attacker", "user@example.com", refreshToken, "dns_servers", "access_rules", "openapi"]) assert.ok(!r.body.toLowerCase().includes(leak.toLowerCase()), `${route.kind}: ${leak}`);
    }
    // Nothing was served: no grant, no API call, no device, the refresh token still live.
    assert.equal(emu().stats.tokenCalls, before.tokenCalls);
    assert.equal(emu().stats.apiCalls, before.apiCalls + 1);
    assert.equal(emu().stats.revokeCalls, before.revokeCalls);
    assert.equal(emu().stats.authorizeCalls, before.authorizeCalls);
    assert.equal((await send(port(), `127.0.0.1:${port()}`, { path: "/oapi/v1/devices", headers: apiKey })).body, devices.body);
    assert.equal(emu().tokenCounts("user@example.com").refreshTokens, 1);
  });

  it("every other name, port or form of Host is refused too", async () => {
    const p = port();
    for (const host of [
      `rebind.attacker.example:${p}`,
      "rebind.attacker.example",
      `127.0.0.1:${p + 1 === 65536 ? 1 : p + 1}`,
      "127.0.0.1", // port 80 implied
      `localhost.:${p}`,
      `sub.localhost:${p}`,
      `127.0.0.2:${p}`,
      `0.0.0.0:${p}`,
      `2130706433:${p}`,
      `127.1:${p}`,
      `user@127.0.0.1:${p}`,
      `127.0.0.1:${p}@rebind.attacker.example`,
      `127.0.0.1:${p}/x`,
      `[::2]:${p}`,
      `[::1]`,
      "",
    ]) {
      const r = await send(p, host, { path: "/oapi/v1/account/limits", headers: apiKey });
      assert.equal(r.status, 421, JSON.stringify(host));
    }
  });

  it("127.0.0.1, localhost and [::1] with its port are answered, in any letter case, on every route", async () => {
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, `LocalHost:${port()}`, `[::1]:${port()}`, `[0:0::1]:${port()}`]) {
      for (const route of routes(() => refreshToken, () => serverId)) {
        const r = await send(port(), host, route);
        assert.equal(r.status, route.ok, `${host} ${route.kind}`);
        if (route.kind === "token (password grant)") refreshToken = (JSON.parse(r.body) as { refresh_token: string }).refresh_token;
      }
    }
  });

  it("a request without Host, or with two, gets 400 missing_host, HTTP/1.0 included", async () => {
    const p = port();
    const requests = [
      `GET /oapi/v1/account/limits HTTP/1.1\r\nAuthorization: ApiKey ${KEY}\r\nConnection: close\r\n\r\n`,
      `GET /oapi/v1/account/limits HTTP/1.0\r\nAuthorization: ApiKey ${KEY}\r\n\r\n`,
      `GET /swagger/openapi.json HTTP/1.0\r\n\r\n`,
      `GET /oapi/v1/account/limits HTTP/1.1\r\nHost: 127.0.0.1:${p}\r\nHost: rebind.attacker.example:${p}\r\nAuthorization: ApiKey ${KEY}\r\nConnection: close\r\n\r\n`,
    ];
    for (const text of requests) {
      const r = await raw(p, text);
      assert.equal(r.status, 400, text);
      assert.equal((JSON.parse(r.body) as { error_code: string }).error_code, "missing_host");
    }
    const ok = await raw(p, `GET /oapi/v1/account/limits HTTP/1.0\r\nHost: localhost:${p}\r\nAuthorization: ApiKey ${KEY}\r\n\r\n`);
    assert.equal(ok.status, 200);
  });

  it("a request target in absolute form must name the emulator as well (it wins over Host)", async () => {
    const p = port();
    const line = (target: string) => `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${p}\r\nAuthorization: ApiKey ${KEY}\r\nConnection: close\r\n\r\n`;
    assert.equal((await raw(p, line(`http://rebind.attacker.example:${p}/oapi/v1/account/limits`))).status, 421);
    assert.equal((await raw(p, line(`http://x@127.0.0.1:${p}/oapi/v1/account/limits`))).status, 421);
    assert.equal((await raw(p, line(`http://localhost:${p}/oapi/v1/account/limits`))).status, 200);
  });

  it("an armed fault is not spent by a misdirected request", async () => {
    emu().inject({ kind: "status", status: 503, count: 1 });
    assert.equal((await send(port(), `rebind.attacker.example:${port()}`, { path: "/oapi/v1/account/limits", headers: apiKey })).status, 421);
    assert.equal((await send(port(), `127.0.0.1:${port()}`, { path: "/oapi/v1/account/limits", headers: apiKey })).status, 503);
  });
});

describe("emulator: the listening address", () => {
  const closing: Emulator[] = [];
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((e) => e.close()));
  });
  const start = async (options: Parameters<typeof startEmulator>[0]) => {
    const e = await startEmulator(options);
    closing.push(e);
    return e;
  };

  it("listening on ::1, [::1]:<port> and localhost:<port> are answered and other names are not", async function () {
    let e: Emulator;
    try {
      e = await start({ host: "::1" });
    } catch (err) {
      if (["EADDRNOTAVAIL", "EAFNOSUPPORT"].includes(String((err as { code?: string }).code))) {
        console.log("      skipped: this machine has no IPv6 loopback (::1); the IPv4 forms are tested above");
        this.skip();
      }
      throw err;
    }
    assert.equal(e.url, `http://[::1]:${e.port}`);
    for (const host of [`[::1]:${e.port}`, `localhost:${e.port}`, `127.0.0.1:${e.port}`]) {
      assert.equal((await send(e.port, host, { path: "/oapi/v1/account/limits", headers: apiKey }, "::1")).status, 200, host);
    }
    assert.equal((await send(e.port, `rebind.attacker.example:${e.port}`, { path: "/oapi/v1/account/limits", headers: apiKey }, "::1")).status, 421);
  });

  it("another loopback address (127.0.0.2) is answered by that address as well", async () => {
    const e = await start({ host: "127.0.0.2" });
    assert.equal((await send(e.port, `127.0.0.2:${e.port}`, { path: "/oapi/v1/account/limits", headers: apiKey }, "127.0.0.2")).status, 200);
    assert.equal((await send(e.port, `rebind.attacker.example:${e.port}`, { path: "/oapi/v1/account/limits", headers: apiKey }, "127.0.0.2")).status, 421);
  });

  it("a host that is not loopback is refused with a ConfigError naming host (or its flag), unless allowRemote", async () => {
    for (const host of ["0.0.0.0", "::", "192.0.2.1", "example.com", "::ffff:10.0.0.1"]) {
      const err = await _rejects(startEmulator({ host }));
      assert.ok(err instanceof ConfigError, host);
      assert.equal(err.code, "invalid_config");
      assert.equal(err.field, "host");
      assert.match(err.message, /^host is not a loopback address .*set allowRemote/);
      assert.ok(!err.message.replace("::1", "").includes(host), "the message names the option, not the value");
    }
    const named = await _rejects(startEmulator({ host: "0.0.0.0", optionNames: { host: "--host", allowRemote: "--allow-remote" } }));
    assert.equal(named.field, "--host");
    assert.match(named.message, /^--host is not a loopback address .*set --allow-remote/);
    assert.equal((await _rejects(startEmulator({ host: " " }))).field, "host");
  });

  it("with allowRemote on 0.0.0.0: the machine's addresses and the bound address are answered, other names are not", async () => {
    const e = await start({ host: "0.0.0.0", allowRemote: true });
    assert.equal((await send(e.port, `0.0.0.0:${e.port}`, { path: "/oapi/v1/account/limits", headers: apiKey })).status, 200);
    assert.equal((await send(e.port, `localhost:${e.port}`, { path: "/oapi/v1/account/limits", headers: apiKey })).status, 200);
    const own = Object.values(os.networkInterfaces()).flatMap((l) => l ?? []).find((i) => i.family === "IPv4" && !i.internal);
    if (own) assert.equal((await send(e.port, `${own.address}:${e.port}`, { path: "/oapi/v1/account/limits", headers: apiKey }, own.address)).status, 200, "an interface address");
    assert.equal((await send(e.port, `198.51.100.9:${e.port}`, { path: "/oapi/v1/account/limits", headers: apiKey })).status, 421, "an address of another machine");
    assert.equal((await send(e.port, `rebind.attacker.example:${e.port}`, { path: "/oapi/v1/account/limits", headers: apiKey })).status, 421);
  });

  it("allowedHosts answers the names listed (docker-compose's emulator, a port mapping), with their port", async () => {
    const e = await start({ allowedHosts: ["emulator", "Proxy.Example:9000", "::2"] });
    const status = async (host: string) => (await send(e.port, host, { path: "/oapi/v1/account/limits", headers: apiKey })).status;
    assert.equal(await status(`emulator:${e.port}`), 200);
    assert.equal(await status(`EMULATOR:${e.port}`), 200);
    assert.equal(await status("proxy.example:9000"), 200);
    assert.equal(await status(`[::2]:${e.port}`), 200);
    assert.equal(await status("emulator:9000"), 421, "a name listed without a port takes the emulator's");
    assert.equal(await status(`proxy.example:${e.port}`), 421, "a name listed with a port takes only that one");
    assert.equal(await status(`rebind.attacker.example:${e.port}`), 421);
  });

  it("a malformed allowedHosts entry is a ConfigError naming the option (or its flag), never the entry", async () => {
    for (const entry of ["", "a b", "user@host", "http://emulator", "emulator:0", "emulator:70000", "*"]) {
      const err = await _rejects(startEmulator({ allowedHosts: ["emulator", entry], optionNames: { allowedHosts: "--allow-host" } }));
      assert.ok(err instanceof ConfigError, entry);
      assert.equal(err.field, "--allow-host");
      assert.match(err.message, /^--allow-host: entry 2 is not a host name or address/);
      if (entry.length > 1) assert.ok(!err.message.includes(entry), entry);
    }
  });
});

describe("emulator: the Host rule, unit by unit", () => {
  it("parseHost takes a name, an IPv4 or a bracketed IPv6 address, with an optional port, and nothing else", () => {
    assert.deepEqual(parseHost("LocalHost:8787"), { name: "localhost", port: 8787 });
    assert.deepEqual(parseHost("[0:0::1]:80"), { name: "[::1]", port: 80 });
    assert.deepEqual(parseHost("emulator"), { name: "emulator", port: undefined });
    for (const bad of ["", "a@b", "a/b", "a:b", "[::1", "::1", "[zz]:1", "a..b", ".a", "a.", "a:0", "a:65536", "a:123456"]) assert.equal(parseHost(bad), undefined, bad);
  });

  it("isLoopbackHost: 127.0.0.0/8, ::1 (any spelling), an IPv4-mapped 127 address and localhost", () => {
    for (const h of ["127.0.0.1", "127.9.8.7", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "localhost", "LOCALHOST"]) assert.equal(isLoopbackHost(h), true, h);
    for (const h of ["0.0.0.0", "::", "10.0.0.1", "::ffff:10.0.0.1", "128.0.0.1", "localhost.example", "127.0.0.1.nip.io", ""]) assert.equal(isLoopbackHost(h), false, h);
  });

  it("HostCheck: a Host without a port means 80, or 443 behind a TLS front", () => {
    const rule = new HostCheck({ host: "127.0.0.1", address: "127.0.0.1", port: 80 });
    assert.equal(rule.allows("localhost"), true);
    assert.equal(rule.allows("localhost:80"), true);
    assert.equal(rule.allows("localhost:8080"), false);
    const behindTls = new HostCheck({ host: "127.0.0.1", address: "127.0.0.1", port: 8787, allowedHosts: [parseAllowedHost("api.example.test:443")!] });
    assert.equal(behindTls.allows("api.example.test"), true);
    assert.equal(behindTls.allows("api.example.test:443"), true);
    assert.equal(behindTls.allows("api.example.test:8787"), false);
    assert.equal(behindTls.allows("localhost"), false, "the emulator's own port is neither 80 nor 443");
  });
});
