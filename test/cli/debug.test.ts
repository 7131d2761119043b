import assert from "node:assert/strict";
import diagnostics from "node:diagnostics_channel";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";
import { enableDebug, redactedPath } from "../../cli/debug";
import { _assertNoSecrets, _closeAll } from "../support/helpers";

const SECRET = "tok-DEBUG-5d2e8c41Ab";
const PASSWORD = "pw-DEBUG-0f9a7b63Cd";
/** Each secret as written, in lower and upper case, and percent-encoded. */
const SECRETS = [...new Set([SECRET, PASSWORD].flatMap((s) => [s, s.toLowerCase(), s.toUpperCase(), encodeURIComponent(s)]))];

/** `--debug`'s trace (cli/debug.ts) in-process: what a line says, and that no secret is ever in one. */
describe("dns-account --debug: the trace of each exchange", function () {
  describe("redactedPath", () => {
    it("keeps a path without a query as it is", () => {
      assert.equal(redactedPath("/oapi/v1/account/limits"), "/oapi/v1/account/limits");
      assert.equal(redactedPath(""), "");
    });

    it("replaces every query value (a revoke falling back to the query carries the refresh token there)", () => {
      assert.equal(redactedPath(`/oapi/v1/revoke_token?refresh_token=${SECRET}&token_type_hint=refresh_token`), "/oapi/v1/revoke_token?refresh_token=<redacted>&token_type_hint=<redacted>");
      assert.equal(redactedPath(`/x?password=${encodeURIComponent(PASSWORD)}`), "/x?password=<redacted>");
    });

    it("shows the values of ranges, limits and filters, each character outside [\\w.%-] as _", () => {
      const shown = ["time_from_millis", "time_to_millis", "limit", "devices", "dns_servers", "statuses", "categories", "countries", "companies"];
      const query = shown.map((key, i) => `${key}=v${i}.x-y%2C_z`).join("&");
      assert.equal(redactedPath(`/oapi/v1/stats?${query}`), `/oapi/v1/stats?${shown.map((key, i) => `${key}=v${i}.x-y%2C_z`).join("&")}`);
      assert.equal(redactedPath("/q?devices=a,b<script>&limit=5"), "/q?devices=a_b_script_&limit=5");
      // A key is compared decoded: li%6Dit is limit.
      assert.equal(redactedPath("/q?li%6Dit=7"), "/q?limit=7");
    });

    it("writes a key decoded, each character outside [\\w.-[]] as _, and a malformed one as it came", () => {
      assert.equal(redactedPath(`/q?re%20fresh%0Atoken=${SECRET}`), "/q?re_fresh_token=<redacted>");
      assert.equal(redactedPath("/q?a%E0%A4%A=1"), "/q?a_E0_A4_A=<redacted>");
      assert.equal(redactedPath("/q?filter[0].x-y=1"), "/q?filter[0].x-y=<redacted>");
    });

    it("redacts a query that is the whole path", () => {
      assert.equal(redactedPath(`?refresh_token=${SECRET}`), "?refresh_token=<redacted>");
    });

    it("drops empty pairs and redacts a key without a value", () => {
      assert.equal(redactedPath("/q?&&limit=5&&flag"), "/q?limit=5&flag=<redacted>");
      assert.equal(redactedPath("/q?"), "/q?");
    });
  });

  describe("enableDebug", () => {
    const lines: string[] = [];
    let capturing = false;
    let server: Server;
    let origin: string;
    let closed: string;
    const agent = new Agent({ keepAliveTimeout: 10 });

    before(async () => {
      server = createServer((req, res) => {
        req.resume();
        req.on("end", () => {
          res.writeHead(req.url!.startsWith("/missing") ? 404 : 201, { "content-type": "application/json", "set-cookie": `session=${SECRET}` });
          res.end(JSON.stringify({ access_token: SECRET }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      // A port that was just free: nothing listens there.
      const gone = createServer();
      await new Promise<void>((resolve) => gone.listen(0, "127.0.0.1", resolve));
      closed = `http://127.0.0.1:${(gone.address() as AddressInfo).port}`;
      await new Promise((resolve) => gone.close(resolve));
      // Subscribed once for the process; the writer keeps only what these tests send.
      const write = (line: string) => void (capturing && lines.push(line));
      enableDebug(write);
      enableDebug(write);
    });

    after(() => _closeAll(() => agent.close(), () => new Promise((resolve) => server.close(resolve))));

    /** The trace of `fn`'s requests, with the time the test itself measured around them. */
    const traced = async (fn: () => Promise<unknown>): Promise<{ lines: string[]; ms: number }> => {
      lines.length = 0;
      capturing = true;
      const start = performance.now();
      try {
        await fn();
      } finally {
        capturing = false;
      }
      return { lines: [...lines], ms: performance.now() - start };
    };

    it("traces a request and its answer (method, origin, redacted path, status, time), once however often it was enabled", async () => {
      const t = await traced(async () => {
        const r = await request(`${origin}/oapi/v1/revoke_token?refresh_token=${SECRET}&limit=3`, {
          method: "POST",
          dispatcher: agent,
          headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/x-www-form-urlencoded", cookie: `pw=${PASSWORD}` },
          body: `password=${PASSWORD}&refresh_token=${SECRET}`,
        });
        await r.body.text();
      });
      assert.equal(t.lines.length, 2, t.lines.join("\n"));
      assert.equal(t.lines[0], `debug: → POST ${origin}/oapi/v1/revoke_token?refresh_token=<redacted>&limit=3`);
      const m = /^debug: ← 201 POST (\S+) \((\d+) ms\)$/.exec(t.lines[1]!);
      assert.ok(m, t.lines[1]);
      assert.equal(m[1], `${origin}/oapi/v1/revoke_token?refresh_token=<redacted>&limit=3`);
      // The time from the request's start to its headers, within what the test measured around it.
      assert.ok(Number(m[2]) <= Math.ceil(t.ms), `${m[2]} ms within ${t.ms} ms`);
      assertClean(t.lines);
    });

    it("traces a GET and an error status alike", async () => {
      const t = await traced(async () => {
        const r = await request(`${origin}/missing`, { dispatcher: agent, headers: { authorization: `ApiKey ${SECRET}` } });
        await r.body.text();
      });
      assert.deepEqual(t.lines.map((l) => l.replace(/\(\d+ ms\)$/, "(N ms)")), [`debug: → GET ${origin}/missing`, `debug: ← 404 GET ${origin}/missing (N ms)`]);
      assertClean(t.lines);
    });

    it("traces a failed request with its error code, and no secret", async () => {
      const t = await traced(async () => {
        await assert.rejects(request(`${closed}/oapi/v1/oauth_token?password=${PASSWORD}`, { method: "POST", dispatcher: agent, headers: { authorization: `Bearer ${SECRET}` }, body: PASSWORD }));
      });
      assert.deepEqual(t.lines, [`debug: → POST ${closed}/oapi/v1/oauth_token?password=<redacted>`, `debug: ✗ POST ${closed}/oapi/v1/oauth_token?password=<redacted>: ECONNREFUSED`]);
      assertClean(t.lines);
    });

    it("an event missing a field, or for a request it never announced, still makes a line of its own", () => {
      // As another client on undici's channels could send them: no method, origin or path; no code or name.
      const t0 = lines.length;
      capturing = true;
      try {
        const request = {};
        diagnostics.channel("undici:request:headers").publish({ request, response: { statusCode: 204 } });
        diagnostics.channel("undici:request:create").publish({ request });
        diagnostics.channel("undici:request:error").publish({ request, error: {} });
        diagnostics.channel("undici:request:error").publish({ request, error: { name: "AbortError" } });
      } finally {
        capturing = false;
      }
      assert.deepEqual(lines.slice(t0), ["debug: ← 204 ? ", "debug: → ? ", "debug: ✗ ? : error", "debug: ✗ ? : AbortError"]);
    });
  });
});

/** No header (name or value) and no secret, in any case, in the trace. */
function assertClean(lines: string[]): void {
  const text = lines.join("\n");
  assert.doesNotMatch(text, /authori[sz]ation|bearer|apikey|cookie|content-type|access_token/i);
  _assertNoSecrets(text, SECRETS);
}
