import assert from "node:assert/strict";
import { DEFAULT_BASE_URL } from "../../../sdk/http/transport";
import { NONE, resolveCredentials, usableCredentials } from "../../../sdk/credentials/resolve";
import { TokenStore } from "../../../sdk/credentials/token-store";
import { _rejects } from "../../support/helpers";
import { _useTempDirs } from "../../support/temp";

/**
 * The credential chain in the test process, where StrykerJS found mutants alive (npm run mutation,
 * MUTATION_GROUP=credentials): the provider side of resolve.ts was reached only through provider hosts.
 */
describe("credential chain: what mutation testing found unchecked", () => {
  const tmp = _useTempDirs();
  const BASE = "https://dns.example";

  describe("resolveCredentials", () => {
    it("an empty string is no value: the next source's fields are used", () => {
      const r = resolveCredentials([["args", { password: "", refreshToken: "", username: "" }], ["config", { username: "u", password: "p" }]]);
      assert.deepEqual(r, { mode: "password", baseUrl: DEFAULT_BASE_URL, username: "u", password: "p", source: "config" });
    });

    it("nothing anywhere: NONE, or the caller's problem, or with defaultProfile the implicit default profile carrying it", () => {
      assert.equal(resolveCredentials([["args", {}]]), NONE);
      const mine = { property: "apiKey", reason: "no key" };
      assert.equal(resolveCredentials([["args", {}]], { none: mine }), mine);
      assert.deepEqual(resolveCredentials([["environment", {}]], { defaultProfile: true }), { mode: "profile", profile: "default", source: "profile", implicit: true, none: NONE });
      assert.deepEqual(resolveCredentials([["environment", { baseUrl: BASE }]], { defaultProfile: true, none: mine }), {
        mode: "profile", profile: "default", source: "profile", implicit: true, baseUrl: BASE, none: mine,
      });
    });

    it("a profile or a credential command of a source, with the first base URL; the environment's command comes after the default profile", () => {
      assert.deepEqual(resolveCredentials([["config", { profile: "work" }], ["environment", { baseUrl: BASE }]]), { mode: "profile", profile: "work", baseUrl: BASE, source: "config" });
      assert.deepEqual(resolveCredentials([["config", { profile: "work" }]]), { mode: "profile", profile: "work", source: "config" });
      assert.deepEqual(resolveCredentials([["config", { credentialCommand: "get-token" }]], { defaultProfile: true }), { mode: "command", command: "get-token", source: "config" });
      assert.deepEqual(resolveCredentials([["environment", { credentialCommand: "get-token" }]]), { mode: "command", command: "get-token", source: "environment" });
      assert.deepEqual(resolveCredentials([["environment", { credentialCommand: "get-token", baseUrl: BASE }]], { defaultProfile: true }), {
        mode: "profile", profile: "default", source: "profile", implicit: true, baseUrl: BASE,
        fallback: { mode: "command", command: "get-token", baseUrl: BASE, source: "environment" },
      });
    });
  });

  describe("usableCredentials", () => {
    const store = async (profiles: Record<string, object>) => {
      const dir = tmp("dns-account-mutants-");
      const s = new TokenStore({ dir });
      for (const [name, p] of Object.entries(profiles)) await s.put(name, { baseUrl: "https://profile.example", ...p });
      return { DNS_ACCOUNT_CONFIG_DIR: dir };
    };

    it("credentials that are usable already come back as they are", async () => {
      for (const r of [
        { mode: "password", baseUrl: BASE, username: "u", password: "p", source: "args" },
        { mode: "refreshToken", baseUrl: BASE, refreshToken: "r", source: "config" },
        { mode: "apiKey", baseUrl: BASE, apiKey: "k", source: "environment" },
        { mode: "accessToken", baseUrl: BASE, accessToken: "a", expiresAt: 1, source: "environment" },
      ] as const) {
        assert.equal(await usableCredentials(r, {}), r);
      }
    });

    it("a profile gives its API key, else its refresh token (with its username), else a dated access token; the given base URL wins", async () => {
      const env = await store({
        key: { apiKey: "k", refreshToken: "r" },
        refresh: { refreshToken: "r", username: "u", accessToken: "a", expiresAt: 5 },
        bare: { refreshToken: "r" },
        access: { accessToken: "a", expiresAt: 5 },
        undated: { accessToken: "a" },
      });
      const profile = (name: string, extra: object = {}) => usableCredentials({ mode: "profile", profile: name, source: "config", ...extra }, env);
      assert.deepEqual(await profile("key"), { mode: "apiKey", baseUrl: "https://profile.example", apiKey: "k", source: "config" });
      assert.deepEqual(await profile("key", { baseUrl: BASE }), { mode: "apiKey", baseUrl: BASE, apiKey: "k", source: "config" });
      assert.deepEqual(await profile("refresh"), { mode: "refreshToken", baseUrl: "https://profile.example", refreshToken: "r", username: "u", source: "config" });
      assert.deepEqual(await profile("bare"), { mode: "refreshToken", baseUrl: "https://profile.example", refreshToken: "r", source: "config" });
      assert.deepEqual(await profile("access"), { mode: "accessToken", baseUrl: "https://profile.example", accessToken: "a", expiresAt: 5, source: "config" });
      const undated = await _rejects(profile("undated"));
      assert.equal(undated.code, "invalid_config");
      assert.equal(undated.field, "profile");
      assert.match(undated.message, /^Profile "undated" holds no token: run dns-account login --profile undated$/);
    });

    it("a missing profile: named by where it was asked for; the implicit default falls through to what comes after it, or to the no-credentials problem", async () => {
      const env = await store({ other: { refreshToken: "r" } });
      const fromEnv = await _rejects(usableCredentials({ mode: "profile", profile: "work", source: "environment" }, env));
      assert.equal(fromEnv.field, "profile");
      assert.match(fromEnv.message, /^DNS_ACCOUNT_PROFILE names "work", which is not in .*credentials\.json: run dns-account login --profile work$/);
      const fromConfig = await _rejects(usableCredentials({ mode: "profile", profile: "work", source: "config" }, env));
      assert.match(fromConfig.message, /^No profile "work" in .*credentials\.json: run dns-account login --profile work$/);
      const none = await _rejects(usableCredentials({ mode: "profile", profile: "default", source: "profile", implicit: true, none: { property: "apiKey", reason: "no key here" } }, env));
      assert.equal(none.code, "invalid_config");
      assert.equal(none.field, "apiKey");
      assert.equal(none.message, "no key here");
      const fallback = await usableCredentials(
        { mode: "profile", profile: "default", source: "profile", implicit: true, fallback: { mode: "command", command: `echo '{"refreshToken":"from-command"}'`, source: "environment" } },
        env,
      );
      assert.deepEqual(fallback, { mode: "refreshToken", baseUrl: DEFAULT_BASE_URL, refreshToken: "from-command", source: "environment" });
      const withDefault = await store({ default: { refreshToken: "r0" } });
      assert.equal(((await usableCredentials({ mode: "profile", profile: "default", source: "profile", implicit: true, none: NONE }, withDefault)) as { refreshToken: string }).refreshToken, "r0");
    });

    it("a credential command: its refresh token, else its access token (undated means no expiry); the given base URL, else the command's, else the default", async () => {
      const run = (printed: object, baseUrl?: string) =>
        usableCredentials({ mode: "command", command: `echo '${JSON.stringify(printed)}'`, source: "config", ...(baseUrl ? { baseUrl } : {}) }, {});
      assert.deepEqual(await run({ refreshToken: "r", accessToken: "a", baseUrl: "https://cmd.example" }), { mode: "refreshToken", baseUrl: "https://cmd.example", refreshToken: "r", source: "config" });
      assert.deepEqual(await run({ refreshToken: "r", baseUrl: "https://cmd.example" }, BASE), { mode: "refreshToken", baseUrl: BASE, refreshToken: "r", source: "config" });
      assert.deepEqual(await run({ accessToken: "a", expiresAt: 7 }), { mode: "accessToken", baseUrl: DEFAULT_BASE_URL, accessToken: "a", expiresAt: 7, source: "config" });
      assert.deepEqual(await run({ accessToken: "a" }), { mode: "accessToken", baseUrl: DEFAULT_BASE_URL, accessToken: "a", expiresAt: Number.POSITIVE_INFINITY, source: "config" });
    });
  });
});
