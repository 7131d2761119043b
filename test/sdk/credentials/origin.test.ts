import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  agreeOrigins,
  type CredentialFields,
  isProblem,
  providerSources,
  resolveCredentials,
  usableCredentials,
  urlOrigin,
} from "../../../sdk/credentials/resolve";
import { BaseUrlConflictError, TokenStore } from "../../../sdk";
import { _rejects } from "../../support/helpers";

const A = "https://a.example";
const B = "https://b.example:8443";
type Problem = { code?: string; property: string; reason: string };

/**
 * Issue 22 §1: a secret travels only to the origin it belongs to — its own source's base URL (a
 * profile's, the credential command's, the one beside it), else the service's — and a base URL from
 * another place naming another origin is `base_url_conflict`, naming both places.
 */
describe("a secret travels only to its own origin (the resolution)", () => {
  const resolve = (args: CredentialFields, config: CredentialFields, env: CredentialFields) =>
    resolveCredentials(providerSources(args, config, env), { apiKey: true, accessToken: true, defaultProfile: true });
  const conflict = (r: ReturnType<typeof resolve>): Problem => {
    assert.ok(isProblem(r), JSON.stringify(r));
    assert.equal((r as Problem).code, "base_url_conflict");
    return r as Problem;
  };

  it("compares origins, not strings", () => {
    assert.equal(urlOrigin("https://A.example/"), "https://a.example");
    assert.equal(urlOrigin("https://a.example:443/prefix"), "https://a.example");
    assert.notEqual(urlOrigin("https://a.example:8443"), urlOrigin("https://a.example"));
    assert.notEqual(urlOrigin("http://a.example"), urlOrigin("https://a.example"));
    const same = resolve({}, { baseUrl: "https://A.example/" }, { baseUrl: A, apiKey: "k" });
    assert.ok(!isProblem(same) && same.mode === "apiKey" && same.source === "environment");
  });

  it("one source: DNS_ACCOUNT_BASE_URL with DNS_ACCOUNT_API_KEY goes there", () => {
    const r = resolve({}, {}, { baseUrl: B, apiKey: "k" });
    assert.deepEqual(r, { mode: "apiKey", baseUrl: B, apiKey: "k", source: "environment" });
  });

  it("a base URL alone at a higher source names both places when it points elsewhere (resource credentials { baseUrl } + the provider's key)", () => {
    const r = conflict(resolve({ baseUrl: B }, { baseUrl: A, apiKey: "k-secret" }, {}));
    assert.match(r.reason, /^baseUrl points at https:\/\/b\.example:8443, but dns-account:apiKey \(with dns-account:baseUrl\) belongs to https:\/\/a\.example/);
    assert.doesNotMatch(r.reason, /k-secret/);
  });

  it("stack config baseUrl + an API key in the environment with none beside it: a conflict (the key belongs to the service)", () => {
    const r = conflict(resolve({}, { baseUrl: B }, { apiKey: "k" }));
    assert.match(r.reason, /dns-account:baseUrl points at https:\/\/b\.example:8443, but DNS_ACCOUNT_API_KEY \(with no base URL beside it: the service's own address\) belongs to https:\/\/api\.adguard-dns\.io/);
    // The same origin as the service's is no conflict.
    assert.ok(!isProblem(resolve({}, { baseUrl: "https://api.adguard-dns.io/" }, { apiKey: "k" })));
  });

  it("a lower base URL alone would have steered a secret with no base URL: a conflict", () => {
    const r = conflict(resolve({ username: "u", password: "p" }, {}, { baseUrl: B }));
    assert.match(r.reason, /^DNS_ACCOUNT_BASE_URL points at https:\/\/b\.example:8443, but password \(with no base URL beside it/);
  });

  it("a lower source's complete credential keeps its base URL to itself when the secret has its own", () => {
    const r = resolve({ baseUrl: A, refreshToken: "r" }, {}, { baseUrl: B, apiKey: "k" });
    assert.deepEqual(r, { mode: "refreshToken", baseUrl: A, refreshToken: "r", source: "args" });
    // Without a base URL beside the winning secret, the lower one would have steered it: a conflict.
    conflict(resolve({ refreshToken: "r" }, {}, { baseUrl: B, apiKey: "k" }));
  });

  it("the profile's own URL against DNS_ACCOUNT_BASE_URL, the default profile included", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-origin-"));
    try {
      const store = new TokenStore({ dir });
      await store.put("default", { baseUrl: A, refreshToken: "rt-A" });
      await store.put("ci", { baseUrl: A, refreshToken: "rt-A" });
      const env = { DNS_ACCOUNT_CONFIG_DIR: dir };
      // The implicit default profile, DNS_ACCOUNT_BASE_URL elsewhere.
      const implicit = resolve({}, {}, { baseUrl: B });
      assert.ok(!isProblem(implicit) && implicit.mode === "profile");
      const e1 = await _rejects(usableCredentials(implicit, env));
      assert.ok(e1 instanceof BaseUrlConflictError);
      assert.equal(e1.code, "base_url_conflict");
      assert.match(e1.message, /^DNS_ACCOUNT_BASE_URL points at https:\/\/b\.example:8443, but the CLI's default profile \("default"\) belongs to https:\/\/a\.example/);
      assert.doesNotMatch(e1.message, /rt-A/);
      // A named profile and a base URL beside it.
      const named = resolve({}, { baseUrl: B, profile: "ci" }, {});
      assert.ok(!isProblem(named));
      const e2 = await _rejects(usableCredentials(named, env));
      assert.match(e2.message, /^dns-account:baseUrl points at https:\/\/b\.example:8443, but the profile "ci" \(dns-account:profile\) belongs to https:\/\/a\.example/);
      // A lone lower base URL cannot steer a profile either.
      const lower = resolve({ profile: "ci" }, {}, { baseUrl: B });
      assert.ok(!isProblem(lower));
      assert.equal((await _rejects(usableCredentials(lower, env))).code, "base_url_conflict");
      // The same origin is fine, and the profile's token goes there.
      const ok = resolve({}, {}, { baseUrl: `${A}/` });
      assert.ok(!isProblem(ok));
      const u = await usableCredentials(ok, env);
      assert.equal(urlOrigin(u.baseUrl), A);
      assert.equal(u.mode === "refreshToken" && u.refreshToken, "rt-A");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a credential command that prints base_url: its origin too, and the conflict names base_url as the command wrote it", async () => {
    const printed = `${JSON.stringify(process.execPath)} -e 'console.log(JSON.stringify({ access_token: "at-cmd", base_url: "${A}" }))'`;
    const env = { PATH: process.env.PATH ?? "" };
    const r = resolve({}, { credentialCommand: printed }, { baseUrl: B });
    assert.ok(!isProblem(r) && r.mode === "command");
    const e = await _rejects(usableCredentials(r, env));
    assert.equal(e.code, "base_url_conflict");
    assert.match(e.message, /by the base_url it printed, belongs to https:\/\/a\.example/);
    assert.doesNotMatch(e.message, /at-cmd/);
    const alone = resolve({}, { credentialCommand: printed }, {});
    assert.ok(!isProblem(alone));
    assert.equal((await usableCredentials(alone, env)).baseUrl, A, "the token goes to the origin the command named");
  });

  it("a credential command that prints its own baseUrl: another base URL is a conflict", async () => {
    const printed = `${JSON.stringify(process.execPath)} -e 'console.log(JSON.stringify({ accessToken: "at-cmd", baseUrl: "${A}" }))'`;
    const env = { PATH: process.env.PATH ?? "" };
    const r = resolve({}, { credentialCommand: printed }, { baseUrl: B });
    assert.ok(!isProblem(r) && r.mode === "command");
    const e = await _rejects(usableCredentials(r, env));
    assert.equal(e.code, "base_url_conflict");
    assert.match(e.message, /^DNS_ACCOUNT_BASE_URL points at https:\/\/b\.example:8443, but the credential command \(dns-account:credentialCommand\), by the baseUrl it printed, belongs to https:\/\/a\.example/);
    assert.doesNotMatch(e.message, /at-cmd/);
    // Its own URL with nothing else: there.
    const alone = resolve({}, { credentialCommand: printed }, {});
    assert.ok(!isProblem(alone));
    assert.equal((await usableCredentials(alone, env)).baseUrl, A);
  });

  it("agreeOrigins: the secret's home first, then every place that would steer it", () => {
    assert.deepEqual(agreeOrigins({ secret: "K" }), { baseUrl: "https://api.adguard-dns.io" });
    assert.deepEqual(agreeOrigins({ own: { url: A, name: "X" }, steer: { url: `${A}/`, name: "Y" }, secret: "K" }), { baseUrl: `${A}/` });
    const p = agreeOrigins({ own: { url: A, name: "X" }, secret: "K" }, { url: B, name: "the profile" }) as Problem;
    assert.equal(p.code, "base_url_conflict");
    assert.match(p.reason, /^X points at .*, but the profile belongs to/);
  });
});
