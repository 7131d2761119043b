import assert from "node:assert/strict";
import path from "node:path";
import { inspect } from "node:util";
import * as sdk from "../../sdk";
import { _repoRoot } from "../support/helpers";

describe("the error family", () => {
  it("every class extends DnsAccountError and Error, with a stable code", () => {
    const errors = [
      [new sdk.MfaRequiredError(), "mfa_required"],
      [new sdk.InvalidCredentialsError(), "invalid_credentials"],
      [new sdk.InvalidGrantError(), "invalid_grant"],
      [new sdk.AuthorizationError("access_denied"), "authorization_failed"],
      [new sdk.ProtocolError("x", { field: "f" }), "protocol"],
      [new sdk.ConfigError("x", { field: "f" }), "invalid_config"],
      [new sdk.HttpError(503), "http_503"],
      [new sdk.TransportError("timeout", "x"), "timeout"],
      [new sdk.TransportError("network", "x"), "network"],
    ] as const;
    for (const [err, code] of errors) {
      assert.ok(err instanceof sdk.DnsAccountError);
      assert.ok(err instanceof Error);
      assert.equal(err.code, code);
      assert.equal(err.name, err.constructor.name);
    }
    assert.equal(new sdk.HttpError(503).status, 503);
    assert.ok(!(new sdk.HttpError(500) instanceof sdk.ProtocolError));
    assert.ok(!(new Error("plain") instanceof sdk.DnsAccountError));
  });

  it("instanceof works across two loaded copies of the package (provider host and program)", () => {
    const file = path.join(_repoRoot(), "dist", "sdk", "errors.js");
    const saved = require.cache[require.resolve(file)];
    delete require.cache[require.resolve(file)];
    const copy = require(file) as typeof sdk;
    if (saved) require.cache[require.resolve(file)] = saved;
    assert.notEqual(copy.InvalidGrantError, sdk.InvalidGrantError);
    const foreign = new copy.InvalidGrantError();
    assert.ok(foreign instanceof sdk.InvalidGrantError);
    assert.ok(foreign instanceof sdk.DnsAccountError);
    assert.ok(!(foreign instanceof sdk.MfaRequiredError));
    assert.ok(new sdk.HttpError(404) instanceof copy.HttpError);
  });

  it("toJSON and util.inspect show name, code, message and safe details only", () => {
    const err = new sdk.HttpError(429, "busy", { retryAfterMs: 1000, server: { error: "rate_limited" }, cause: new Error("low-level") });
    assert.deepEqual(err.toJSON(), { name: "HttpError", code: "http_429", message: "busy", status: 429, server: { error: "rate_limited" }, retryAfterMs: 1000 });
    const shown = inspect(err);
    assert.match(shown, /^HttpError \[http_429\]: busy/);
    assert.ok(!shown.includes("low-level"), "the cause stays out of inspect output");
    assert.equal((err as { cause?: Error }).cause?.message, "low-level");
    assert.ok(!Object.keys(err).includes("cause"));
  });
});

describe("the ./sdk entry", () => {
  it("does not load @pulumi/pulumi", async () => {
    const { execFileSync } = await import("node:child_process");
    const script = `require(${JSON.stringify(path.join(_repoRoot(), "dist", "sdk", "index.js"))});
      const loaded = Object.keys(require.cache).filter((k) => k.includes("@pulumi"));
      process.stdout.write(JSON.stringify(loaded));`;
    assert.deepEqual(JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })), []);
  });

  it("reports the package version in the User-Agent", async () => {
    const { readFileSync } = await import("node:fs");
    const pkg = JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")) as { version: string };
    assert.equal(sdk.VERSION, pkg.version);
    assert.equal(sdk.USER_AGENT, `pulumi-dns-account/${pkg.version}`);
  });
});
