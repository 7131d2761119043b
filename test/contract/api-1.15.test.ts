import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import { request } from "undici";
import { openApiDocument } from "../../emulator";
import { stripProse } from "../../emulator/openapi/generate";
import { _referenceFacts, _sharedDir, _useEmulator, USER } from "../support/helpers";

type Op = { operationId: string; parameters?: unknown[]; requestBody?: unknown; responses: Record<string, unknown> };
type Doc = { paths: Record<string, Record<string, Op>>; components: { schemas: Record<string, unknown> } };

/**
 * The emulator against API 1.15 (the facts-only copy `scripts/reference/dns-api-openapi-1.15.facts.json`): its
 * document claims only operations the reference has, with the same facts, and what it serves conforms
 * to the reference's schemas.
 */
describe("contract with API 1.15 (the reference's facts)", () => {
  let ref: Doc;
  let ajv: Ajv;
  const emu = _useEmulator({ limits: { devices: 3, dedicated_ipv4: 1 } });
  let auth = "";

  before(async function () {
    ref = JSON.parse(readFileSync(_referenceFacts("1.15"), "utf8")) as Doc;
    // DnsProtoType is declared an object that is also one of two string enums, which no value can be;
    // the service sends the string. Read it as the model generator does (scripts/generate-model.mjs).
    const readable = structuredClone(ref);
    for (const schema of Object.values(readable.components.schemas) as Record<string, unknown>[]) {
      if (schema.oneOf && schema.type === "object") for (const k of ["type", "properties", "required"]) delete schema[k];
    }
    ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(readable, "ref");
    const res = await request(`${emu().url}/oapi/v1/oauth_token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "password", ...USER }).toString(),
    });
    auth = `Bearer ${((await res.body.json()) as { access_token: string }).access_token}`;
  });

  const conforms = (name: string, value: unknown): void => {
    const v: ValidateFunction | undefined = ajv.getSchema(`ref#/components/schemas/${name}`);
    assert.ok(v, `reference schema ${name}`);
    assert.ok(v(value), `${name}: ${ajv.errorsText(v.errors)}`);
  };
  const arrayOf = (name: string, value: unknown): void => {
    assert.ok(Array.isArray(value), `${name}[]`);
    for (const item of value) conforms(name, item);
  };
  const call = async (method: string, p: string, body?: unknown, authorization = auth) => {
    const res = await request(`${emu().url}${p}`, {
      method: method as "GET",
      headers: { authorization, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    const type = String(res.headers["content-type"] ?? "");
    return { status: res.statusCode, type, bytes, json: (type.startsWith("application/json") && bytes.length ? JSON.parse(bytes.toString()) : undefined) as never };
  };

  it("claims exactly the 41 operations of 1.15, each with the reference's method, id, parameters, body and responses", async () => {
    const served = (await call("GET", "/swagger/openapi.json", undefined, "")).json as Doc;
    assert.deepEqual((await call("GET", "/static/swagger/openapi.json", undefined, "")).json, served, "the same document at the seed's path");
    const facts = stripProse(ref) as Doc;
    let checked = 0;
    for (const [p, methods] of Object.entries(served.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const theirs = facts.paths[p]?.[method];
        assert.ok(theirs, `${method.toUpperCase()} ${p} exists in 1.15`);
        assert.equal(op.operationId, theirs.operationId);
        assert.deepEqual(op.parameters, theirs.parameters, `${op.operationId} parameters`);
        assert.deepEqual(op.requestBody, theirs.requestBody, `${op.operationId} body`);
        assert.deepEqual(op.responses, theirs.responses, `${op.operationId} responses`);
        checked++;
      }
    }
    assert.equal(checked, 41);
    assert.deepEqual(served.components.schemas, facts.components.schemas, "same schemas");
    assert.deepEqual(openApiDocument("http://x").paths, served.paths);
  });

  it("the document carries no prose of the reference", async () => {
    const text = (await call("GET", "/swagger/openapi.json", undefined, "")).bytes.toString();
    const prose = new Set<string>();
    const walk = (v: unknown, underProperties = false): void => {
      if (Array.isArray(v)) return v.forEach((x) => walk(x));
      if (typeof v !== "object" || v === null) return;
      for (const [k, x] of Object.entries(v)) {
        if (!underProperties && (k === "description" || k === "summary") && typeof x === "string" && x.length > 20) prose.add(x);
        walk(x, !underProperties && k === "properties");
      }
    };
    const shared = _sharedDir();
    if (!shared) {
      console.log("      (the reference's prose is in ../shared, absent here: only the facts copy's absence of prose keys is checked)");
    } else {
      walk(JSON.parse(readFileSync(path.join(shared, "reference", "dns-api-openapi-1.15.json"), "utf8")));
      assert.ok(prose.size > 50);
    }
    const keys: string[] = [];
    const walkKeys = (v: unknown, underProperties = false): void => {
      if (Array.isArray(v)) return v.forEach((x) => walkKeys(x));
      if (typeof v !== "object" || v === null) return;
      for (const [k, x] of Object.entries(v)) {
        if (!underProperties && ["description", "summary", "title", "example", "examples"].includes(k)) keys.push(k);
        walkKeys(x, !underProperties && k === "properties");
      }
    };
    const servedDoc = JSON.parse(text) as { paths: unknown; components: unknown };
    walkKeys({ paths: servedDoc.paths, components: servedDoc.components });
    walkKeys(ref);
    assert.deepEqual(keys, [], "no prose keys in the served document or the facts copy");
    const copied = [...prose].filter((s) => text.includes(JSON.stringify(s).slice(1, -1)));
    assert.equal(copied.length, 0, `${copied.length} descriptions copied`);
  });

  it("devices, DNS servers, settings and v2 lists conform", async () => {
    const [def] = (await call("GET", "/oapi/v1/dns_servers")).json as { id: string }[];
    arrayOf("DNSServer", (await call("GET", "/oapi/v1/dns_servers")).json);
    const server = await call("POST", "/oapi/v1/dns_servers", { name: "Office", settings: { block_ttl_seconds: 60, user_rules_settings: { rules: ["||ads.test^"] } } });
    conforms("DNSServer", server.json);
    const device = await call("POST", "/oapi/v1/devices", { name: "Laptop", device_type: "MAC", dns_server_id: def!.id });
    conforms("Device", device.json);
    const id = (device.json as { id: string }).id;
    conforms("DeviceSettings", (await call("GET", `/oapi/v1/devices/${id}/settings`)).json);
    conforms("DNSServerSettings", (await call("GET", `/oapi/v1/dns_servers/${def!.id}/settings`)).json);
    conforms("DevicesResponse", (await call("GET", "/oapi/v2/devices?limit=1")).json);
    conforms("DnsServersResponse", (await call("GET", "/oapi/v2/dns_servers?limit=1")).json);
    conforms("AccountLimits", (await call("GET", "/oapi/v1/account/limits")).json);
    const invalid = await call("PUT", `/oapi/v1/dns_servers/${def!.id}/settings`, { block_ttl_seconds: 99_999 });
    assert.equal(invalid.status, 400);
    conforms("ErrorResponse", invalid.json);
  });

  it("dedicated addresses, reference data, quotas (429) conform", async () => {
    const ip = await call("POST", "/oapi/v1/dedicated_addresses/ipv4");
    conforms("DedicatedIPv4Address", ip.json);
    const over = await call("POST", "/oapi/v1/dedicated_addresses/ipv4");
    assert.equal(over.status, 429);
    conforms("ErrorResponse", over.json);
    arrayOf("DedicatedIPv4Address", (await call("GET", "/oapi/v1/dedicated_addresses/ipv4")).json);
    const [device] = (await call("GET", "/oapi/v1/devices")).json as { id: string }[];
    conforms("LinkDedicatedIPv4", { ip: (ip.json as { ip: string }).ip });
    assert.equal((await call("POST", `/oapi/v1/devices/${device!.id}/dedicated_addresses/ipv4`, { ip: (ip.json as { ip: string }).ip })).status, 200);
    conforms("DedicatedIps", (await call("GET", `/oapi/v1/devices/${device!.id}/dedicated_addresses`)).json);
    arrayOf("FilterList", (await call("GET", "/oapi/v1/filter_lists")).json);
    arrayOf("WebService", (await call("GET", "/oapi/v1/web_services")).json);
    arrayOf("ParentalControlFilteringCategory", (await call("GET", "/oapi/v1/parental_control_categories")).json);
  });

  it("the query log and every statistic conform", async () => {
    const to = Date.now();
    const window = `time_from_millis=${to - 86_400_000}&time_to_millis=${to}`;
    const log = await call("GET", `/oapi/v1/query_log?${window}&limit=5`);
    conforms("QueryLogResponse", log.json);
    assert.ok((log.json as { items: unknown[] }).items.length > 0, "traffic for the account's device");
    for (const [p, schema] of [
      ["time", "TimeQueriesStatsList"],
      ["domains", "DomainQueriesStatsList"],
      ["companies", "CompanyQueriesStatsList"],
      ["companies/detailed", "CompanyDetailedQueriesStatsList"],
      ["countries", "CountryQueriesStatsList"],
      ["devices", "DeviceQueriesStatsList"],
      ["categories", "CategoryQueriesStatsList"],
      ["blocked_parental_categories", "BlockedParentalCategoryQueriesStatsList"],
    ] as const) {
      const res = await call("GET", `/oapi/v1/stats/${p}?${window}`);
      assert.equal(res.status, 200, p);
      conforms(schema, res.json);
    }
    const bad = await call("GET", "/oapi/v1/stats/time?time_from_millis=x");
    assert.equal(bad.status, 400);
    conforms("ErrorResponse", bad.json);
  });

  it("behaves as the service does: authentication before routing, grant_type rules, token error shapes, newest-first lists, 404 for an unknown address", async () => {
    // Every /oapi/ path is authenticated first: an unknown path is a 401 without credentials, a 404 with.
    assert.equal((await call("GET", "/oapi/v1/no_such_thing", undefined, "")).status, 401);
    assert.equal((await call("GET", "/oapi/v9/devices", undefined, "Bearer not-a-token")).status, 401);
    assert.equal((await call("GET", "/oapi/v1/no_such_thing")).status, 404);

    const token = async (form: Record<string, string>) => {
      const res = await request(`${emu().url}/oapi/v1/oauth_token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
      });
      return { status: res.statusCode, json: (await res.body.json()) as { refresh_token?: string; fields?: { field: string }[] } };
    };
    // The password and refresh grants without grant_type are inferred, as the service does.
    const password = await token({ ...USER });
    assert.equal(password.status, 200);
    conforms("AccessTokenResponse", password.json);
    const refreshed = await token({ refresh_token: password.json.refresh_token! });
    assert.equal(refreshed.status, 200);
    conforms("AccessTokenResponse", refreshed.json);
    // The code grant needs it: a 400 in the ErrorResponse shape naming the field.
    const code = await token({ code: "c", client_id: "dns-account-cli", code_verifier: "v".repeat(43), redirect_uri: "http://127.0.0.1/callback" });
    assert.equal(code.status, 400);
    conforms("ErrorResponse", code.json);
    assert.deepEqual(code.json.fields!.map((f) => f.field), ["grant_type"]);
    // A missing field is a 400 (ErrorResponse); rejected credentials, code or verifier a 401 (AccessTokenErrorResponse).
    const missing = await token({ grant_type: "password", username: USER.username });
    assert.equal(missing.status, 400);
    conforms("ErrorResponse", missing.json);
    assert.deepEqual(missing.json.fields!.map((f) => f.field), ["password"]);
    const unsupported = await token({ grant_type: "client_credentials" });
    assert.equal(unsupported.status, 400);
    conforms("ErrorResponse", unsupported.json);
    const wrong = await token({ grant_type: "password", username: USER.username, password: "wrong" });
    assert.equal(wrong.status, 401);
    conforms("AccessTokenErrorResponse", wrong.json);
    const rejected = await token({ grant_type: "authorization_code", code: "never-issued", client_id: "dns-account-cli", code_verifier: "v".repeat(43), redirect_uri: "http://127.0.0.1/callback" });
    assert.equal(rejected.status, 401);
    conforms("AccessTokenErrorResponse", rejected.json);
    const revoked = await token({ grant_type: "refresh_token", refresh_token: "never-issued" });
    assert.equal(revoked.status, 401);
    conforms("AccessTokenErrorResponse", revoked.json);

    // v2 lists are newest-first.
    const [def] = (await call("GET", "/oapi/v1/dns_servers")).json as { id: string }[];
    const older = (await call("POST", "/oapi/v1/dns_servers", { name: "Older" })).json as { id: string };
    const newer = (await call("POST", "/oapi/v1/dns_servers", { name: "Newer" })).json as { id: string };
    const servers = ((await call("GET", "/oapi/v2/dns_servers?limit=100")).json as { items: { id: string }[] }).items.map((s) => s.id);
    assert.ok(servers.indexOf(newer.id) < servers.indexOf(older.id) && servers.indexOf(older.id) < servers.indexOf(def!.id), "dns servers newest-first");
    const devices = ((await call("GET", "/oapi/v2/devices?limit=100")).json as { items: { id: string }[] }).items.map((d) => d.id);
    const v1 = ((await call("GET", "/oapi/v1/devices")).json as { id: string }[]).map((d) => d.id);
    assert.deepEqual(devices, [...v1].reverse(), "devices newest-first, v1 in creation order");

    // Linking an address that was never allocated is a 404.
    const [device] = v1;
    const link = await call("POST", `/oapi/v1/devices/${device}/dedicated_addresses/ipv4`, { ip: "203.0.113.250" });
    assert.equal(link.status, 404);
    for (const id of [older.id, newer.id]) await call("DELETE", `/oapi/v1/dns_servers/${id}`);
  });

  it("the code flow's token request fields (as the emulator reads them) are in the reference's AccessTokenCredentials", () => {
    const fields = Object.keys((ref.components.schemas.AccessTokenCredentials as { properties: object }).properties);
    for (const f of ["grant_type", "code", "client_id", "code_verifier", "redirect_uri"]) assert.ok(fields.includes(f), f);
  });
});
