import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ConfigError, createClient, DnsAccountError, StoppedError } from "../../../sdk";

/** One request the server saw, answered by `answer` whenever the test says. */
interface Arrived {
  method: string;
  path: string;
  answer(status: number, json: unknown, headers?: Record<string, string>): void;
  /** Resolves when the connection closed before an answer: the client gave the request up. */
  abandoned: Promise<void>;
}

/**
 * A client's stop signal (`Client.withStop`, issue 34: OpenTofu's StopProvider): what it cuts off at once
 * (waits, logins waited for, idempotent requests) and what it lets finish (a POST already sent). The
 * server here answers when the test says, so nothing waits for time.
 */
describe("Client.withStop: a stop signal aborts what is in flight, and never a POST already sent", () => {
  let server: Server;
  let url = "";
  let arrivals: ((a: Arrived) => void)[] = [];
  let seen: string[] = [];
  const next = (): Promise<Arrived> => new Promise((resolve) => arrivals.push(resolve));

  before(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      req.on("end", () => {
        const path = new URL(req.url ?? "/", "http://x").pathname;
        seen.push(`${req.method} ${path}`);
        const abandoned = new Promise<void>((resolve) => res.once("close", () => resolve()));
        const arrived: Arrived = {
          method: req.method ?? "GET",
          path,
          abandoned,
          answer: (status, json, headers = {}) => {
            const body = JSON.stringify(json);
            res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), ...headers });
            res.end(body);
          },
        };
        const waiting = arrivals.shift();
        if (waiting) waiting(arrived);
        else arrived.answer(404, { error_code: "NOT_FOUND" });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    arrivals = [];
    seen = [];
  });

  it("a GET in flight is cut off with 'stopped' (a StoppedError whose cause is the signal's reason)", async () => {
    const client = createClient({ baseUrl: url, apiKey: "stop-test-key" });
    const stop = new AbortController();
    const arriving = next();
    const call = client.withStop(stop.signal).request({ path: "/devices" });
    const got = await arriving;
    const reason = new Error("tofu stopped the provider");
    stop.abort(reason);
    const err = await call.then(
      () => assert.fail("the call should be stopped"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof StoppedError && err instanceof DnsAccountError);
    assert.equal(err.code, "stopped");
    assert.equal(err.cause, reason);
    await got.abandoned;
    await client.close();
  });

  it("a Retry-After wait ends at once; the plain client is not stopped by a view's signal", async () => {
    const client = createClient({ baseUrl: url, apiKey: "stop-test-key" });
    const stop = new AbortController();
    const arriving = next();
    const call = client.withStop(stop.signal).request({ path: "/devices" });
    (await arriving).answer(429, { error_code: "http_429" }, { "retry-after": "50" });
    // The 429 is answered: the client now waits 50 s. A request the plain client makes goes through meanwhile.
    const plainArriving = next();
    const plain = client.request({ path: "/account/limits" });
    (await plainArriving).answer(200, { ok: true });
    assert.deepEqual(await plain, { ok: true });
    stop.abort();
    await assert.rejects(call, (e: unknown) => e instanceof DnsAccountError && e.code === "stopped");
    assert.deepEqual(seen, ["GET /oapi/v1/devices", "GET /oapi/v1/account/limits"], "the stopped call was not sent again");
    // Stopped already: a view sends nothing more, the plain client still does.
    await assert.rejects(client.withStop(stop.signal).request({ path: "/devices" }), { code: "stopped" });
    assert.equal(seen.length, 2);
    await client.close();
  });

  it("a POST already sent is let finish (its answer is returned); no POST is sent once stopped", async () => {
    const client = createClient({ baseUrl: url, apiKey: "stop-test-key" });
    const stop = new AbortController();
    const view = client.withStop(stop.signal);
    const arriving = next();
    const created = view.request({ path: "/devices", method: "POST", body: { name: "Laptop" } });
    const got = await arriving;
    stop.abort();
    got.answer(200, { id: "d1" });
    assert.deepEqual(await created, { id: "d1" }, "the created object's id is known");
    await assert.rejects(view.request({ path: "/devices", method: "POST", body: { name: "Phone" } }), { code: "stopped" });
    await assert.rejects(view.request({ path: "/devices/d1", method: "PUT", body: {} }), { code: "stopped" });
    assert.deepEqual(seen, ["POST /oapi/v1/devices"]);
    await client.close();
  });

  it("a wait for a login ends at once; the login goes on and its tokens stay with the session", async () => {
    const client = createClient({ baseUrl: url, credentials: { username: "user@example.com", password: "pw-not-real" } });
    const stop = new AbortController();
    const arriving = next();
    const call = client.withStop(stop.signal).request({ path: "/devices" });
    const login = await arriving;
    assert.equal(login.path, "/oapi/v1/oauth_token");
    stop.abort();
    await assert.rejects(call, { code: "stopped" });
    login.answer(200, { access_token: "access-1", refresh_token: "refresh-1", token_type: "bearer", expires_in: 3600 });
    await login.abandoned;
    // The session kept what the login returned: the next call needs no login.
    const listed = next();
    const again = client.request({ path: "/devices" });
    const got = await listed;
    assert.equal(got.path, "/oapi/v1/devices");
    got.answer(200, []);
    assert.deepEqual(await again, []);
    assert.equal(client.session.tokens?.refreshToken, "refresh-1");
    await client.close();
  });

  it("one view per signal, sharing the client's state; a view's close() leaves the client open; only an AbortSignal is taken", async () => {
    const client = createClient({ baseUrl: url, apiKey: "stop-test-key" });
    const stop = new AbortController();
    const view = client.withStop(stop.signal);
    assert.equal(client.withStop(stop.signal), view);
    assert.notEqual(client.withStop(new AbortController().signal), view);
    assert.equal(view.host, client.host);
    assert.throws(() => view.withStop(stop.signal), ConfigError);
    assert.throws(() => client.withStop({} as AbortSignal), (e: unknown) => e instanceof ConfigError && e.field === "signal");
    await view.close();
    const arriving = next();
    const call = client.request({ path: "/devices" });
    (await arriving).answer(200, []);
    assert.deepEqual(await call, []);
    await client.close();
  });
});
