import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { InvalidGrantError, issueToken, refreshToken } from "../../sdk";
import { fromEnvironment, resolveCredentials } from "../../sdk/credentials/resolve";
import { _assertNoSecrets, _rejects } from "../support/helpers";
import { _cli as cli } from "./_cli";
import { _useTempDirs } from "../support/temp";

const USER = { username: "chain@example.com", password: "pw-CHAIN-0c4e7a1b" };

/** The CLI's side of one credential chain (issue 18 §1), through the built `dns-account` bin. */
describe("dns-account: flags beat the environment, adopted tokens are forgotten, commands agree", function () {
  const tmp = _useTempDirs();
  this.timeout(60_000);
  let emu: Emulator;
  const stderrs: string[] = [];
  const fresh = () => ({ DNS_ACCOUNT_CONFIG_DIR: tmp("dns-account-chain-cli-"), DNS_ACCOUNT_BASE_URL: emu.url });
  const run = async (args: string[], env: NodeJS.ProcessEnv, input?: string) => {
    const r = await cli(args, env, input);
    stderrs.push(r.stderr);
    return r;
  };
  const stored = (dir: string) => JSON.parse(readFileSync(path.join(dir, "credentials.json"), "utf8")) as { profiles: Record<string, Record<string, unknown>> };

  before(async () => {
    emu = await startEmulator({ users: [USER] });
  });
  after(async () => {
    await emu?.close();
    _assertNoSecrets(stderrs.join("\n"), [USER.password, "key-CHAIN-5d0f2e8c"]);
  });

  it("--password-stdin is read even when DNS_ACCOUNT_PASSWORD is set", async () => {
    const env = { ...fresh(), DNS_ACCOUNT_PASSWORD: "wrong-password-in-env" };
    const r = await run(["login", "--username", USER.username, "--password-stdin"], env, USER.password);
    assert.equal(r.code, 0, r.stderr);
  });

  it("a refresh token in the environment does not turn a password login into an adoption", async () => {
    const other = await issueToken({ baseUrl: emu.url, ...USER });
    const env = { ...fresh(), DNS_ACCOUNT_REFRESH_TOKEN: other.refreshToken };
    const grants = emu.stats.passwordGrants;
    const r = await run(["login", "--username", USER.username, "--password-stdin"], env, USER.password);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(emu.stats.passwordGrants, grants + 1, "a password login");
    const profile = stored(env.DNS_ACCOUNT_CONFIG_DIR).profiles.default!;
    assert.notEqual(profile.refreshToken, other.refreshToken);
    assert.equal(profile.adopted, undefined);
  });

  it("logout forgets a refresh token that login adopted from the environment, and revokes one it minted", async () => {
    const theirs = await issueToken({ baseUrl: emu.url, ...USER });
    const env = fresh();
    assert.equal((await run(["login"], { ...env, DNS_ACCOUNT_REFRESH_TOKEN: theirs.refreshToken })).code, 0);
    assert.equal(stored(env.DNS_ACCOUNT_CONFIG_DIR).profiles.default!.adopted, true);
    const out = await run(["logout"], env);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /adopted .* not revoked/);
    assert.ok((await refreshToken({ baseUrl: emu.url, refreshToken: theirs.refreshToken })).accessToken, "the adopted token still works");

    assert.equal((await run(["login", "--username", USER.username, "--password-stdin"], env, USER.password)).code, 0);
    const mine = stored(env.DNS_ACCOUNT_CONFIG_DIR).profiles.default!.refreshToken as string;
    assert.match((await run(["logout"], env)).stderr, /Revoked and removed/);
    assert.ok((await _rejects(refreshToken({ baseUrl: emu.url, refreshToken: mine }))) instanceof InvalidGrantError, "the minted token is revoked");
  });

  it("a profile named by DNS_ACCOUNT_PROFILE that does not exist gets the precise message of --profile", async () => {
    const env = { ...fresh(), DNS_ACCOUNT_PROFILE: "nope" };
    for (const command of ["token", "env", "exec-credential"]) {
      const r = await run([command], env);
      assert.equal(r.code, 1, command);
      assert.match(r.stderr, /No profile "nope" in .*\(named by DNS_ACCOUNT_PROFILE\): run dns-account login --profile nope/, command);
    }
  });

  it("one resolution: the CLI refuses what the provider refuses (a password and a refresh token together, a password without a username)", async () => {
    const both = await run(["token"], { ...fresh(), DNS_ACCOUNT_USERNAME: USER.username, DNS_ACCOUNT_PASSWORD: USER.password, DNS_ACCOUNT_REFRESH_TOKEN: "r" });
    assert.equal(both.code, 1);
    assert.match(both.stderr, /Set either password or refreshToken \(DNS_ACCOUNT_PASSWORD or DNS_ACCOUNT_REFRESH_TOKEN\), not both/);
    const partial = await run(["env"], { ...fresh(), DNS_ACCOUNT_PASSWORD: USER.password });
    assert.equal(partial.code, 1);
    assert.match(partial.stderr, /A password needs a username \(DNS_ACCOUNT_USERNAME\)/);
    const provider = resolveCredentials([["environment", fromEnvironment({ DNS_ACCOUNT_USERNAME: USER.username, DNS_ACCOUNT_PASSWORD: USER.password, DNS_ACCOUNT_REFRESH_TOKEN: "r" })]]);
    assert.match((provider as { reason: string }).reason, /Set either password or refreshToken \(in environment\), not both/);
  });

  it("token and env agree on the active credential: an API key in the environment beats a stored profile", async () => {
    const env = fresh();
    assert.equal((await run(["login", "--username", USER.username, "--password-stdin"], env, USER.password)).code, 0);
    const key = emu.addApiKey(USER.username, "key-CHAIN-5d0f2e8c");
    const withKey = { ...env, DNS_ACCOUNT_API_KEY: key };
    const exported = JSON.parse((await run(["env", "--json"], withKey)).stdout) as Record<string, string>;
    assert.deepEqual(Object.keys(exported).sort(), ["DNS_ACCOUNT_API_KEY", "DNS_ACCOUNT_BASE_URL"]);
    const token = await run(["token"], withKey);
    assert.equal(token.code, 1, "no access token comes from an API key");
    assert.match(token.stderr, /API key/);
    assert.equal(token.stdout, "", "not the stored profile's token");
  });
});
