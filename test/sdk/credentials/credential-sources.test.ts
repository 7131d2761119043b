import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import sinon from "sinon";
import path from "node:path";
import {
  commandSource,
  CredentialProcessError,
  defaultCredentialChain,
  environmentSource,
  issueToken,
  NoCredentialsError,
  optionsSource,
  profileSource,
  resetSharedSessions,
  resolveCredential,
  TokenStore,
} from "../../../sdk";
import { _rejects, _useEmulator, USER } from "../../support/helpers";
import { _useTempDirs } from "../../support/temp";

describe("credential sources", () => {
  const tmp = _useTempDirs();
  const emu = _useEmulator();
  let store: TokenStore;
  before(() => {
    store = new TokenStore({ dir: tmp("dns-account-src-") });
  });
  afterEach(() => resetSharedSessions());

  it("options: a password, a refresh token or a bare access token", async () => {
    assert.equal(await optionsSource({}).load(), undefined);
    const byPassword = (await optionsSource({ baseUrl: emu().url, ...USER }).load())!;
    assert.equal(byPassword.source, "options");
    const set = await byPassword.token();
    const byRefresh = (await optionsSource({ baseUrl: emu().url, refreshToken: set.refreshToken }).load())!;
    assert.ok((await byRefresh.token()).accessToken);
    const bare = await (await optionsSource({ accessToken: "bare-token" }).load())!.token();
    assert.equal(bare.accessToken, "bare-token");
    assert.equal(bare.expiresAt, Number.POSITIVE_INFINITY);
  });

  it("environment: DNS_ACCOUNT_ACCESS_TOKEN, DNS_ACCOUNT_REFRESH_TOKEN or username and password", async () => {
    assert.equal(await environmentSource({}).load(), undefined);
    const c = (await environmentSource({ DNS_ACCOUNT_BASE_URL: emu().url, DNS_ACCOUNT_USERNAME: USER.username, DNS_ACCOUNT_PASSWORD: USER.password }).load())!;
    assert.equal(c.source, "environment");
    assert.equal(c.baseUrl, emu().url);
    assert.ok((await c.token()).refreshToken);
    assert.equal((await (await environmentSource({ DNS_ACCOUNT_ACCESS_TOKEN: "t" }).load())!.token()).accessToken, "t");
  });

  it("profile: the named profile of the store, or nothing", async () => {
    assert.equal(await profileSource({ store, profile: "none" }).load(), undefined);
    const issued = await issueToken({ baseUrl: emu().url, ...USER });
    await store.put("ci", { baseUrl: emu().url, refreshToken: issued.refreshToken });
    const c = (await profileSource({ store, env: { DNS_ACCOUNT_PROFILE: "ci" } }).load())!;
    assert.equal(c.profile, "ci");
    assert.ok((await c.token()).accessToken);
    assert.ok((await store.profile("ci"))?.accessToken, "persisted");
  });

  it("command: reads a token set from stdout; refreshes when it only gives a refresh token", async () => {
    assert.equal(await commandSource({ env: {} }).load(), undefined);
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const c = (await commandSource({ command: `echo '{"accessToken":"from-command","expiresAt":"${soon}"}'`, env: {} }).load())!;
    assert.deepEqual({ t: (await c.token()).accessToken, at: (await c.token()).expiresAt }, { t: "from-command", at: Date.parse(soon) });
    const issued = await issueToken({ baseUrl: emu().url, ...USER });
    const r = (await commandSource({ command: `echo '{"refresh_token":"${issued.refreshToken}"}'`, baseUrl: emu().url, env: {} }).load())!;
    const set = await r.token();
    assert.equal(set.refreshToken, issued.refreshToken);
    assert.notEqual(set.accessToken, issued.accessToken);
  });

  it("command: a non-zero exit, a timeout or bad output is a CredentialProcessError", async () => {
    const fail = async (command: string, timeoutMs?: number) => _rejects((await commandSource({ command, env: {}, ...(timeoutMs ? { timeoutMs } : {}) }).load())!.token());
    const exit = await fail("exit 3");
    assert.ok(exit instanceof CredentialProcessError);
    assert.equal(exit.code, "credential_process");
    assert.match(exit.message, /code 3/);
    assert.match((await fail("echo not-json")).message, /did not print JSON/);
    assert.match((await fail(`echo '{"expiresAt":"soon"}'`)).message, /neither/);
    assert.equal((await fail(`echo '{"accessToken":"x","expiresAt":"soon"}'`)).field, "expiresAt");
    assert.match((await fail("sleep 5", 200)).message, /did not finish/);
    // Times past the largest date are refused, naming the field (they would break every later date).
    assert.equal((await fail(`echo '{"accessToken":"x","expiresAt":1e300}'`)).field, "expiresAt");
    assert.equal((await fail(`echo '{"accessToken":"x","expires_in":100000000000000}'`)).field, "expires_in");
  });

  it("command: gets only the environment it needs, never DNS_ACCOUNT_PASSWORD or PULUMI_ variables", async () => {
    const dir = tmp("dns-account-env-");
    const seen = path.join(dir, "env.txt");
    const secrets = { DNS_ACCOUNT_PASSWORD: "pw-lowercase-secret-9f8e", DNS_ACCOUNT_MFA_TOKEN: "123987", PULUMI_CONFIG: '{"dns-account:password":"cfg-secret-77aa"}', PULUMI_ACCESS_TOKEN: "pul-0a1b2c3d" };
    const env = {
      ...secrets,
      PATH: process.env.PATH,
      HOME: "/home/someone",
      LC_ALL: "C.UTF-8",
      DNS_ACCOUNT_PROFILE: "",
      VAULT_ADDR: "https://vault.example",
      UNRELATED_SECRET: "other-secret-5544",
      DNS_ACCOUNT_CREDENTIAL_COMMAND_ENV: "VAULT_ADDR, DNS_ACCOUNT_PASSWORD, PULUMI_CONFIG",
      DNS_ACCOUNT_CREDENTIAL_COMMAND: `env > ${JSON.stringify(seen)}; echo '{"accessToken":"cmd"}'`,
    };
    // In the default chain, a password without a username is an error, as for the provider (one resolution).
    const partial = await _rejects(resolveCredential(defaultCredentialChain({ env, store: new TokenStore({ dir: tmp("dns-account-empty-") }) })));
    assert.ok(partial instanceof NoCredentialsError);
    assert.match(partial.message, /A password needs a username \(DNS_ACCOUNT_USERNAME\)/);
    assert.ok(!partial.message.includes(secrets.DNS_ACCOUNT_PASSWORD));
    const credential = (await commandSource({ env }).load())!;
    assert.equal(credential.source, "command");
    assert.equal((await credential.token()).accessToken, "cmd");
    const passed = Object.fromEntries(readFileSync(seen, "utf8").trim().split("\n").map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
    for (const [name, value] of Object.entries(secrets)) {
      assert.equal(passed[name], undefined, name);
      assert.ok(!readFileSync(seen, "utf8").includes(value), `${name}'s value reached the command`);
    }
    assert.equal(passed.UNRELATED_SECRET, undefined);
    assert.equal(passed.DNS_ACCOUNT_CREDENTIAL_COMMAND, undefined);
    assert.equal(passed.PATH, process.env.PATH);
    assert.equal(passed.HOME, "/home/someone");
    assert.equal(passed.LC_ALL, "C.UTF-8");
    assert.equal(passed.DNS_ACCOUNT_PROFILE, "");
    assert.equal(passed.VAULT_ADDR, "https://vault.example", "named in DNS_ACCOUNT_CREDENTIAL_COMMAND_ENV");
  });

  for (const [what, script] of [
    ["a shell waiting for a long child", "wait"],
    ["a background job holding stdout after the shell exits", "exit 0"],
  ] as const) {
    it(`command: the timeout kills the whole process group (${what})`, async () => {
      const dir = tmp("dns-account-group-");
      const pidFile = path.join(dir, "pid");
      const realSetTimeout = setTimeout;
      const fake = sinon.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      try {
        const c = (await commandSource({ command: `sleep 300 & echo $! > ${JSON.stringify(pidFile)}.tmp; mv ${JSON.stringify(pidFile)}.tmp ${JSON.stringify(pidFile)}; ${script}`, env: { PATH: process.env.PATH }, timeoutMs: 2_000 }).load())!;
        const pending = _rejects(c.token());
        // Wait for the event (the grandchild exists), then let the deadline pass on the fake clock.
        while (!existsSync(pidFile)) await new Promise((r) => realSetTimeout(r, 10));
        const pid = Number(readFileSync(pidFile, "utf8"));
        await fake.tickAsync(2_000);
        const err = await pending;
        assert.ok(err instanceof CredentialProcessError);
        assert.match(err.message, /did not finish within 2000 ms/);
        // SIGKILL is delivered at once; the process is gone or a zombie waiting for init to reap it.
        const alive = (): boolean => {
          try {
            return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
          } catch {
            return false;
          }
        };
        while (alive()) await new Promise((r) => realSetTimeout(r, 10));
      } finally {
        fake.restore();
      }
    });
  }

  it("the chain: first match wins (options, environment, profile, command); nothing is a NoCredentialsError", async () => {
    await store.put("default", { baseUrl: emu().url, accessToken: "stored", expiresAt: Date.now() + 3600_000, expiresIn: 3600 });
    const env = { DNS_ACCOUNT_CREDENTIAL_COMMAND: `echo '{"accessToken":"cmd"}'` };
    const first = async (chain: Parameters<typeof defaultCredentialChain>[0]) => (await resolveCredential(defaultCredentialChain(chain))).source;
    assert.equal(await first({ credentials: { accessToken: "opt" }, env: { ...env, DNS_ACCOUNT_ACCESS_TOKEN: "e" }, store }), "options");
    assert.equal(await first({ env: { ...env, DNS_ACCOUNT_ACCESS_TOKEN: "e" }, store }), "environment");
    assert.equal(await first({ env, store }), "profile");
    // A profile named by DNS_ACCOUNT_PROFILE must exist, as one named by --profile (issue 18 §1).
    const named = await _rejects(resolveCredential(defaultCredentialChain({ env: { ...env, DNS_ACCOUNT_PROFILE: "other" }, store })));
    assert.ok(named instanceof NoCredentialsError);
    assert.match(named.message, /^No profile "other" in .*\(named by DNS_ACCOUNT_PROFILE\)/);
    const empty = new TokenStore({ dir: tmp("dns-account-none-") });
    assert.equal(await first({ env, store: empty }), "command", "no default profile: the command");
    const none = await _rejects(resolveCredential(defaultCredentialChain({ env: {}, store: empty })));
    assert.ok(none instanceof NoCredentialsError);
    assert.match(none.message, /tried: options, environment, profile, command/);
    // An explicit profile negates the environment and the command (as in botocore), and must exist.
    assert.equal(await first({ env: { ...env, DNS_ACCOUNT_ACCESS_TOKEN: "e" }, store, profile: "default" }), "profile");
    const missing = await _rejects(resolveCredential(defaultCredentialChain({ env: { ...env, DNS_ACCOUNT_ACCESS_TOKEN: "e" }, store, profile: "other" })));
    assert.ok(missing instanceof NoCredentialsError);
    assert.match(missing.message, /^No profile "other" in /);
  });
});
