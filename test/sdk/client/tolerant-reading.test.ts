import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createClient, issueToken, refreshToken } from "../../../sdk";
import { _referenceFacts } from "../../support/helpers";
import { _useFakeApi } from "../../support/fake-api";

// A server as loose as its description allows: every optional property of every response is `null`,
// every enum-typed field carries a value the client has never seen, and objects carry fields it does not
// know. The bodies are made from the reference's own response schemas, for every typed operation.

type Schema = {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
};
type Operation = { operationId?: string; responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> };
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

const doc = JSON.parse(readFileSync(_referenceFacts("1.15"), "utf8")) as Doc;
const FUTURE = "FUTURE_VALUE_2031";
const resolve = (s: Schema): Schema => (s.$ref ? resolve(doc.components.schemas[s.$ref.split("/").pop()!]!) : s);
const isEnum = (s: Schema): boolean => {
  const r = resolve(s);
  return Array.isArray(r.enum) || (Array.isArray(r.oneOf ?? r.anyOf) && (r.oneOf ?? r.anyOf)!.every(isEnum));
};

/** The loosest body the schema allows: required fields filled, optional ones null, enums unknown. */
function hostile(schema: Schema): unknown {
  if (isEnum(schema)) return FUTURE;
  const s = resolve(schema);
  if (s.oneOf ?? s.anyOf) return hostile((s.oneOf ?? s.anyOf)![0]!);
  switch (s.type) {
    case "string":
      return "s";
    case "integer":
      return 1;
    case "number":
      return 1.5;
    case "boolean":
      return true;
    case "array":
      return [hostile(s.items ?? {})];
    default: {
      const out: Record<string, unknown> = { added_in_a_later_version: { nested: [1, "x"] } };
      const required = new Set(s.required ?? []);
      for (const [key, value] of Object.entries(s.properties ?? {})) out[key] = required.has(key) ? hostile(value) : null;
      if (!s.properties && typeof s.additionalProperties === "object") out.key = hostile(s.additionalProperties);
      return out;
    }
  }
}

/** The operation a request addresses: `{param}` segments match any one segment. */
function operationOf(method: string, path: string): [string, Operation] | undefined {
  for (const [template, item] of Object.entries(doc.paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    const op = item[method.toLowerCase()];
    if (op && pattern.test(path)) return [op.operationId!, op];
  }
  return undefined;
}

/** Every value in `v` that is `null`, by path. */
function nullsIn(v: unknown, at = "$"): string[] {
  if (v === null) return [at];
  if (Array.isArray(v)) return v.flatMap((x, i) => nullsIn(x, `${at}[${i}]`));
  if (typeof v === "object" && v !== undefined && !Buffer.isBuffer(v)) return Object.entries(v as object).flatMap(([k, x]) => nullsIn(x, `${at}.${k}`));
  return [];
}

describe("tolerant reading: a server that is as loose as its description allows", () => {
  const served = new Set<string>();
  const api = _useFakeApi((req) => {
    const found = operationOf(req.method, req.path);
    if (!found) return undefined;
    const [id, op] = found;
    served.add(id);
    if (id === "getDoHMobileConfig" || id === "getDoTMobileConfig") return { bytes: Buffer.from("<plist/>"), contentType: "application/x-apple-aspen-config" };
    const ok = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith("2"));
    const schema = ok && Object.values(ok[1].content ?? {})[0]?.schema;
    return { status: Number(ok?.[0] ?? 200), ...(schema ? { json: hostile(schema) } : {}) };
  });

  it("every typed call reads nulls in optional properties as absent and unknown enum values as strings", async () => {
    const client = createClient({ baseUrl: api.url(), apiKey: "tolerant-key", retry: { retries: 0 } });
    try {
      const results: [string, unknown][] = [];
      const read = async (name: string, call: Promise<unknown>): Promise<unknown> => {
        const value = await call;
        results.push([name, value]);
        return value;
      };
      await read("account.limits", client.account.limits());
      const devices = (await read("devices.list", client.devices.list())) as { device_type: string }[];
      assert.equal(devices[0]!.device_type, FUTURE, "an unknown device type comes through as its string");
      for await (const page of client.devices.pages()) results.push(["devices.pages", page]);
      await read("devices.get", client.devices.get("d1"));
      await read("devices.create", client.devices.create({ name: "n", device_type: "LINUX", dns_server_id: "s" }));
      await client.devices.update("d1", { name: "n" });
      await read("devices.getSettings", client.devices.getSettings("d1"));
      await client.devices.updateSettings("d1", { protection_enabled: true });
      await client.devices.resetDohPassword("d1");
      await client.devices.mobileConfig("d1", { protocol: "doh" });
      await client.devices.mobileConfig("d1", { protocol: "dot" });
      await read("devices.dedicatedAddresses", client.devices.dedicatedAddresses("d1"));
      await client.devices.linkDedicatedIpv4("d1", "203.0.113.7");
      await client.devices.unlinkDedicatedIpv4("d1", "203.0.113.7");
      await client.devices.remove("d1");
      await read("dnsServers.list", client.dnsServers.list());
      await read("dnsServers.get", client.dnsServers.get("s1"));
      await read("dnsServers.create", client.dnsServers.create({ name: "n" }));
      await client.dnsServers.update("s1", { name: "n" });
      const settings = (await read("dnsServers.getSettings", client.dnsServers.getSettings("s1"))) as { blocking_mode_settings: { blocking_mode: string } };
      assert.equal(settings.blocking_mode_settings.blocking_mode, FUTURE, "an unknown blocking mode comes through");
      await client.dnsServers.updateSettings("s1", {});
      await client.dnsServers.remove("s1");
      await read("dedicatedIpv4.list", client.dedicatedIpv4.list());
      const ip = (await read("dedicatedIpv4.allocate", client.dedicatedIpv4.allocate())) as Record<string, unknown>;
      assert.ok(!Object.hasOwn(ip, "device_id"), "a null device_id reads as absent");
      await read("filterLists.list", client.filterLists.list());
      await read("webServices.list", client.webServices.list());
      await read("parentalControlCategories.list", client.parentalControlCategories.list());
      const log = (await read("queryLog.get", client.queryLog.get({ time_from_millis: 1, time_to_millis: 2 }))) as { items: { filtering_info: { filtering_status?: string } }[] };
      assert.ok(Array.isArray(log.items));
      await client.queryLog.clear();
      const range = { time_from_millis: 1, time_to_millis: 2 };
      for (const name of ["time", "domains", "companies", "companiesDetailed", "countries", "devices", "categories", "blockedParentalCategories"] as const) {
        await read(`stats.${name}`, client.stats[name](range));
      }
      for (const [name, value] of results) assert.deepEqual(nullsIn(value), [], `${name}: no null reaches the caller`);
      const untyped = Object.entries(doc.paths)
        .flatMap(([, item]) => Object.values(item).map((op) => op.operationId))
        .filter((id): id is string => id !== undefined && !served.has(id));
      // The auth endpoints are the grants' (below); the deprecated v1 lists are read only when v2 is missing.
      assert.deepEqual(untyped.sort(), ["accessToken", "authorize", "listDNSServers", "listDevices", "revokeToken"]);
    } finally {
      await client.close();
    }
  });

  it("the grants read a token response whose optional fields are null", async () => {
    const body = { access_token: "hostile-access", expires_in: 3600, token_type: null, refresh_token: null, added: 1 };
    const withRefresh = { ...body, refresh_token: "hostile-refresh" };
    const { url, stop } = await tokenServer((grant) => (grant === "password" ? withRefresh : body));
    try {
      const issued = await issueToken({ baseUrl: url, username: "u@example.com", password: "p" });
      assert.equal(issued.tokenType, "bearer");
      assert.equal(issued.refreshToken, "hostile-refresh");
      const renewed = await refreshToken({ baseUrl: url, refreshToken: "hostile-refresh" });
      assert.equal(renewed.accessToken, "hostile-access");
      assert.ok(!("refreshToken" in renewed) || renewed.refreshToken === "hostile-refresh");
    } finally {
      await stop();
    }
  });
});

/** A token endpoint answering each grant with `body(grant)`. */
async function tokenServer(body: (grant: string) => unknown): Promise<{ url: string; stop: () => Promise<void> }> {
  const { createServer } = await import("node:http");
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (d: Buffer) => (text += d.toString()));
    req.on("end", () => {
      const grant = new URLSearchParams(text).get("grant_type") ?? "";
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(body(grant)));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
