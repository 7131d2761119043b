import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { request } from "undici";
import { _repoRoot, _useEmulator, _waitForLine } from "../support/helpers";

describe("emulator faults and options", () => {
  const emu = _useEmulator({ tokenLifetimeSeconds: 42, dateOffsetMs: -3 * 3600_000 });
  const limits = () => `${emu().url}/oapi/v1/account/limits`;

  it("answers an injected status N times with Retry-After, then recovers", async () => {
    emu().inject({ kind: "status", status: 429, retryAfter: 5, count: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await request(limits());
      await res.body.dump();
      assert.equal(res.statusCode, 429);
      assert.equal(res.headers["retry-after"], "5");
    }
    const res = await request(limits());
    await res.body.dump();
    assert.equal(res.statusCode, 401);
  });

  it("only applies a fault to its path prefix", async () => {
    emu().inject({ kind: "status", status: 503, path: "/oapi/v1/oauth_token" });
    const other = await request(limits());
    await other.body.dump();
    assert.equal(other.statusCode, 401);
    const res = await request(`${emu().url}/oapi/v1/oauth_token`, { method: "POST" });
    await res.body.dump();
    assert.equal(res.statusCode, 503);
  });

  it("resets connections and hangs responses", async () => {
    emu().inject({ kind: "reset" });
    await assert.rejects(request(limits()), /other side closed|socket/i);
    emu().inject({ kind: "hang" });
    await assert.rejects(request(limits(), { signal: AbortSignal.timeout(100) }), /abort|timeout/i);
  });

  it("adds latency and drips the body slowly", async () => {
    emu().inject({ kind: "latency", ms: 60 });
    const t0 = performance.now();
    await (await request(limits())).body.dump();
    assert.ok(performance.now() - t0 >= 55);
    emu().inject({ kind: "slow-body", chunkDelayMs: 5 });
    const res = await request(limits());
    assert.equal(res.statusCode, 401);
    assert.match(await res.body.text(), /missing_token/);
  });

  it("uses the settable lifetime and a Date header from a clock that is off", async () => {
    const res = await request(`${emu().url}/oapi/v1/oauth_token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=password&username=user%40example.com&password=emulator-password",
    });
    assert.equal(((await res.body.json()) as { expires_in: number }).expires_in, 42);
    const skew = Date.parse(String(res.headers.date)) - Date.now();
    assert.ok(Math.abs(skew + 3 * 3600_000) < 5_000, `skew ${skew}`);
  });

  it("answers 400 for missing parameters and unsupported grants", async () => {
    const post = async (body: string) => {
      const res = await request(`${emu().url}/oapi/v1/oauth_token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      });
      return { status: res.statusCode, json: (await res.body.json()) as Record<string, string> };
    };
    assert.deepEqual(await post("grant_type=password&username=a"), {
      status: 400,
      json: {
        error_code: "FIELD_REQUIRED",
        message: "username and password are required",
        fields: [{ field: "password", error_code: "FIELD_REQUIRED", message: "username and password are required" }],
      },
    });
    assert.equal((await post("username=a&password=b")).status, 401, "the password grant is inferred without grant_type");
    assert.deepEqual((await post("code=c&client_id=x&code_verifier=v&redirect_uri=r")).json.fields, [
      { field: "grant_type", error_code: "FIELD_REQUIRED", message: "grant_type is required" },
    ] as never);
    const unsupported = await post("grant_type=client_credentials");
    assert.equal(unsupported.status, 400);
    assert.equal(unsupported.json.error_code, "FIELD_WRONG_VALUE");
    assert.equal((await post("grant_type=refresh_token")).status, 400);
  });
});

describe("emulator command line", () => {
  it("starts with --port, prints its URL, serves, and stops on SIGTERM", async () => {
    const child = spawn(process.execPath, [path.join(_repoRoot(), "dist", "cli", "main.js"), "emulator", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await _waitForLine(child, /listening on (http:\/\/\S+)/);
      const res = await request(`${url}/static/swagger/openapi.json`);
      assert.equal(res.statusCode, 200);
      await res.body.dump();
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    assert.equal(child.exitCode, 0);
  });

  it("exits 2 with a usage message for a bad port", async () => {
    const child = spawn(process.execPath, [path.join(_repoRoot(), "dist", "cli", "main.js"), "emulator", "--port", "nope"]);
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const code = await new Promise((r) => child.once("exit", r));
    assert.equal(code, 2);
    assert.match(err, /--port must be an integer/);
  });
});
