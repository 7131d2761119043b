import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ConfigError, createClient } from "../../../sdk";
import { _rejects, _useEmulator, USER } from "../../support/helpers";

describe("paths: the OpenAPI document never moves a call off the base URL's origin", () => {
  const emu = _useEmulator({ tokenLifetimeSeconds: 3600 });
  let evil: Server;
  let evilHits = 0;
  let evilPort = 0;
  before(async () => {
    evil = createServer((_req, res) => {
      evilHits++;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((r) => evil.listen(0, "127.0.0.1", r));
    evilPort = (evil.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => evil.close(() => r())));

  const hostileDocument = () => ({
    openapi: "3.0.1",
    paths: {
      [`@127.0.0.1:${evilPort}/steal`]: { get: { operationId: "steal" } },
      [`//127.0.0.1:${evilPort}/steal`]: { get: { operationId: "stealAuthority" } },
      [`\\\\127.0.0.1:${evilPort}/steal`]: { get: { operationId: "stealBackslash" } },
      "/oapi/v1/../../steal": { get: { operationId: "stealDots" } },
      "/oapi/v1/%2e%2e/steal": { get: { operationId: "stealEncodedDots" } },
      "/oapi/v1/account/limits": { get: { operationId: "getAccountLimits" } },
      "/oapi/v1/devices/{device_id}": { get: { operationId: "getDevice", parameters: [{ name: "device_id", in: "path", required: true }] } },
    },
  });

  it("leaves out paths that are not plain absolute paths, and sends nothing to another host", async () => {
    const client = createClient({ baseUrl: emu().url, credentials: USER });
    try {
      emu().inject({ kind: "status", status: 200, path: "/swagger/openapi.json", body: JSON.stringify(hostileDocument()) });
      const ids = (await client.operations()).map((o) => o.operationId).sort();
      assert.deepEqual(ids, ["getAccountLimits", "getDevice"]);
      for (const id of ["steal", "stealAuthority", "stealBackslash", "stealDots", "stealEncodedDots"]) {
        const err = await _rejects(client.call(id));
        assert.ok(err instanceof ConfigError, id);
      }
      assert.equal(evilHits, 0);
      assert.ok(await client.call("getAccountLimits"));
    } finally {
      await client.close();
    }
  });

  it("refuses ids . and .. (and empty ones) as path segments, naming the field", async () => {
    const client = createClient({ baseUrl: emu().url, credentials: USER });
    try {
      emu().inject({ kind: "status", status: 200, path: "/swagger/openapi.json", body: JSON.stringify(hostileDocument()) });
      for (const id of [".", "..", ""]) {
        const byCall = await _rejects(client.call("getDevice", { path: { device_id: id } }));
        assert.ok(byCall instanceof ConfigError);
        assert.equal(byCall.field, "path.device_id");
        for (const p of [client.devices.get(id), client.devices.remove(id), client.dnsServers.update(id, { name: "x" })]) {
          const err = await _rejects(p);
          assert.ok(err instanceof ConfigError);
          assert.equal(err.field, "id");
        }
      }
      // Anything else is one encoded segment: "../x" cannot climb.
      assert.equal((await _rejects(client.devices.get("../account/limits"))).code, "http_404");
    } finally {
      await client.close();
    }
  });
});
