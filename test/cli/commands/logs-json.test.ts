import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../../emulator";
import { createClient } from "../../../sdk";
import { _cli as cli } from "../_cli";

const KEY = "key-LOGSJSON-4c2d9e10";

describe("dns-account logs --json passes the service's query-log items on, dns_proto_type and response_country included", function () {
  this.timeout(60_000);
  let emu: Emulator;

  before(async () => {
    emu = await startEmulator({ users: [{ username: "logs@example.com", password: "pw-LOGSJSON" }], apiKeys: [{ key: KEY, username: "logs@example.com" }], trafficSeed: 5 });
    const client = createClient({ baseUrl: emu.url, apiKey: KEY });
    try {
      const [server] = await client.dnsServers.list();
      await client.devices.create({ name: "Laptop", device_type: "MAC", dns_server_id: server!.id });
    } finally {
      await client.close();
    }
  });
  after(async () => {
    await emu?.close();
  });

  it("prints each item as the service sent it", async () => {
    const r = await cli(["logs", "--since", "1d", "--limit", "200", "--json"], { DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_API_KEY: KEY });
    assert.equal(r.code, 0, r.stderr);
    const items = JSON.parse(r.stdout) as Record<string, unknown>[];
    assert.ok(items.length > 20, `${items.length} items`);
    for (const q of items) assert.equal(typeof q.dns_proto_type, "string");
    const answered = items.filter((q) => (q.filtering_info as { filtering_status: string }).filtering_status !== "REQUEST_BLOCKED");
    assert.ok(answered.length > 0 && answered.every((q) => typeof q.response_country === "string"));
  });
});
