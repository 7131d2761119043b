import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { _repoRoot } from "../../support/helpers";
import { ConfigError, DEFAULT_BASE_URL, parseRetryAfter, resolveBaseUrl } from "../../../sdk";

describe("resolveBaseUrl", () => {
  it("defaults to the public service over https", () => {
    assert.equal(DEFAULT_BASE_URL, "https://api.adguard-dns.io");
    assert.equal(resolveBaseUrl().href, "https://api.adguard-dns.io/");
  });

  it("allows http:// only for loopback unless allowInsecureHttp", () => {
    for (const ok of ["http://127.0.0.1:8787", "http://localhost:1", "http://[::1]:2", "http://127.9.9.9"]) {
      assert.doesNotThrow(() => resolveBaseUrl(ok), ok);
    }
    assert.throws(() => resolveBaseUrl("http://dns.example.com"), (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.equal(err.code, "invalid_config");
      assert.equal(err.field, "baseUrl");
      assert.match(err.message, /allowInsecureHttp/);
      return true;
    });
    assert.equal(resolveBaseUrl("http://dns.example.com", true).host, "dns.example.com");
  });

  it("counts only localhost, 127.0.0.0/8 and [::1] as loopback: *.localhost goes through DNS, so it is not", () => {
    for (const name of ["http://api.localhost:8787", "http://localhost.example.com", "http://127.0.0.1.example.com", "http://127.0.0.300"]) {
      assert.throws(() => resolveBaseUrl(name), (err: unknown) => err instanceof ConfigError && err.field === "baseUrl", name);
    }
  });

  it("refuses malformed URLs, other schemes, credentials and queries, naming the field not the value", () => {
    for (const bad of ["not a url", "ftp://x.example", "https://user:hunter2@x.example", "https://x.example/?a=1", "https://x.example/#f"]) {
      assert.throws(() => resolveBaseUrl(bad), (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(err.field, "baseUrl");
        assert.ok(!err.message.includes("hunter2"));
        return true;
      }, bad);
    }
  });

  it("keeps a path prefix and strips trailing slashes", () => {
    assert.equal(resolveBaseUrl("https://gw.example/dns/").pathname, "/dns");
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    assert.equal(parseRetryAfter("3", 0), 3000);
    assert.equal(parseRetryAfter(new Date(10_000).toUTCString(), 4_000), 6000);
    assert.equal(parseRetryAfter(new Date(1_000).toUTCString(), 4_000), 0);
    assert.equal(parseRetryAfter("soon", 0), undefined);
    assert.equal(parseRetryAfter(undefined, 0), undefined);
  });

  it("caps the wait at a day, so an absurd number never travels on (a secret-shaped one included)", () => {
    assert.equal(parseRetryAfter("1000000000000000", 0), 86_400_000);
    assert.equal(parseRetryAfter("9".repeat(400), 0), 86_400_000);
    assert.equal(parseRetryAfter(new Date(Date.UTC(2100, 0, 1)).toUTCString(), 0), 86_400_000);
  });
});

describe("loading the SDK", () => {
  it("require(\"pulumi-dns-account/sdk\") loads neither undici nor zod: both wait for the first request", () => {
    const sdk = path.join(_repoRoot(), "dist", "sdk");
    const code = `require(${JSON.stringify(sdk)}); console.log(JSON.stringify(Object.keys(require.cache).filter((k) => /node_modules[\\/\\\\](undici|zod)[\\/\\\\]/.test(k)).length))`;
    assert.equal(execFileSync(process.execPath, ["-e", code], { encoding: "utf8" }).trim(), "0");
  });
});
