import assert from "node:assert/strict";
import { createClient } from "../../../sdk";
import { _useFakeApi } from "../../support/fake-api";

const item = {
  time_millis: 1_700_000_000_000,
  time_iso: "2023-11-14T22:13:20.000Z",
  domain: "example.test",
  company_id: "Example",
  category_type: "OTHERS",
  device_id: "d1",
  dns_server_id: "s1",
  dnssec: false,
  filtering_info: { filtering_status: "NONE" },
};

describe("client: query-log protocol and response country, read tolerantly", () => {
  const api = _useFakeApi(() => ({
    json: {
      items: [
        { ...item, dns_proto_type: "DOH", response_country: "US" },
        // A protocol 1.15 does not list yet is kept as its string; null reads as absent.
        { ...item, dns_proto_type: "DOH3", response_country: null },
        { ...item, dns_proto_type: null },
        item,
      ],
      pages: [{ page_cursor: "c1", page_number: 1, current: true }],
    },
  }));

  it("reads known and unknown protocols, and null or missing fields as absent", async () => {
    const client = createClient({ baseUrl: api.url(), apiKey: "key" });
    try {
      const { items } = await client.queryLog.get({ time_from_millis: 0, time_to_millis: 1 });
      assert.deepEqual(
        items.map((q) => [q.dns_proto_type, q.response_country, "dns_proto_type" in q, "response_country" in q]),
        [
          ["DOH", "US", true, true],
          ["DOH3", undefined, true, false],
          [undefined, undefined, false, false],
          [undefined, undefined, false, false],
        ],
      );
    } finally {
      await client.close();
    }
  });
});
