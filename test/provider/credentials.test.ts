import assert from "node:assert/strict";
import { fromConfig, fromEnvironment, resolveCredentials } from "../../provider/credentials";

describe("credential resolution (args → stack config → environment)", () => {
  const env = fromEnvironment({
    DNS_ACCOUNT_BASE_URL: "https://env.example",
    DNS_ACCOUNT_USERNAME: "env@example.com",
    DNS_ACCOUNT_PASSWORD: "env-pw",
    DNS_ACCOUNT_REFRESH_TOKEN: "",
  });

  it("reads config keys in the dns-account namespace and DNS_ACCOUNT_* variables, ignoring empty ones", () => {
    const cfg = fromConfig((k) => ({ "dns-account:username": "cfg@example.com", "dns-account:refreshToken": "" })[k]);
    assert.deepEqual(cfg, { username: "cfg@example.com" });
    assert.deepEqual(env, { baseUrl: "https://env.example", username: "env@example.com", password: "env-pw" });
  });

  it("the first source with a password or refresh token decides the mode", () => {
    const r = resolveCredentials([
      ["args", {}],
      ["config", { baseUrl: "https://cfg.example", refreshToken: "cfg-rt" }],
      ["environment", env],
    ]);
    assert.deepEqual(r, { mode: "refreshToken", baseUrl: "https://cfg.example", refreshToken: "cfg-rt", username: "env@example.com", source: "config" });
  });

  it("takes username and mfaToken field by field, args first; the base URL only from the secret's own source", () => {
    const r = resolveCredentials([
      ["args", { username: "args@example.com", mfaToken: "123456" }],
      ["config", { baseUrl: "https://env.example/" }],
      ["environment", env],
    ]);
    // Another place may repeat the secret's origin (origins are compared, not strings)…
    assert.deepEqual(r, { mode: "password", baseUrl: "https://env.example/", username: "args@example.com", password: "env-pw", mfaToken: "123456", source: "environment" });
    // …but not name another one (issue 22 §1).
    const other = resolveCredentials([
      ["args", {}],
      ["config", { baseUrl: "https://cfg.example" }],
      ["environment", env],
    ]) as { code?: string; property: string; reason: string };
    assert.equal(other.code, "base_url_conflict");
    assert.match(other.reason, /^dns-account:baseUrl points at https:\/\/cfg\.example, but DNS_ACCOUNT_PASSWORD \(with DNS_ACCOUNT_BASE_URL\) belongs to https:\/\/env\.example/);
  });

  it("names the property when credentials are missing, doubled, or lack a username", () => {
    assert.equal((resolveCredentials([["args", {}]]) as { property: string }).property, "password");
    assert.equal((resolveCredentials([["args", { password: "p", refreshToken: "r", username: "u" }]]) as { property: string }).property, "refreshToken");
    assert.equal((resolveCredentials([["args", { password: "p" }]]) as { property: string }).property, "username");
    assert.equal(JSON.stringify(resolveCredentials([["args", { password: "secret-pw" }]])).includes("secret-pw"), false);
  });

  it("defaults the base URL to the public service", () => {
    assert.equal((resolveCredentials([["args", { refreshToken: "r" }]]) as { baseUrl: string }).baseUrl, "https://api.adguard-dns.io");
  });
});
