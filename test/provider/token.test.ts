import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { type ProviderHost, startProviderHost } from "../support/engine/provider-host";
import { InvalidGrantError, issueToken, refreshToken, TokenStore } from "../../sdk";
import { _assertNoSecrets, _cleanEnv, _closeAll, _rejects } from "../support/helpers";
import { _installedProgram, _runInProgram, MOCKS_PRELUDE } from "../support/program";
import { _useTempDirs } from "../support/temp";

// Distinctive secrets, searched for in everything the host and the serializer produce.
const PASSWORD = "pw-HOST-7c1d9e2f";
const MFA_PASSWORD = "pw-HOSTMFA-3b8a6d";
const MFA_CODE = "551177";
const URN = "urn:pulumi:dev::dns-account-test::pulumi-nodejs:dynamic/dns-account:Token::ci";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

describe("Token lifecycle through the dynamic-provider host (installed copy)", function () {
  const tmp = _useTempDirs();
  this.timeout(120_000);
  let emu: Emulator;
  let program: string;
  let provider: string;
  let host: ProviderHost;
  let bare: ProviderHost;
  const secrets: string[] = [PASSWORD, MFA_PASSWORD, MFA_CODE];
  const env = () => _cleanEnv();

  before(async () => {
    emu = await startEmulator({
      tokenLifetimeSeconds: 7200,
      users: [
        { username: "ops@example.com", password: PASSWORD },
        { username: "mfa@example.com", password: MFA_PASSWORD, mfa: [MFA_CODE] },
      ],
    });
    program = await _installedProgram();
    // The __provider text exactly as the SDK serializes it for a Token, in a program with secrets in args.
    const { stdout } = await _runInProgram(
      "serialize",
      `${MOCKS_PRELUDE}
const { Token } = require("pulumi-dns-account");
new Token("ci", { username: "ops@example.com", password: process.env.P, mfaToken: process.env.M, keepers: { q: "1" } });
registered((r) => r.inputs.__provider).then((r) => console.log(JSON.stringify(r.inputs.__provider)));`,
      { P: PASSWORD, M: MFA_CODE },
    );
    provider = JSON.parse(stdout) as string;
    host = await startProviderHost({ programDir: program, env: env() });
    await host.configure(
      { "dns-account:baseUrl": emu.url, "dns-account:username": "ops@example.com", "dns-account:password": PASSWORD },
      ["dns-account:password"],
    );
    bare = await startProviderHost({ programDir: program, env: env() });
    await bare.configure({});
  });

  after(async () => {
    await _closeAll(() => _assertNoSecrets(host.output() + bare.output(), secrets), () => host?.close(), () => bare?.close(), () => emu?.close());
  });

  it("serializes the provider as a require() of the exported file: at most 1 KB, no secret", () => {
    assert.match(provider, /require\("pulumi-dns-account\/dist\/provider\/token\/provider\.js"\)/);
    assert.ok(Buffer.byteLength(provider) <= 1024, `${Buffer.byteLength(provider)} bytes`);
    _assertNoSecrets(provider, secrets);
    assert.ok(!provider.includes(emu.url));
  });

  describe("Check", () => {
    it("accepts credentials from secret stack config", async () => {
      assert.deepEqual((await host.check(URN, {}, { __provider: provider })).failures, []);
    });

    it("fails clearly without any credentials, naming the property", async () => {
      const { failures } = await bare.check(URN, {}, { __provider: provider });
      assert.equal(failures.length, 1);
      // password holds a secret: the engine would print its value, so the reason names it instead.
      assert.equal(failures[0]!.property, "");
      assert.match(failures[0]!.reason, /^password: No credentials/);
    });

    it("fails on both a password and a refresh token, a malformed base URL and negative periods", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ refreshToken: "b" }, ""],
        [{ baseUrl: "ftp://nope" }, "baseUrl"],
        [{ baseUrl: "http://api.example.com" }, "baseUrl"],
        [{ rotationPeriodSeconds: -5 }, "rotationPeriodSeconds"],
        [{ renewBeforeSeconds: 0 }, "renewBeforeSeconds"],
        [{ revokeOnDelete: "yes" }, "revokeOnDelete"],
        [{ username: undefined }, "username"],
      ];
      for (const [news, property] of cases) {
        const { failures } = await bare.check(URN, {}, { __provider: provider, username: "u", password: "p", ...news });
        assert.deepEqual(failures.map((f) => f.property), [property], JSON.stringify(news));
      }
    });

    it("accepts unknown values during preview", async () => {
      const { failures } = await bare.check(URN, {}, { __provider: provider, password: UNKNOWN, username: UNKNOWN, rotationPeriodSeconds: UNKNOWN });
      assert.deepEqual(failures, []);
    });
  });

  let state: Record<string, unknown>;

  describe("Create, Diff, Update, Read, Delete", () => {
    it("Create: password grant with credentials from stack config", async () => {
      emu.resetStats();
      const res = await host.create(URN, { __provider: provider, keepers: { q: "1" }, rotationPeriodSeconds: 86400 });
      state = res.properties;
      assert.match(res.id, /^tok-[0-9a-f]{16}$/);
      assert.equal(emu.stats.passwordGrants, 1);
      assert.equal(state.tokenType, "bearer");
      assert.equal(state.mode, "password");
      assert.equal(state.username, "ops@example.com");
      assert.equal(state.baseUrl, emu.url);
      assert.equal(state.revokeOnDelete, true);
      assert.ok(!Number.isNaN(Date.parse(state.expiresAt as string)) && !Number.isNaN(Date.parse(state.issuedAt as string)));
      assert.equal(state.__provider, provider);
      secrets.push(state.accessToken as string, state.refreshToken as string);
      assert.ok((await refreshToken({ baseUrl: emu.url, refreshToken: state.refreshToken as string })).accessToken);
      // Only accessToken and refreshToken hold secrets (the program marks them); nothing else may.
      const { accessToken: _a, refreshToken: _r, ...unmarked } = state;
      _assertNoSecrets(JSON.stringify(unmarked), secrets);
    });

    it("Diff: no changes for the same inputs, and none for a new password or MFA code alone", async () => {
      const same = { __provider: provider, keepers: { q: "1" }, rotationPeriodSeconds: 86400 };
      assert.deepEqual(await host.diff("id", URN, state, same), { changes: "none", replaces: [], deleteBeforeReplace: false });
      const d = await host.diff("id", URN, state, { ...same, password: "rotated-password", username: "ops@example.com", mfaToken: "123456" });
      assert.equal(d.changes, "none");
    });

    it("Diff: replaces on keepers, username, baseUrl, refreshToken and an elapsed rotation period, create-before-delete", async () => {
      const base = { __provider: provider, keepers: { q: "1" }, rotationPeriodSeconds: 86400 };
      const expect = async (olds: Record<string, unknown>, news: Record<string, unknown>, replaces: string[]) => {
        const d = await host.diff("id", URN, olds, news);
        assert.deepEqual({ changes: d.changes, replaces: d.replaces, dbr: d.deleteBeforeReplace }, { changes: "some", replaces, dbr: false }, JSON.stringify(news));
      };
      await expect(state, { ...base, keepers: { q: "2" } }, ["keepers"]);
      await expect(state, { ...base, username: "other@example.com" }, ["username"]);
      await expect(state, { ...base, baseUrl: "https://api.example.com", username: "ops@example.com", password: "other-password" }, ["baseUrl"]);
      // A refresh token from the args with the config's base URL would be a conflict (issue 22 §1): its own beside it.
      await expect(state, { ...base, baseUrl: emu.url, refreshToken: "adopt-this-one" }, ["refreshToken"]);
      await expect({ ...state, issuedAt: new Date(Date.now() - 2 * 86400_000).toISOString() }, base, ["rotationPeriodSeconds"]);
      await expect(state, { ...base, keepers: UNKNOWN }, ["keepers"]);
    });

    it("Diff: an update (no replacement) when the access token is within renewBeforeSeconds of expiry", async () => {
      const base = { __provider: provider, keepers: { q: "1" }, rotationPeriodSeconds: 86400 };
      const soon = { ...state, renewedAt: new Date(Date.now() - 90 * 60_000).toISOString(), expiresAt: new Date(Date.now() + 30 * 60_000).toISOString() };
      // Lifetime 2 h: the default window is half of it, 1 h.
      assert.deepEqual(await host.diff("id", URN, soon, base), { changes: "some", replaces: [], deleteBeforeReplace: false });
      assert.equal((await host.diff("id", URN, soon, { ...base, renewBeforeSeconds: 600 })).changes, "some", "a settings change is an update");
      const notYet = { ...soon, renewBeforeSeconds: 600 };
      assert.equal((await host.diff("id", URN, notYet, { ...base, renewBeforeSeconds: 600 })).changes, "none");
    });

    it("Update: a new access token with the same refresh token, inside the renewal window", async () => {
      emu.resetStats();
      const soon = { ...state, renewedAt: new Date(Date.now() - 90 * 60_000).toISOString(), expiresAt: new Date(Date.now() + 30 * 60_000).toISOString() };
      const { properties } = await host.update("id", URN, soon, { __provider: provider, keepers: { q: "1" }, rotationPeriodSeconds: 86400 });
      assert.notEqual(properties.accessToken, state.accessToken);
      assert.equal(properties.refreshToken, state.refreshToken);
      assert.equal(properties.issuedAt, state.issuedAt);
      assert.equal(emu.stats.refreshGrants, 1);
      assert.equal(emu.stats.passwordGrants, 0);
      secrets.push(properties.accessToken as string);
      state = properties;
    });

    it("Read: live keeps the state outside the renewal window; revoked out of band reports the resource gone", async () => {
      const live = await host.read("tok-1", URN, state);
      assert.equal(live.id, "tok-1");
      assert.deepEqual(live.properties, state);

      const other = await host.create(URN, { __provider: provider });
      secrets.push(other.properties.accessToken as string, other.properties.refreshToken as string);
      emu.revokeRefreshToken(other.properties.refreshToken as string);
      const gone = await host.read(other.id, URN, other.properties);
      assert.equal(gone.id, "");
    });

    it("Delete: revokes the refresh token; already revoked is success; revokeOnDelete false keeps it", async () => {
      await host.delete("tok-1", URN, state);
      assert.ok((await _rejects(refreshToken({ baseUrl: emu.url, refreshToken: state.refreshToken as string }))) instanceof InvalidGrantError);
      await host.delete("tok-1", URN, state);

      const kept = await host.create(URN, { __provider: provider, revokeOnDelete: false });
      secrets.push(kept.properties.accessToken as string, kept.properties.refreshToken as string);
      await host.delete(kept.id, URN, kept.properties);
      assert.ok((await refreshToken({ baseUrl: emu.url, refreshToken: kept.properties.refreshToken as string })).accessToken);
    });

    it("rotation by replacement: the new token exists before the old refresh token is revoked", async () => {
      const old = await host.create(URN, { __provider: provider, keepers: { q: "1" } });
      const d = await host.diff(old.id, URN, old.properties, { __provider: provider, keepers: { q: "2" } });
      assert.equal(d.deleteBeforeReplace, false);
      // The engine's order for create-before-delete: create the replacement, then delete the old one.
      const replacement = await host.create(URN, { __provider: provider, keepers: { q: "2" } });
      await host.delete(old.id, URN, old.properties);
      secrets.push(...[old, replacement].flatMap((r) => [r.properties.accessToken as string, r.properties.refreshToken as string]));
      assert.ok((await refreshToken({ baseUrl: emu.url, refreshToken: replacement.properties.refreshToken as string })).accessToken);
      assert.ok((await _rejects(refreshToken({ baseUrl: emu.url, refreshToken: old.properties.refreshToken as string }))) instanceof InvalidGrantError);
    });
  });

  describe("credentials from args", () => {
    it("adopts an existing refresh token", async () => {
      const issued = await issueToken({ baseUrl: emu.url, username: "ops@example.com", password: PASSWORD });
      secrets.push(issued.accessToken, issued.refreshToken);
      const res = await bare.create(URN, { __provider: provider, baseUrl: emu.url, refreshToken: issued.refreshToken });
      assert.equal(res.properties.mode, "refreshToken");
      assert.equal(res.properties.refreshToken, issued.refreshToken);
      secrets.push(res.properties.accessToken as string);
    });

    it("logs in with an MFA code, and fails clearly without one", async () => {
      const args = { __provider: provider, baseUrl: emu.url, username: "mfa@example.com", password: MFA_PASSWORD };
      const err = await _rejects(bare.create(URN, args));
      assert.match(err.message, /mfa_required/);
      _assertNoSecrets(err.message, secrets);
      const res = await bare.create(URN, { ...args, mfaToken: MFA_CODE });
      secrets.push(res.properties.accessToken as string, res.properties.refreshToken as string);
      assert.equal(res.properties.username, "mfa@example.com");
    });

    it("reports a wrong password as invalid_credentials without the password", async () => {
      const err = await _rejects(bare.create(URN, { __provider: provider, baseUrl: emu.url, username: "ops@example.com", password: `${PASSWORD}-wrong` }));
      assert.match(err.message, /invalid_credentials/);
      _assertNoSecrets(err.message, [...secrets, `${PASSWORD}-wrong`]);
    });
  });

  describe("getClient inside another dynamic provider, in the host", () => {
    it("ten resources with the same credentials cause one login", async () => {
      mkdirSync(path.join(program, "scripts"), { recursive: true });
      const file = path.join(program, "scripts", "limits-provider.js");
      writeFileSync(
        file,
        `const { getClient } = require("pulumi-dns-account");
exports.create = async (inputs) => {
  const client = await getClient({ baseUrl: inputs.baseUrl });
  const limits = await client.account.limits();
  return { id: "limits-" + inputs.n, outs: { devices: limits.devices.limit } };
};`,
      );
      const envHost = await startProviderHost({
        programDir: program,
        // The password's own base URL beside it: the call's baseUrl names the same origin (issue 22 §1).
        env: { ...env(), DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_USERNAME: "ops@example.com", DNS_ACCOUNT_PASSWORD: PASSWORD },
      });
      try {
        await envHost.configure({});
        emu.resetStats();
        const other = `exports.handler = () => require(${JSON.stringify(file)});`;
        const urn = "urn:pulumi:dev::dns-account-test::pulumi-nodejs:dynamic:Resource::limits";
        const results = await Promise.all(Array.from({ length: 10 }, (_, n) => envHost.create(urn, { __provider: other, baseUrl: emu.url, n })));
        assert.deepEqual(results.map((r) => r.properties.devices), Array(10).fill(10));
        assert.equal(emu.stats.tokenCalls, 1);
        assert.equal(emu.stats.apiCalls, 10);
      } finally {
        await envHost.close();
      }
    });
  });

  describe("stack config dns-account:profile and dns-account:credentialCommand (after args, before env)", () => {
    it("a CLI profile: adopted with revokeOnDelete false by default; args still win; env loses", async () => {
      const dir = tmp("dns-account-profile-");
      const issued = await issueToken({ baseUrl: emu.url, username: "ops@example.com", password: PASSWORD });
      secrets.push(issued.accessToken, issued.refreshToken);
      await new TokenStore({ dir }).put("ci", { baseUrl: emu.url, username: "ops@example.com", refreshToken: issued.refreshToken });
      const profileHost = await startProviderHost({
        programDir: program,
        env: { ...env(), DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_USERNAME: "ops@example.com", DNS_ACCOUNT_PASSWORD: "env-must-not-be-used" },
      });
      try {
        await profileHost.configure({ "dns-account:profile": "ci" });
        assert.deepEqual((await profileHost.check(URN, {}, { __provider: provider })).failures, []);
        const res = await profileHost.create(URN, { __provider: provider });
        secrets.push(res.properties.accessToken as string);
        assert.equal(res.properties.mode, "refreshToken");
        assert.equal(res.properties.refreshToken, issued.refreshToken);
        assert.equal(res.properties.baseUrl, emu.url);
        assert.equal(res.properties.revokeOnDelete, false);
        assert.equal((await profileHost.diff(res.id, URN, res.properties, { __provider: provider })).changes, "none");
        await profileHost.delete(res.id, URN, res.properties);
        assert.ok((await refreshToken({ baseUrl: emu.url, refreshToken: issued.refreshToken })).accessToken, "the CLI's login survives");
        const byArgs = await profileHost.create(URN, { __provider: provider, baseUrl: emu.url, username: "ops@example.com", password: PASSWORD });
        secrets.push(byArgs.properties.accessToken as string, byArgs.properties.refreshToken as string);
        assert.equal(byArgs.properties.mode, "password");
        _assertNoSecrets(profileHost.output(), secrets);
      } finally {
        await profileHost.close();
      }
      const missing = await startProviderHost({ programDir: program, env: { ...env(), DNS_ACCOUNT_CONFIG_DIR: dir } });
      try {
        await missing.configure({ "dns-account:profile": "absent" });
        const { failures } = await missing.check(URN, {}, { __provider: provider });
        assert.deepEqual(failures.map((f) => f.property), ["profile"]);
        assert.match(failures[0]!.reason, /dns-account login --profile absent/);
      } finally {
        await missing.close();
      }
    });

    it("a credential command: its refresh token is adopted", async () => {
      const issued = await issueToken({ baseUrl: emu.url, username: "ops@example.com", password: PASSWORD });
      secrets.push(issued.accessToken, issued.refreshToken);
      const commandHost = await startProviderHost({ programDir: program, env: env() });
      try {
        await commandHost.configure({
          "dns-account:credentialCommand": `echo '{"refreshToken":"${issued.refreshToken}","baseUrl":"${emu.url}"}'`,
        });
        const res = await commandHost.create(URN, { __provider: provider });
        secrets.push(res.properties.accessToken as string);
        assert.equal(res.properties.refreshToken, issued.refreshToken);
        assert.equal(res.properties.revokeOnDelete, false);
      } finally {
        await commandHost.close();
      }
    });
  });

  describe("credentials from the environment", () => {
    it("uses DNS_ACCOUNT_* when neither args nor config give credentials", async () => {
      const envHost = await startProviderHost({
        programDir: program,
        env: { ...env(), DNS_ACCOUNT_BASE_URL: emu.url, DNS_ACCOUNT_USERNAME: "ops@example.com", DNS_ACCOUNT_PASSWORD: PASSWORD },
      });
      try {
        await envHost.configure({});
        assert.deepEqual((await envHost.check(URN, {}, { __provider: provider })).failures, []);
        const res = await envHost.create(URN, { __provider: provider });
        secrets.push(res.properties.accessToken as string, res.properties.refreshToken as string);
        assert.equal(res.properties.username, "ops@example.com");
        _assertNoSecrets(envHost.output(), secrets);
      } finally {
        await envHost.close();
      }
    });
  });
});
