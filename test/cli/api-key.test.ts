import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { _assertNoSecrets, _cleanEnv, _repoRoot } from "../support/helpers";
import { _hasScript, _onTty } from "./_cli";
import { _useTempDirs } from "../support/temp";

const CLI = path.join(_repoRoot(), "dist", "cli", "main.js");
const KEY = "cli-api-key-5e5e5e5e5e5e5e5e5e5e";

function cli(args: string[], env: NodeJS.ProcessEnv, input = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: _cleanEnv(env), stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(input);
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

describe("dns-account with an API key", function () {
  const tmp = _useTempDirs();
  this.timeout(60_000);
  let emu: Emulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    emu = await startEmulator({ apiKeys: [{ key: KEY, username: "user@example.com" }] });
  });
  beforeEach(() => {
    dir = tmp("dns-account-apikey-");
    env = { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: emu.url };
  });
  after(() => emu?.close());

  it("login --api-key-stdin checks the key with one API call and stores it in the profile (no token call)", async () => {
    emu.resetStats();
    const r = await cli(["login", "--api-key-stdin", "--profile", "ci", "--json"], env, `${KEY}\n`);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { profile: "ci", baseUrl: emu.url, apiKey: true });
    assert.equal(emu.stats.tokenCalls, 0);
    assert.equal(emu.stats.apiKeyCalls, 1);
    const stored = (JSON.parse(readFileSync(path.join(dir, "credentials.json"), "utf8")) as { profiles: Record<string, Record<string, unknown>> }).profiles.ci!;
    assert.equal(stored.apiKey, KEY);
    assert.equal(stored.refreshToken, undefined);
    const profiles = await cli(["profiles", "--json"], env);
    _assertNoSecrets(profiles.stdout + profiles.stderr + r.stdout + r.stderr, [KEY]);
    assert.match(profiles.stdout, /"ci"/);
  });

  it("a wrong key is refused (invalid_api_key), nothing is stored, the key is never printed", async () => {
    const wrong = "wrong-api-key-0000000000000000";
    const r = await cli(["login", "--api-key-stdin", "--profile", "bad"], env, wrong);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^dns-account: invalid_api_key: /m);
    _assertNoSecrets(r.stdout + r.stderr, [wrong]);
    assert.equal(existsSync(path.join(dir, "credentials.json")), false);
    const empty = await cli(["login", "--api-key-stdin"], env, "");
    assert.notEqual(empty.code, 0);
  });

  it("DNS_ACCOUNT_API_KEY and an API-key profile: env exports the key, token explains there is no token", async () => {
    await cli(["login", "--api-key-stdin", "--profile", "ci"], env, KEY);
    const exported = await cli(["env", "--profile", "ci"], env);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, new RegExp(`^export DNS_ACCOUNT_API_KEY='${KEY}'$`, "m"));
    const token = await cli(["token", "--profile", "ci"], env);
    assert.equal(token.code, 1);
    assert.match(token.stderr, /API key/);
    _assertNoSecrets(token.stderr + exported.stderr, [KEY]);
    const fromEnv = await cli(["env"], { ...env, DNS_ACCOUNT_API_KEY: KEY });
    assert.match(fromEnv.stdout, /^export DNS_ACCOUNT_API_KEY=/m);
  });

  it("with DNS_ACCOUNT_API_KEY set, token and exec-credential decide the same way whether the stored token is fresh or stale", async () => {
    const login = await cli(["login", "--password-stdin"], { ...env, DNS_ACCOUNT_USERNAME: "user@example.com" }, "emulator-password");
    assert.equal(login.code, 0, login.stderr);
    const file = path.join(dir, "credentials.json");
    const store = JSON.parse(readFileSync(file, "utf8")) as { profiles: { default: { expiresAt: number } } };
    const withKey = { ...env, DNS_ACCOUNT_API_KEY: KEY };
    const outcomes: string[] = [];
    for (const expiresAt of [store.profiles.default.expiresAt, Date.now() - 1000]) {
      store.profiles.default.expiresAt = expiresAt;
      writeFileSync(file, JSON.stringify(store), { mode: 0o600 });
      for (const command of ["token", "exec-credential"]) {
        const r = await cli([command], withKey);
        outcomes.push(`${command}: ${r.code} ${r.stderr.split(":").slice(0, 2).join(":")}`);
        assert.equal(r.code, 1, `${command} (${expiresAt > Date.now() ? "fresh" : "stale"})`);
        assert.match(r.stderr, /invalid_config: The environment \(DNS_ACCOUNT_API_KEY\) holds an API key/);
        _assertNoSecrets(r.stdout + r.stderr, [KEY]);
        // Naming the profile sets the environment aside, on both paths.
        const named = await cli([command, "--profile", "default"], withKey);
        assert.equal(named.code, 0, named.stderr);
      }
    }
    assert.equal(new Set(outcomes).size, 2, "the same answer for a fresh and a stale stored token");
  });

  it("login --api-key-stdin at a terminal asks for the key without echoing it", async function () {
    if (!_hasScript()) {
      console.log("      skipped: no script(1) for a pseudo-terminal");
      this.skip();
    }
    const r = await _onTty(["login", "--api-key-stdin", "--profile", "tty"], env, [[/API key: /, KEY]]);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /API key: /);
    _assertNoSecrets(r.stdout, [KEY]);
    assert.equal((JSON.parse(readFileSync(path.join(dir, "credentials.json"), "utf8")) as { profiles: Record<string, { apiKey?: string }> }).profiles.tty!.apiKey, KEY);
  });

  it("logout of an API-key profile says the key stays valid until deleted in the dashboard", async () => {
    await cli(["login", "--api-key-stdin", "--profile", "ci"], env, KEY);
    const r = await cli(["logout", "--profile", "ci"], env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^Removed profile "ci"\. The API key itself stays valid until it is deleted in the dashboard\.$/m);
  });
});
