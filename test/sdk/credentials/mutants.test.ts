import assert from "node:assert/strict";
import dns from "node:dns";
import { DEFAULT_BASE_URL } from "../../../sdk/http/transport";
import { NONE, type OriginCheck, problemError, resolveCredentials, urlOrigin, usableCredentials } from "../../../sdk/credentials/resolve";
import { BaseUrlConflictError, ConfigError } from "../../../sdk/errors";
import { resetSharedSessions } from "../../../sdk/client/shared-session";
import { TokenStore } from "../../../sdk/credentials/token-store";
import { commandSource, defaultCredentialChain, environmentSource, optionsSource, profileSource, resolveCredential } from "../../../sdk/credentials/credential-sources";
import { issueToken } from "../../../sdk";
import { _rejects, _useEmulator, MFA_USER, USER } from "../../support/helpers";
import { _useTempDirs } from "../../support/temp";

/**
 * The credential chain in the test process, where StrykerJS found mutants alive (npm run mutation,
 * MUTATION_GROUP=credentials): the provider side of resolve.ts was reached only through provider hosts.
 * Ported to one origin per secret: a profile or command carries its `origin`, and a base URL given
 * elsewhere steers its secret only when it names the secret's own origin (else `base_url_conflict`).
 */
describe("credential chain: what mutation testing found unchecked", () => {
  const tmp = _useTempDirs();
  const BASE = "https://dns.example";
  const ENV_URL = { url: BASE, name: "DNS_ACCOUNT_BASE_URL" };
  const DEFAULT_PROFILE = 'the CLI\'s default profile ("default")';

  describe("resolveCredentials", () => {
    it("an empty string is no value: the next source's fields are used", () => {
      const r = resolveCredentials([["args", { password: "", refreshToken: "", username: "" }], ["config", { username: "u", password: "p" }]]);
      assert.deepEqual(r, { mode: "password", baseUrl: DEFAULT_BASE_URL, username: "u", password: "p", source: "config" });
    });

    it("the Pulumi side's words: where a username goes, and what to set when there is nothing", () => {
      assert.deepEqual(resolveCredentials([["args", { password: "p" }]]), { property: "username", reason: "A password needs a username (args, dns-account:username or DNS_ACCOUNT_USERNAME)" });
      assert.equal(NONE.property, "password");
      for (const words of ["set password (with username) or refreshToken as resource args", "pulumi config set --secret dns-account:password", "DNS_ACCOUNT_PASSWORD / DNS_ACCOUNT_REFRESH_TOKEN", "run dns-account login (the default profile)"]) {
        assert.ok(NONE.reason.includes(words), words);
      }
    });

    it("nothing anywhere: NONE, or the caller's problem, or with defaultProfile the implicit default profile carrying it", () => {
      assert.equal(resolveCredentials([["args", {}]]), NONE);
      const mine = { property: "apiKey", reason: "no key" };
      assert.equal(resolveCredentials([["args", {}]], { none: mine }), mine);
      assert.deepEqual(resolveCredentials([["environment", {}]], { defaultProfile: true }), { mode: "profile", profile: "default", source: "profile", implicit: true, origin: { secret: DEFAULT_PROFILE }, none: NONE });
      assert.deepEqual(resolveCredentials([["environment", { baseUrl: BASE }]], { defaultProfile: true, none: mine }), {
        mode: "profile", profile: "default", source: "profile", implicit: true, baseUrl: BASE, origin: { steer: ENV_URL, secret: DEFAULT_PROFILE }, none: mine,
      });
    });

    it("a profile or a credential command of a source, with the base URL that steers it and its origin check; the environment's command comes after the default profile", () => {
      const work = 'the profile "work" (dns-account:profile)';
      assert.deepEqual(resolveCredentials([["config", { profile: "work" }], ["environment", { baseUrl: BASE }]]), {
        mode: "profile", profile: "work", baseUrl: BASE, source: "config", origin: { steer: ENV_URL, lower: ENV_URL, secret: work },
      });
      assert.deepEqual(resolveCredentials([["config", { profile: "work" }]]), { mode: "profile", profile: "work", source: "config", origin: { secret: work } });
      assert.deepEqual(resolveCredentials([["config", { credentialCommand: "get-token" }]], { defaultProfile: true }), {
        mode: "command", command: "get-token", source: "config", origin: { secret: "the credential command (dns-account:credentialCommand)" },
      });
      const envCommand = "the credential command (DNS_ACCOUNT_CREDENTIAL_COMMAND)";
      assert.deepEqual(resolveCredentials([["environment", { credentialCommand: "get-token" }]]), { mode: "command", command: "get-token", source: "environment", origin: { secret: envCommand } });
      assert.deepEqual(resolveCredentials([["environment", { credentialCommand: "get-token", baseUrl: BASE }]], { defaultProfile: true }), {
        mode: "profile", profile: "default", source: "profile", implicit: true, baseUrl: BASE, origin: { steer: ENV_URL, secret: DEFAULT_PROFILE },
        fallback: { mode: "command", command: "get-token", baseUrl: BASE, source: "environment", origin: { steer: ENV_URL, own: ENV_URL, secret: envCommand } },
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

    it("a profile gives its API key, else its refresh token (with its username), else a dated access token, for its own origin; a base URL given elsewhere wins only when it names that origin", async () => {
      const env = await store({
        key: { apiKey: "k", refreshToken: "r" },
        refresh: { refreshToken: "r", username: "u", accessToken: "a", expiresAt: 5 },
        bare: { refreshToken: "r" },
        access: { accessToken: "a", expiresAt: 5 },
        undated: { accessToken: "a" },
      });
      const secret = (name: string) => `the profile "${name}" (dns-account:profile)`;
      const profile = (name: string, origin: Partial<OriginCheck> = {}) => usableCredentials({ mode: "profile", profile: name, source: "config", origin: { secret: secret(name), ...origin } }, env);
      assert.deepEqual(await profile("key"), { mode: "apiKey", baseUrl: "https://profile.example", apiKey: "k", source: "config" });
      // Was "the given base URL wins": now only a URL of the profile's own origin steers it (its path kept)…
      const sameOrigin = { url: "https://PROFILE.example/api/", name: "DNS_ACCOUNT_BASE_URL" };
      assert.deepEqual(await profile("key", { steer: sameOrigin }), { mode: "apiKey", baseUrl: sameOrigin.url, apiKey: "k", source: "config" });
      assert.deepEqual(await profile("key", { own: sameOrigin }), { mode: "apiKey", baseUrl: sameOrigin.url, apiKey: "k", source: "config" });
      // …another origin, given before it or beside it, is a conflict naming both places (the profile's key is never sent there).
      for (const where of ["steer", "own"] as const) {
        const conflict = await _rejects(profile("key", { [where]: { url: BASE, name: "DNS_ACCOUNT_BASE_URL" } }));
        assert.equal(conflict.code, "base_url_conflict", where);
        assert.equal(conflict.field, "baseUrl");
        assert.equal(
          conflict.message,
          `DNS_ACCOUNT_BASE_URL points at ${BASE}, but ${secret("key")} belongs to https://profile.example: a secret is sent only to the origin ` +
            "of the place that holds it. Give the base URL beside the secret, or remove DNS_ACCOUNT_BASE_URL",
        );
      }
      // A lower source's base URL goes with that source's own secret: the profile has an origin of its own, so it does not count.
      assert.deepEqual(await profile("key", { lower: { url: BASE, name: "DNS_ACCOUNT_BASE_URL" } }), { mode: "apiKey", baseUrl: "https://profile.example", apiKey: "k", source: "config" });
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
      const origin = (secret: string): OriginCheck => ({ secret });
      const fromEnv = await _rejects(usableCredentials({ mode: "profile", profile: "work", source: "environment", origin: origin("DNS_ACCOUNT_PROFILE") }, env));
      assert.equal(fromEnv.field, "profile");
      assert.match(fromEnv.message, /^DNS_ACCOUNT_PROFILE names "work", which is not in .*credentials\.json: run dns-account login --profile work$/);
      const fromConfig = await _rejects(usableCredentials({ mode: "profile", profile: "work", source: "config", origin: origin("dns-account:profile") }, env));
      assert.match(fromConfig.message, /^No profile "work" in .*credentials\.json: run dns-account login --profile work$/);
      const none = await _rejects(usableCredentials({ mode: "profile", profile: "default", source: "profile", implicit: true, origin: origin(DEFAULT_PROFILE), none: { property: "apiKey", reason: "no key here" } }, env));
      assert.equal(none.code, "invalid_config");
      assert.equal(none.field, "apiKey");
      assert.equal(none.message, "no key here");
      const fallback = await usableCredentials(
        {
          mode: "profile", profile: "default", source: "profile", implicit: true, origin: origin(DEFAULT_PROFILE),
          fallback: { mode: "command", command: `echo '{"refreshToken":"from-command"}'`, source: "environment", origin: origin("DNS_ACCOUNT_CREDENTIAL_COMMAND") },
        },
        env,
      );
      assert.deepEqual(fallback, { mode: "refreshToken", baseUrl: DEFAULT_BASE_URL, refreshToken: "from-command", source: "environment" });
      const withDefault = await store({ default: { refreshToken: "r0" } });
      assert.equal(((await usableCredentials({ mode: "profile", profile: "default", source: "profile", implicit: true, origin: origin(DEFAULT_PROFILE), none: NONE }, withDefault)) as { refreshToken: string }).refreshToken, "r0");
    });

    it("a credential command: its refresh token, else its access token (undated means no expiry); the URL it printed, else the one beside it, else the default; a base URL elsewhere steers it only within its origin", async () => {
      const secret = "the credential command (dns-account:credentialCommand)";
      const run = (printed: object, origin: Partial<OriginCheck> = {}) =>
        usableCredentials({ mode: "command", command: `echo '${JSON.stringify(printed)}'`, source: "config", origin: { secret, ...origin } }, {});
      assert.deepEqual(await run({ refreshToken: "r", accessToken: "a", baseUrl: "https://cmd.example" }), { mode: "refreshToken", baseUrl: "https://cmd.example", refreshToken: "r", source: "config" });
      // Was "the given base URL wins over the command's": now only when it names the printed origin…
      const sameOrigin = { url: "https://cmd.example/v1", name: "dns-account:baseUrl" };
      assert.deepEqual(await run({ refreshToken: "r", baseUrl: "https://cmd.example" }, { steer: sameOrigin }), { mode: "refreshToken", baseUrl: sameOrigin.url, refreshToken: "r", source: "config" });
      // …another origin is a conflict that names the printed URL's place.
      const conflict = await _rejects(run({ refreshToken: "r", baseUrl: "https://cmd.example" }, { steer: { url: BASE, name: "dns-account:baseUrl" } }));
      assert.equal(conflict.code, "base_url_conflict");
      assert.equal(conflict.field, "baseUrl");
      assert.equal(
        conflict.message,
        `dns-account:baseUrl points at ${BASE}, but ${secret}, by the baseUrl it printed, belongs to https://cmd.example: a secret is sent only to the origin ` +
          "of the place that holds it. Give the base URL beside the secret, or remove dns-account:baseUrl",
      );
      // Nothing printed: the base URL beside the command.
      assert.deepEqual(await run({ refreshToken: "r" }, { own: { url: BASE, name: "dns-account:baseUrl" } }), { mode: "refreshToken", baseUrl: BASE, refreshToken: "r", source: "config" });
      assert.deepEqual(await run({ accessToken: "a", expiresAt: 7 }), { mode: "accessToken", baseUrl: DEFAULT_BASE_URL, accessToken: "a", expiresAt: 7, source: "config" });
      assert.deepEqual(await run({ accessToken: "a" }), { mode: "accessToken", baseUrl: DEFAULT_BASE_URL, accessToken: "a", expiresAt: Number.POSITIVE_INFINITY, source: "config" });
    });
  });

  describe("credential sources", () => {
    const emu = _useEmulator();

    it("an API key has no access token: the message names where the key came from; only a profile's credential names the profile", async () => {
      const options = (await optionsSource({ apiKey: "k" }).load())!;
      const env = (await environmentSource({ DNS_ACCOUNT_API_KEY: "k" }).load())!;
      const store = new TokenStore({ dir: tmp("dns-account-mutants-") });
      await store.put("ci", { baseUrl: BASE, apiKey: "k" });
      const profile = (await profileSource({ store, profile: "ci" }).load())!;
      assert.equal("profile" in options, false);
      assert.equal(profile.profile, "ci");
      const tail = ' holds an API key, which has no access token: send it as "Authorization: ApiKey <key>" (dns-account env exports DNS_ACCOUNT_API_KEY), or name a profile that holds a login (--profile P)';
      assert.equal((await _rejects(options.token())).message, `The options${tail}`);
      assert.equal((await _rejects(env.token())).message, `The environment (DNS_ACCOUNT_API_KEY)${tail}`);
      assert.equal((await _rejects(profile.token())).message, `The profile "ci"${tail}`);
    });

    it("explicit fields: the messages use the options' or the environment's words; a password logs in", async () => {
      assert.equal((await _rejects(optionsSource({ password: "p" }).load())).message, "A password needs a username (username)");
      assert.equal((await _rejects(environmentSource({ DNS_ACCOUNT_PASSWORD: "p" }).load())).message, "A password needs a username (DNS_ACCOUNT_USERNAME)");
      assert.equal((await _rejects(optionsSource({ password: "p", refreshToken: "r" }).load())).message, "Set either password or refreshToken (in the options), not both");
      assert.equal((await _rejects(environmentSource({ DNS_ACCOUNT_PASSWORD: "p", DNS_ACCOUNT_REFRESH_TOKEN: "r" }).load())).message, "Set either password or refreshToken (DNS_ACCOUNT_PASSWORD or DNS_ACCOUNT_REFRESH_TOKEN), not both");
      const login = (await optionsSource({ baseUrl: emu().url, ...USER }).load())!;
      assert.match((await login.token()).accessToken, /\S{16,}/);
      const mfa = (await optionsSource({ baseUrl: emu().url, ...MFA_USER, mfaToken: "123456" }).load())!;
      assert.match((await mfa.token()).accessToken, /\S{16,}/, "the MFA code goes with the password");
    });

    it("a missing profile someone named is an error naming it (and DNS_ACCOUNT_PROFILE when that named it); a missing default is a miss", async () => {
      const store = new TokenStore({ dir: tmp("dns-account-mutants-") });
      assert.equal(await profileSource({ store, env: {} }).load(), undefined);
      assert.equal((await _rejects(profileSource({ store, profile: "x", required: true, env: {} }).load())).message, `No profile "x" in ${store.file}: run dns-account login --profile x`);
      assert.equal((await _rejects(profileSource({ store, env: { DNS_ACCOUNT_PROFILE: "y" } }).load())).message, `No profile "y" in ${store.file} (named by DNS_ACCOUNT_PROFILE): run dns-account login --profile y`);
    });

    it("a command's access token is used while it is more than five minutes from its expiry (expiresIn from the clock), and refreshed with its refresh token from then on; without one it is used as it is", async () => {
      const now = Date.now();
      const clock = { now: () => now };
      const { refreshToken } = await issueToken({ baseUrl: emu().url, ...USER });
      const token = (printed: object) => commandSource({ command: `echo '${JSON.stringify(printed)}'`, baseUrl: emu().url, env: {}, clock }).load().then((c) => c!.token());
      assert.deepEqual(await token({ accessToken: "a", refreshToken, expiresAt: now + 3_600_000 }), { accessToken: "a", tokenType: "bearer", expiresIn: 3600, expiresAt: now + 3_600_000, refreshToken, baseUrl: emu().url });
      assert.deepEqual(await token({ accessToken: "a", expiresAt: now + 1_500 }), { accessToken: "a", tokenType: "bearer", expiresIn: 2, expiresAt: now + 1_500, baseUrl: emu().url });
      assert.equal((await token({ accessToken: "a", expiresAt: now - 1_000 })).expiresIn, 1, "expired, and nothing to refresh it with: used as it is");
      const refreshed = await token({ accessToken: "a", refreshToken, expiresAt: now - 1_000 });
      assert.notEqual(refreshed.accessToken, "a");
      assert.equal(refreshed.baseUrl, emu().url);
      // The window is a fixed five minutes (it was a share of the time left, which never came before expiry).
      const fresh = await issueToken({ baseUrl: emu().url, ...USER });
      assert.equal((await token({ accessToken: "a", refreshToken: fresh.refreshToken, expiresAt: now + 300_001 })).accessToken, "a", "just outside the window: used");
      const nearExpiry = await token({ accessToken: "a", refreshToken: fresh.refreshToken, expiresAt: now + 300_000 });
      assert.notEqual(nearExpiry.accessToken, "a", "five minutes from its expiry: refreshed");
      assert.equal(nearExpiry.baseUrl, emu().url);
      assert.equal((await token({ accessToken: "a", expiresAt: now + 60_000 })).accessToken, "a", "in the window, but nothing to refresh it with: used as it is");
    });

    it("no credential anywhere: the message lists the sources tried and what to set", async () => {
      const store = new TokenStore({ dir: tmp("dns-account-mutants-") });
      const err = await _rejects(resolveCredential([environmentSource({}), profileSource({ store, env: {} }), commandSource({ env: {} })]));
      assert.equal(
        err.message,
        "No credentials found (tried: environment, profile, command): run dns-account login, or set DNS_ACCOUNT_API_KEY, DNS_ACCOUNT_REFRESH_TOKEN, " +
          "DNS_ACCOUNT_USERNAME and DNS_ACCOUNT_PASSWORD, DNS_ACCOUNT_ACCESS_TOKEN or DNS_ACCOUNT_CREDENTIAL_COMMAND",
      );
    });
  });

  describe("the SDK chain's origin checks (second run: survivors of the origin rule)", () => {
    const emu = _useEmulator({ allowedHosts: ["mutants-emulator"] });
    afterEach(() => resetSharedSessions());
    const A = "https://a.example";
    const B = "https://b.example:8443";
    const TAIL = ": a secret is sent only to the origin of the place that holds it. Give the base URL beside the secret, or remove ";
    const conflictOf = async (p: Promise<unknown>, message: string) => {
      const e = await _rejects(p);
      assert.ok(e instanceof BaseUrlConflictError, e.message);
      assert.equal(e.field, "baseUrl");
      assert.equal(e.message, message);
    };
    /** A store holding `ci` and `default` at A (API keys: nothing is sent anywhere). */
    const storeAtA = async () => {
      const store = new TokenStore({ dir: tmp("dns-account-mutants-") });
      await store.put("ci", { baseUrl: A, apiKey: "k-ci" });
      await store.put("default", { baseUrl: A, apiKey: "k-default" });
      return store;
    };
    const printing = (printed: object) => `echo '${JSON.stringify(printed)}'`;

    it("explicit fields: each source's fields by its own names; a lower source's base URL goes with its own secret", async () => {
      await conflictOf(
        optionsSource({ apiKey: "k" }, { DNS_ACCOUNT_BASE_URL: B }).load(),
        `DNS_ACCOUNT_BASE_URL points at ${B}, but apiKey (with no base URL beside it: the service's own address) belongs to https://api.adguard-dns.io${TAIL}DNS_ACCOUNT_BASE_URL`,
      );
      await conflictOf(
        environmentSource({ DNS_ACCOUNT_BASE_URL: B, DNS_ACCOUNT_API_KEY: "k" }, undefined, { baseUrl: A }).load(),
        `baseUrl points at ${A}, but DNS_ACCOUNT_API_KEY (with DNS_ACCOUNT_BASE_URL) belongs to ${B}${TAIL}baseUrl`,
      );
      // DNS_ACCOUNT_BASE_URL alone steers the options' key (within its origin, path and all)…
      const v2 = `${DEFAULT_BASE_URL}/v2`;
      assert.equal((await optionsSource({ apiKey: "k" }, { DNS_ACCOUNT_BASE_URL: v2 }).load())!.baseUrl, v2);
      // …but beside a secret of the environment's own it goes with that secret, not the options' one.
      for (const own of [{ DNS_ACCOUNT_API_KEY: "k2" }, { DNS_ACCOUNT_ACCESS_TOKEN: "a2" }, { DNS_ACCOUNT_CREDENTIAL_COMMAND: "x" }, { DNS_ACCOUNT_PROFILE: "x" }]) {
        assert.equal((await optionsSource({ apiKey: "k" }, { DNS_ACCOUNT_BASE_URL: v2, ...own }).load())!.baseUrl, DEFAULT_BASE_URL, JSON.stringify(own));
      }
    });

    it("allowInsecureHttp reaches the session of explicit fields and of the chain (http:// to a non-loopback host)", async () => {
      const insecure = { baseUrl: "http://dns.example", refreshToken: "r" };
      const refused = await _rejects(optionsSource(insecure).load());
      assert.equal(refused.code, "invalid_config");
      assert.equal(refused.field, "baseUrl");
      assert.equal((await optionsSource({ ...insecure, allowInsecureHttp: true }).load())!.baseUrl, insecure.baseUrl);
      const store = new TokenStore({ dir: tmp("dns-account-mutants-") });
      assert.equal((await resolveCredential(defaultCredentialChain({ credentials: insecure, allowInsecureHttp: true, env: {}, store }))).baseUrl, insecure.baseUrl);
    });

    it("a credential command's refresh token goes to the http:// host it printed when allowInsecureHttp is set", async () => {
      const { refreshToken } = await issueToken({ baseUrl: emu().url, ...USER });
      const host = `http://mutants-emulator:${new URL(emu().url).port}`;
      const original = dns.lookup;
      // The name answers 127.0.0.1 in this process only, as docker-compose's service names do.
      (dns as { lookup: unknown }).lookup = (name: string, options: unknown, callback?: unknown) => {
        if (name !== "mutants-emulator") return (original as (...a: unknown[]) => void).call(dns, name, options, callback);
        const cb = (typeof options === "function" ? options : callback) as (...a: unknown[]) => void;
        const all = typeof options === "object" && options !== null && (options as { all?: boolean }).all;
        if (all) process.nextTick(cb, null, [{ address: "127.0.0.1", family: 4 }]);
        else process.nextTick(cb, null, "127.0.0.1", 4);
      };
      try {
        const command = printing({ refreshToken, baseUrl: host });
        const refused = await _rejects(commandSource({ command, env: {} }).load().then((c) => c!.token()));
        assert.equal(refused.code, "invalid_config");
        const token = await (await commandSource({ command, env: {}, allowInsecureHttp: true }).load())!.token();
        assert.equal(token.baseUrl, host);
        assert.match(token.accessToken, /\S{16,}/);
      } finally {
        (dns as { lookup: unknown }).lookup = original;
      }
    });

    it("a profile's own URL against the base URLs given around it, named by where the profile was named", async () => {
      const store = await storeAtA();
      const steer = { url: B, name: "baseUrl" };
      const own = { url: B, name: "DNS_ACCOUNT_BASE_URL" };
      await conflictOf(profileSource({ store, profile: "ci", env: {}, origin: { steer } }).load(), `baseUrl points at ${B}, but the profile "ci" (--profile) belongs to ${A}${TAIL}baseUrl`);
      await conflictOf(
        profileSource({ store, env: { DNS_ACCOUNT_PROFILE: "ci" }, origin: { own } }).load(),
        `DNS_ACCOUNT_BASE_URL points at ${B}, but the profile "ci" (DNS_ACCOUNT_PROFILE) belongs to ${A}${TAIL}DNS_ACCOUNT_BASE_URL`,
      );
      await conflictOf(profileSource({ store, env: {}, origin: { steer } }).load(), `baseUrl points at ${B}, but the profile "default" (the default profile) belongs to ${A}${TAIL}baseUrl`);
      // The base URL beside DNS_ACCOUNT_PROFILE counts only for the profile it names: not for --profile, nor for the default one.
      assert.equal((await profileSource({ store, profile: "ci", env: {}, origin: { own } }).load())!.baseUrl, A);
      assert.equal((await profileSource({ store, profile: "ci", env: { DNS_ACCOUNT_PROFILE: "default" }, origin: { own } }).load())!.profile, "ci");
      assert.equal((await profileSource({ store, env: {}, origin: { own } }).load())!.profile, "default");
      // The same origin written another way, and no claims at all, are no conflict.
      assert.equal((await profileSource({ store, profile: "ci", env: {}, origin: { steer: { url: `${A}/`, name: "baseUrl" } } }).load())!.baseUrl, A);
      assert.equal((await profileSource({ store, profile: "ci", env: {} }).load())!.baseUrl, A);
      // A profile named here but not required is a miss when missing, whatever DNS_ACCOUNT_PROFILE says.
      assert.equal(await profileSource({ store, profile: "x", env: { DNS_ACCOUNT_PROFILE: "ci" } }).load(), undefined);
    });

    it("a credential command's printed URL against the base URL beside it or before it, named by where the command came from", async () => {
      const command = printing({ accessToken: "a", baseUrl: A });
      const token = (options: Parameters<typeof commandSource>[0]) => commandSource(options).load().then((c) => c!.token());
      await conflictOf(token({ command, baseUrl: B, env: {} }), `baseUrl points at ${B}, but the credential command (command), by the baseUrl it printed, belongs to ${A}${TAIL}baseUrl`);
      await conflictOf(
        token({ env: { DNS_ACCOUNT_CREDENTIAL_COMMAND: command, DNS_ACCOUNT_BASE_URL: B } }),
        `DNS_ACCOUNT_BASE_URL points at ${B}, but the credential command (DNS_ACCOUNT_CREDENTIAL_COMMAND), by the baseUrl it printed, belongs to ${A}${TAIL}DNS_ACCOUNT_BASE_URL`,
      );
      await conflictOf(token({ command, env: {}, origin: { steer: { url: B, name: "baseUrl" } } }), `baseUrl points at ${B}, but the credential command (command), by the baseUrl it printed, belongs to ${A}${TAIL}baseUrl`);
      // Nothing printed: the URL beside the command is its origin, and one given before it must agree.
      const silent = printing({ accessToken: "a" });
      await conflictOf(
        token({ command: silent, baseUrl: A, env: {}, origin: { steer: { url: B, name: "dns-account:baseUrl" } } }),
        `dns-account:baseUrl points at ${B}, but the credential command (command) (with baseUrl) belongs to ${A}${TAIL}dns-account:baseUrl`,
      );
      await conflictOf(
        token({ env: { DNS_ACCOUNT_CREDENTIAL_COMMAND: silent, DNS_ACCOUNT_BASE_URL: A }, origin: { steer: { url: B, name: "baseUrl" } } }),
        `baseUrl points at ${B}, but the credential command (DNS_ACCOUNT_CREDENTIAL_COMMAND) (with DNS_ACCOUNT_BASE_URL) belongs to ${A}${TAIL}baseUrl`,
      );
      assert.equal((await token({ command, env: {} })).baseUrl, A);
    });

    it("defaultCredentialChain: the options' and the environment's base URLs reach every link", async () => {
      const store = await storeAtA();
      const empty = new TokenStore({ dir: tmp("dns-account-mutants-") });
      const chain = (options: Parameters<typeof defaultCredentialChain>[0]) => resolveCredential(defaultCredentialChain(options));
      // --profile: the options before it, and their base URL steers it.
      await conflictOf(chain({ profile: "ci", store, env: {}, credentials: { baseUrl: B } }), `baseUrl points at ${B}, but the profile "ci" (--profile) belongs to ${A}${TAIL}baseUrl`);
      assert.equal((await chain({ profile: "ci", store, env: {}, credentials: { apiKey: "k" } })).source, "options");
      // The default profile: DNS_ACCOUNT_BASE_URL steers it unless the options give one.
      await conflictOf(chain({ store, env: { DNS_ACCOUNT_BASE_URL: B } }), `DNS_ACCOUNT_BASE_URL points at ${B}, but the profile "default" (the default profile) belongs to ${A}${TAIL}DNS_ACCOUNT_BASE_URL`);
      await conflictOf(chain({ store, env: { DNS_ACCOUNT_BASE_URL: A }, credentials: { baseUrl: B } }), `baseUrl points at ${B}, but the profile "default" (the default profile) belongs to ${A}${TAIL}baseUrl`);
      assert.equal((await chain({ store, env: { DNS_ACCOUNT_BASE_URL: B }, credentials: { baseUrl: A } })).profile, "default");
      // The environment's credential: the options' base URL before it.
      await conflictOf(
        chain({ store: empty, env: { DNS_ACCOUNT_BASE_URL: B, DNS_ACCOUNT_API_KEY: "k" }, credentials: { baseUrl: A } }),
        `baseUrl points at ${A}, but DNS_ACCOUNT_API_KEY (with DNS_ACCOUNT_BASE_URL) belongs to ${B}${TAIL}baseUrl`,
      );
      // The command: given here, and steered by the options' base URL.
      const command = printing({ accessToken: "a", baseUrl: A });
      const byCommand = await chain({ store: empty, env: {}, command });
      assert.equal(byCommand.source, "command");
      await conflictOf(chain({ store: empty, env: {}, command, credentials: { baseUrl: B } }).then((c) => c.token()), `baseUrl points at ${B}, but the credential command (command), by the baseUrl it printed, belongs to ${A}${TAIL}baseUrl`);
    });
  });

  describe("resolve.ts: what the second run found", () => {
    it("a lower source holding a secret of its own does not steer a profile (its base URL is only `lower`)", () => {
      const lower = { url: "https://b.example", name: "DNS_ACCOUNT_BASE_URL" };
      const secret = 'the profile "ci" (dns-account:profile)';
      for (const env of [{ apiKey: "k" }, { accessToken: "a" }, { password: "p" }, { refreshToken: "r" }, { profile: "p" }, { credentialCommand: "c" }]) {
        assert.deepEqual(resolveCredentials([["config", { profile: "ci" }], ["environment", { baseUrl: lower.url, ...env }]], { apiKey: true, accessToken: true }), {
          mode: "profile", profile: "ci", source: "config", origin: { lower, secret },
        }, JSON.stringify(env));
      }
    });

    it("a conflict names the secret's field in the surface's words, the caller's own included", () => {
      const base = { baseUrl: "https://b.example" };
      const tail = "(with no base URL beside it: the service's own address) belongs to https://api.adguard-dns.io";
      const reason = (r: unknown) => (r as { reason: string }).reason;
      assert.match(reason(resolveCredentials([["args", base], ["config", { accessToken: "a" }]], { accessToken: true })), new RegExp(`but dns-account:accessToken ${tail.replace(/[()]/g, "\\$&")}`));
      assert.match(reason(resolveCredentials([["args", base], ["config", { refreshToken: "r" }]])), /but dns-account:refreshToken \(with no base URL/);
      const words = { source: () => "", username: "", field: (kind: string, field: string) => `<${kind}.${field}>` };
      assert.match(reason(resolveCredentials([["args", base], ["environment", { apiKey: "k" }]], { apiKey: true, words })), /^<args\.baseUrl> points at https:\/\/b\.example, but <environment\.apiKey> \(with no base URL/);
    });

    it("urlOrigin: a URL without an origin, or no URL at all, is its own origin", () => {
      assert.equal(urlOrigin("file:///a"), "file:///a");
      assert.notEqual(urlOrigin("file:///a"), urlOrigin("file:///b"));
      assert.equal(urlOrigin("not a url"), "not a url");
    });

    it("problemError: a conflict is a BaseUrlConflictError, anything else a ConfigError, both naming the property", () => {
      const plain = problemError({ property: "username", reason: "r" });
      assert.ok(plain instanceof ConfigError && !(plain instanceof BaseUrlConflictError));
      assert.equal(plain.code, "invalid_config");
      assert.equal(plain.field, "username");
      const conflict = problemError({ property: "baseUrl", reason: "r", code: "base_url_conflict" });
      assert.ok(conflict instanceof BaseUrlConflictError);
      assert.equal(conflict.field, "baseUrl");
    });
  });
});
