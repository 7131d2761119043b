import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import Ajv, { type ValidateFunction } from "ajv";
import { request } from "undici";
import { openApiDocument, startEmulator } from "../../emulator";
import { issueToken } from "../../sdk";
import { tokenBodyZod } from "../../sdk/auth/token-body";
import { _referenceFacts, _useEmulator, MFA_USER, USER } from "../support/helpers";

type Doc = {
  paths: Record<string, Record<string, { operationId?: string; parameters?: { name: string; in: string }[] }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

/**
 * Checks the emulator and the SDK against the service's 1.11 OpenAPI description (its facts-only copy in
 * scripts/reference, made from ../shared/reference without its prose).
 */
describe("contract with the service's 1.11 OpenAPI description (facts)", () => {
  let ref: Doc;
  let ajv: Ajv;
  const emu = _useEmulator();

  before(() => {
    ref = JSON.parse(readFileSync(_referenceFacts("1.11"), "utf8")) as Doc;
    ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(ref, "ref");
  });

  const schema = (name: string): ValidateFunction => {
    const v = ajv.getSchema(`ref#/components/schemas/${name}`);
    assert.ok(v, `reference schema ${name}`);
    return v;
  };
  const conforms = (name: string, value: unknown) => {
    const v = schema(name);
    assert.ok(v(value), `${name}: ${ajv.errorsText(v.errors)}`);
  };
  const paramsOf = (op: { parameters?: { name: string; in: string }[] } | undefined, parent?: { parameters?: unknown }) =>
    [...((parent?.parameters as { name: string; in: string }[]) ?? []), ...(op?.parameters ?? [])]
      .filter((p) => p.in === "path")
      .map((p) => p.name)
      .sort();

  it("every 1.11 operation is still served (same method, operationId and path parameters), and the 1.11 mode makes grant_type optional", () => {
    const ours = openApiDocument("http://127.0.0.1") as unknown as Doc;
    let checked = 0;
    for (const [p, methods] of Object.entries(ref.paths)) {
      for (const [method, theirs] of Object.entries(methods)) {
        if (method === "parameters") continue;
        const op = ours.paths[p]?.[method];
        assert.ok(op, `${method.toUpperCase()} ${p} is still in the emulator's document`);
        assert.equal(op.operationId, theirs.operationId, `${method} ${p}`);
        assert.deepEqual(paramsOf(op, ours.paths[p] as never), paramsOf(theirs, methods as never), `${method} ${p} path params`);
        checked++;
      }
    }
    assert.equal(checked, Object.values(ref.paths).flatMap((m) => Object.keys(m)).length);
    const strict = openApiDocument("http://127.0.0.1") as unknown as { components: { schemas: Record<string, { required?: string[] }> } };
    const lenient = openApiDocument("http://127.0.0.1", { requireGrantType: false }) as unknown as typeof strict;
    const r11 = (ref.components.schemas.AccessTokenCredentials as { required?: string[] }).required;
    assert.deepEqual(lenient.components.schemas.AccessTokenCredentials!.required, r11, "1.11: grant_type optional");
    assert.deepEqual(strict.components.schemas.AccessTokenCredentials!.required, ["grant_type"], "1.15: grant_type required");
  });

  it("the password grant without grant_type is inferred (as 1.11 and the service do); requireGrantType: true answers 400 naming the field", async () => {
    const strict = await startEmulator({ requireGrantType: true });
    try {
      const post = async (base: string) => {
        const res = await request(`${base}/oapi/v1/oauth_token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ ...USER }).toString(),
        });
        return { status: res.statusCode, json: (await res.body.json()) as { fields?: { field: string }[] } };
      };
      const inferred = await post(emu().url);
      assert.equal(inferred.status, 200);
      conforms("AccessTokenResponse", inferred.json);
      const refused = await post(strict.url);
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.json.fields!.map((f) => f.field), ["grant_type"]);
    } finally {
      await strict.close();
    }
  });

  it("the SDK's form fields and token fields are the reference's", async () => {
    const credentials = Object.keys(ref.components.schemas.AccessTokenCredentials!.properties!);
    await issueToken({ baseUrl: emu().url, ...MFA_USER, mfaToken: "112233" });
    const { grant_type, ...sent } = emu().requests.at(-1)!.form;
    assert.equal(grant_type, "password", "grant_type is sent in addition, as newer versions of the service require");
    for (const field of Object.keys(sent)) assert.ok(credentials.includes(field), field);
    assert.ok(credentials.includes("refresh_token"));
    const response = Object.keys(ref.components.schemas.AccessTokenResponse!.properties!).sort();
    assert.deepEqual(Object.keys(tokenBodyZod().shape).sort(), response);
    const revoke = ref.paths["/oapi/v1/revoke_token"]!.post!.parameters!;
    assert.deepEqual(revoke.map((p) => [p.in, p.name]), [["query", "refresh_token"]]);
  });

  it("token endpoint bodies conform: 200 and the 401 error shape (2fa_required)", async () => {
    const post = async (form: Record<string, string>) => {
      const res = await request(`${emu().url}/oapi/v1/oauth_token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
      });
      return { status: res.statusCode, json: await res.body.json() };
    };
    const ok = await post({ grant_type: "password", ...USER });
    assert.equal(ok.status, 200);
    conforms("AccessTokenResponse", ok.json);
    const mfa = await post({ grant_type: "password", ...MFA_USER });
    assert.equal(mfa.status, 401);
    conforms("AccessTokenErrorResponse", mfa.json);
    assert.deepEqual(Object.keys(mfa.json as object).sort(), Object.keys(ref.components.schemas.AccessTokenErrorResponse!.properties!).sort());
    assert.equal((mfa.json as { error_code: string }).error_code, "2fa_required");
  });

  it("business bodies conform: limits, DNS servers, devices, validation errors", async () => {
    const { accessToken } = await issueToken({ baseUrl: emu().url, ...USER });
    const call = async (method: "GET" | "POST", p: string, body?: unknown) => {
      const res = await request(`${emu().url}/oapi/v1${p}`, {
        method,
        headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
        body: body === undefined ? null : JSON.stringify(body),
      });
      return { status: res.statusCode, json: (await res.body.json()) as never };
    };
    conforms("AccountLimits", (await call("GET", "/account/limits")).json);
    const servers = (await call("GET", "/dns_servers")).json as { id: string }[];
    for (const s of servers) conforms("DNSServer", s);
    const createServer = { name: "Office", settings: { block_private_relay: true } };
    conforms("DNSServerCreate", createServer);
    conforms("DNSServer", (await call("POST", "/dns_servers", createServer)).json);
    const createDevice = { name: "Laptop", device_type: "MAC", dns_server_id: servers[0]!.id };
    conforms("DeviceCreate", createDevice);
    const device = (await call("POST", "/devices", createDevice)).json as { id: string };
    conforms("Device", device);
    conforms("Device", (await call("GET", `/devices/${device.id}`)).json);
    const invalid = await call("POST", "/devices", { name: "" });
    assert.equal(invalid.status, 400);
    conforms("ErrorResponse", invalid.json);
  });
});
