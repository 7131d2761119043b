import assert from "node:assert/strict";
import { request } from "undici";
import { DEFAULT_API_KEYS } from "../../../emulator";
import { REFERENCE } from "../../../emulator/openapi/reference.generated";
import { issueToken } from "../../../sdk";
import { _useEmulator, USER } from "../../support/helpers";

/** One operation of the description: method, path template, and whether it needs a credential. */
interface Operation {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  operationId: string;
  secured: boolean;
}

/** Every operation of API 1.15, with the description's security (an operation's own, else the global one). */
function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(REFERENCE.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, { operationId: string; security?: readonly unknown[] }>)) {
      const security = op.security ?? REFERENCE.security ?? [];
      out.push({ method: method.toUpperCase() as Operation["method"], path, operationId: op.operationId, secured: security.length > 0 });
    }
  }
  return out;
}

describe("emulator: every operation the description secures refuses a caller without a valid credential", () => {
  const emu = _useEmulator();
  const ops = operations();
  const secured = ops.filter((o) => o.secured);
  const KEY = DEFAULT_API_KEYS[0]!.key;
  /** Real ids, so that an operation that skipped authentication would reach its handler, not a 404. */
  const ids: Record<string, string> = {};
  let expiredBearer = "";
  let revokedKey = "";

  const call = async (op: Operation, authorization: string | undefined) => {
    const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(ids[name] ?? "x"));
    const hasBody = op.method === "POST" || op.method === "PUT";
    const res = await request(`${emu().url}${url}`, {
      method: op.method,
      headers: { ...(authorization === undefined ? {} : { authorization }), ...(hasBody ? { "content-type": "application/json" } : {}) },
      body: hasBody ? "{}" : null,
    });
    const text = await res.body.text();
    const type = String(res.headers["content-type"] ?? "");
    return { status: res.statusCode, headers: res.headers, json: type.startsWith("application/json") && text ? JSON.parse(text) : undefined };
  };

  before(async () => {
    const auth = { authorization: `ApiKey ${KEY}`, "content-type": "application/json" };
    const servers = await request(`${emu().url}/oapi/v1/dns_servers`, { headers: auth });
    ids.dns_server_id = ((await servers.body.json()) as { id: string }[])[0]!.id;
    const device = await request(`${emu().url}/oapi/v1/devices`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "Sweep", device_type: "LINUX", dns_server_id: ids.dns_server_id }),
    });
    assert.equal(device.statusCode, 200);
    ids.device_id = ((await device.body.json()) as { id: string }).id;
    // An access token that has expired, and an API key deleted in the dashboard.
    expiredBearer = (await issueToken({ baseUrl: emu().url, ...USER })).accessToken;
    emu().expireAccessTokens();
    revokedKey = emu().addApiKey(USER.username);
    emu().revokeApiKey(revokedKey);
  });

  it("the description has the operations this sweep expects (41, of which 3 public)", () => {
    assert.equal(ops.length, 41);
    assert.deepEqual(ops.filter((o) => !o.secured).map((o) => o.operationId).sort(), ["accessToken", "authorize", "revokeToken"]);
  });

  const failures: [string, (() => string | undefined)][] = [
    ["no Authorization header", () => undefined],
    ["an empty Authorization header", () => ""],
    ["an unknown bearer token", () => "Bearer not-a-token"],
    ["an expired bearer token", () => `Bearer ${expiredBearer}`],
    ["an unknown API key", () => "ApiKey not-a-key"],
    ["a deleted API key", () => `ApiKey ${revokedKey}`],
    ["another scheme (Basic)", () => `Basic ${Buffer.from(`${USER.username}:${USER.password}`).toString("base64")}`],
    ["the API key sent as a bearer token", () => `Bearer ${KEY}`],
  ];
  for (const [name, authorization] of failures) {
    it(`${name}: 401 with the error shape on each of the secured operations`, async () => {
      const wrong: string[] = [];
      for (const op of secured) {
        const res = await call(op, authorization());
        const apiKey = authorization()?.startsWith("ApiKey ") === true;
        const ok =
          res.status === 401 &&
          res.headers["www-authenticate"] === (apiKey ? 'ApiKey error="invalid_key"' : 'Bearer error="invalid_token"') &&
          res.json?.error === "unauthorized";
        if (!ok) wrong.push(`${op.method} ${op.path} (${op.operationId}): ${res.status}`);
      }
      assert.deepEqual(wrong, [], "operations that did not refuse the caller");
    });
  }

  it("with a valid API key each secured operation is routed and answered (not 401, 405 or an unknown path)", async () => {
    // The check above would pass for an operation the emulator lacks (an unknown /oapi/ path is a 401 too);
    // this one proves each is served. Deletions go last so the ids stay valid for the others.
    const order = [...secured].sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
    const wrong: string[] = [];
    for (const op of order) {
      const res = await call(op, `ApiKey ${KEY}`);
      if (res.status === 401 || res.status === 405 || res.json?.error_code === "not_found") wrong.push(`${op.method} ${op.path}: ${res.status}`);
    }
    assert.deepEqual(wrong, []);
  });
});
