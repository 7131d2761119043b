import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../../emulator";
import { createClient } from "../../sdk";
import { _api } from "./_api";

const NOW = Date.UTC(2026, 10, 1, 12);
const DAY = 86_400_000;
/** `DnsProtoType` of 1.15: the secure and the regular protocols. */
const PROTOCOLS = ["DOH", "DOQ", "DOT", "DNSCRYPT", "DNSCRYPT_TCP", "DNSCRYPT_UDP", "DNS", "PLAIN_TCP", "PLAIN_UDP"];

/** An emulator at NOW with two devices, so the synthetic traffic has queries. */
async function withTraffic(options: { queryLogProtocolFields?: boolean } = {}): Promise<Emulator> {
  const emu = await startEmulator({ now: () => NOW, trafficSeed: 3, ...options });
  const call = _api(() => emu);
  const server = (await call("GET", "/oapi/v1/dns_servers")).json[0].id;
  for (const name of ["A", "B"]) await call("POST", "/oapi/v1/devices", { name, device_type: "IOS", dns_server_id: server });
  return emu;
}

describe("emulator: query-log items carry dns_proto_type and response_country, as the service's do", () => {
  it("every item has a 1.15 protocol; answered items have a response country, blocked ones none; the SDK reads both", async () => {
    const emu = await withTraffic();
    const client = createClient({ baseUrl: emu.url, apiKey: "emulator-api-key-user" });
    try {
      const { items } = await client.queryLog.get({ time_from_millis: NOW - DAY, time_to_millis: NOW, limit: 1000 });
      assert.ok(items.length > 50);
      for (const q of items) {
        assert.ok(PROTOCOLS.includes(q.dns_proto_type!), String(q.dns_proto_type));
        if (q.filtering_info.filtering_status === "REQUEST_BLOCKED") assert.equal(q.response_country, undefined);
        else assert.match(q.response_country!, /^[A-Z]{2}$/);
      }
      assert.ok(new Set(items.map((q) => q.dns_proto_type)).size > 2, "protocols vary");
      assert.ok(items.some((q) => q.filtering_info.filtering_status === "REQUEST_BLOCKED"));
    } finally {
      await client.close();
      await emu.close();
    }
  });

  it("queryLogProtocolFields: false omits both (a server that never sends them), and the SDK reads that too", async () => {
    const emu = await withTraffic({ queryLogProtocolFields: false });
    const client = createClient({ baseUrl: emu.url, apiKey: "emulator-api-key-user" });
    try {
      const { items } = await client.queryLog.get({ time_from_millis: NOW - DAY, time_to_millis: NOW, limit: 1000 });
      assert.ok(items.length > 50);
      for (const q of items) assert.ok(!("dns_proto_type" in q) && !("response_country" in q));
    } finally {
      await client.close();
      await emu.close();
    }
  });
});
