import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { _useFakeApi } from "../../support/fake-api";
import { _cli as cli } from "../_cli";

const KEY = "key-PAGING-4e2a9c10";

/** A query-log item of the 1.15 shape, at `n` seconds past the epoch of the range. */
const item = (n: number) => ({
  category_type: "OTHER",
  company_id: "",
  device_id: "dev-1",
  dns_server_id: "srv-1",
  dnssec: false,
  domain: `q${n}.example`,
  filtering_info: {},
  time_iso: new Date(1_000 * n).toISOString(),
  time_millis: 1_000 * n,
});

/**
 * `dns-account logs` pages within a budget set by `--limit` (issue 22 §4): a server that answers every
 * page with a fresh cursor, empty or nearly so, cannot make it send thousands of requests.
 */
describe("dns-account logs: the paging is bounded by --limit", function () {
  this.timeout(60_000);
  // Each query-log page carries a fresh cursor to the next; `perPage` items a page (0: empty pages).
  let perPage = 0;
  const api = _useFakeApi((req) => {
    if (req.path === "/oapi/v2/devices") return { json: { items: [], navigation: {} } };
    if (req.path !== "/oapi/v1/query_log") return undefined;
    const n = Number((req.query.get("cursor") ?? "c0").slice(1));
    return {
      json: {
        items: Array.from({ length: perPage }, (_, i) => item(n * perPage + i)),
        pages: [
          { page_cursor: `c${n}`, page_number: n + 1, current: true },
          { page_cursor: `c${n + 1}`, page_number: n + 2, current: false },
        ],
      },
    };
  });
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-logs-"));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const logs = (limit: string) =>
    cli(["logs", "--since", "1h", "--limit", limit, "--json"], { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: api.url(), DNS_ACCOUNT_API_KEY: KEY });
  const queryLogCalls = () => api.seen.filter((r) => r.path === "/oapi/v1/query_log").length;

  it("an empty page ends the log, whatever cursor comes with it: --limit 1 and --limit 5000 make one request", async () => {
    perPage = 0;
    for (const limit of ["1", "5000"]) {
      api.seen.length = 0;
      const r = await logs(limit);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), []);
      assert.equal(queryLogCalls(), 1, `--limit ${limit}`);
    }
  });

  it("pages far shorter than asked stop at ten times the pages --limit needs, saying so, with what was read", async () => {
    perPage = 1;
    const r = await logs("50");
    assert.equal(r.code, 0, r.stderr);
    assert.equal(queryLogCalls(), 10, "--limit 50 asks pages of 50: ten pages at most");
    assert.equal((JSON.parse(r.stdout) as unknown[]).length, 10);
    assert.match(r.stderr, /logs: stopped after 10 pages with 10 of 50 queries: the server's pages hold far fewer than the 50 asked/);
  });

  it("full pages read exactly what --limit asks, with no extra request", async () => {
    perPage = 1000;
    const r = await logs("2500");
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as unknown[]).length, 2500);
    assert.equal(queryLogCalls(), 3);
    assert.doesNotMatch(r.stderr, /stopped after/);
  });
});
