import assert from "node:assert/strict";
import { createClient, LIST_LIMITS, ProtocolError } from "../../../sdk";
import { _rejects } from "../../support/helpers";
import { _useFakeApi } from "../../support/fake-api";

// A hostile server cannot make a listing hold unbounded memory: list() stops at a number of objects and
// of bytes, and no cursor longer than a limit is kept or sent back, each a ProtocolError naming the limit.

const server = (id: string, pad = "") => ({
  id,
  name: `Device ${id}`,
  device_type: "LINUX",
  dns_server_id: "s1",
  dns_addresses: Object.fromEntries(
    ["adguard_dns_over_https_url", "adguard_dns_over_quic_url", "adguard_dns_over_tls_url", "adguard_vpn_dns_over_https_url", "adguard_vpn_dns_over_quic_url", "adguard_vpn_dns_over_tls_url", "dns_over_https_url", "dns_over_quic_url", "dns_over_tls_url"].map((k) => [k, "https://d.example/"]),
  ),
  settings: { protection_enabled: true, detect_doh_auth_only: false },
  pad,
});

describe("bounded listings against a hostile server", function () {
  this.timeout(120_000);
  let mode: "items" | "bytes" | "cursor" = "items";
  let pagesServed = 0;
  const api = _useFakeApi((req) => {
    if (req.path !== "/oapi/v2/devices") return undefined;
    pagesServed++;
    const n = pagesServed;
    if (mode === "cursor") return { json: { items: [server(`c${n}`)], navigation: { next: { page_cursor: "k".repeat(LIST_LIMITS.cursorLength + 1), page_number: 2 } } } };
    if (mode === "bytes") return { json: { items: [server(`b${n}`, "x".repeat(1024 * 1024 - 200))], navigation: { next: { page_cursor: `p${n}`, page_number: n + 1 } } } };
    // 1,000 objects a page, never ending.
    return { json: { items: Array.from({ length: 1000 }, (_, i) => server(`i${n}-${i}`)), navigation: { next: { page_cursor: `p${n}`, page_number: n + 1 } } } };
  });
  let client: ReturnType<typeof createClient>;
  before(() => {
    client = createClient({ baseUrl: api.url(), apiKey: "bounded-key", retry: { retries: 0 } });
  });
  after(() => client?.close());
  beforeEach(() => {
    pagesServed = 0;
  });

  it(`list() gathers at most ${LIST_LIMITS.items} objects`, async () => {
    mode = "items";
    const err = await _rejects(client.devices.list());
    assert.ok(err instanceof ProtocolError);
    assert.equal(err.field, "list.items");
    assert.equal(pagesServed, LIST_LIMITS.items / 1000 + 1, "stops at the page that goes past the limit");
  });

  it(`list() reads at most ${LIST_LIMITS.bytes / 1024 / 1024} MiB of pages in all`, async () => {
    mode = "bytes";
    const err = await _rejects(client.devices.list());
    assert.ok(err instanceof ProtocolError);
    assert.equal(err.field, "list.bytes");
    assert.ok(pagesServed <= LIST_LIMITS.bytes / (1024 * 1024) + 1, `${pagesServed} pages`);
    // pages() streams: the caller decides what to keep, so it has no byte budget.
    let streamed = 0;
    for await (const page of client.devices.pages()) if ((streamed += page.items.length) > LIST_LIMITS.bytes / (1024 * 1024) + 5) break;
    assert.ok(streamed > LIST_LIMITS.bytes / (1024 * 1024));
  });

  it(`no cursor longer than ${LIST_LIMITS.cursorLength} characters is kept or sent back, by list() or pages()`, async () => {
    mode = "cursor";
    const err = await _rejects(client.devices.list());
    assert.ok(err instanceof ProtocolError);
    assert.equal(err.field, "list.cursorLength");
    assert.equal(pagesServed, 1);
    const pages = client.devices.pages();
    assert.equal((await pages.next()).done, false);
    const streamed = await _rejects(pages.next());
    assert.equal((streamed as ProtocolError).field, "list.cursorLength");
    assert.equal(pagesServed, 2, "the long cursor was never sent back");
  });
});
