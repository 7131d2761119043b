import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { type Client, createClient, issueToken } from "../../sdk";
import { _assertNoSecrets } from "../support/helpers";
import { _cli as cli, CLI, type Run } from "./_cli";

const ALICE = { username: "alice@example.com", password: "pw-CLIORIGIN-A-90b1c4" };
const BOB = { username: "bob@example.com", password: "pw-CLIORIGIN-B-3e7d25" };
const KEY_B = "key-CLIORIGIN-B-c81f0a46";

/**
 * Issue 22 §1 and §8 for the `dns-account` CLI: two emulators A and B, one account each, and a store
 * whose default profile is logged in at A. The environment comes before the profile (B's account is
 * listed, A hears nothing), and `DNS_ACCOUNT_BASE_URL` naming another origin than the profile or the
 * credential command is `base_url_conflict` naming both, with no token printed and no request made.
 */
describe("dns-account: one origin per secret, the environment before the profile", function () {
  this.timeout(120_000);
  let a: Emulator;
  let b: Emulator;
  let dashA: Client;
  let dashB: Client;
  let dir: string;
  let empty: string;
  const outputs: string[] = [];
  const secrets: string[] = [ALICE.password, BOB.password, KEY_B];

  before(async () => {
    a = await startEmulator({ users: [ALICE] });
    b = await startEmulator({ users: [BOB], apiKeys: [{ key: KEY_B, username: BOB.username }] });
    dashA = createClient({ baseUrl: a.url, credentials: ALICE });
    dashB = createClient({ baseUrl: b.url, apiKey: KEY_B });
    await dashA.dnsServers.create({ name: "Only at A" });
    await dashB.dnsServers.create({ name: "Only at B" });
    dir = mkdtempSync(path.join(os.tmpdir(), "dns-account-cliorigin-"));
    empty = mkdtempSync(path.join(os.tmpdir(), "dns-account-cliorigin-"));
    // The default profile, logged in at A, with a fresh access token (the fast path of `token` has it).
    const login = await cli(["login", "--username", ALICE.username, "--password-stdin"], { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: a.url }, ALICE.password);
    assert.equal(login.code, 0, login.stderr);
  });

  beforeEach(() => {
    a.resetStats();
    b.resetStats();
  });

  after(async () => {
    await dashA?.close();
    await dashB?.close();
    await a?.close();
    await b?.close();
    for (const d of [dir, empty]) if (d) rmSync(d, { recursive: true, force: true });
    _assertNoSecrets(outputs.join("\n"), secrets);
  });

  /** Runs the CLI; what it prints is searched for secrets after, but for the token `token` prints on purpose. */
  const run = async (args: string[], env: NodeJS.ProcessEnv): Promise<Run> => {
    const r = await cli(args, env);
    outputs.push(args[0] === "token" && r.code === 0 ? "" : r.stdout, r.stderr);
    return r;
  };
  const conflict = (r: Run, ...names: string[]) => {
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, "", "nothing printed: no token, no listing");
    assert.match(r.stderr, /^dns-account: base_url_conflict: /);
    for (const n of names) assert.ok(r.stderr.includes(n), `${n} in ${r.stderr}`);
    assert.equal(a.stats.requests, 0, "nothing reached A");
    assert.equal(b.stats.requests, 0, "nothing reached B");
  };

  it("the environment's credentials before the default profile: B's account, and A hears nothing (issue 22 §8)", async () => {
    const byKey = await run(["servers"], { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: b.url, DNS_ACCOUNT_API_KEY: KEY_B });
    assert.equal(byKey.code, 0, byKey.stderr);
    assert.match(byKey.stdout, /Only at B/);
    assert.doesNotMatch(byKey.stdout, /Only at A/);
    const issued = await issueToken({ baseUrl: b.url, ...BOB });
    secrets.push(issued.refreshToken, issued.accessToken);
    b.resetStats();
    const token = await run(["token", "--json"], { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: b.url, DNS_ACCOUNT_REFRESH_TOKEN: issued.refreshToken });
    assert.equal(token.code, 0, token.stderr);
    const printed = JSON.parse(token.stdout) as { baseUrl: string; source: string; accessToken: string };
    secrets.push(printed.accessToken);
    assert.equal(printed.source, "environment");
    assert.equal(printed.baseUrl, b.url);
    assert.equal(b.stats.refreshGrants, 1);
    assert.equal(a.stats.requests, 0, "nothing reached A");
  });

  it("DNS_ACCOUNT_BASE_URL and the default profile logged in elsewhere: base_url_conflict, for a listing and for token (its fast path too)", async () => {
    const env = { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: b.url };
    conflict(await run(["servers"], env), "DNS_ACCOUNT_BASE_URL", 'the profile "default" (the default profile)');
    conflict(await run(["token"], env), "DNS_ACCOUNT_BASE_URL", 'the profile "default"');
    conflict(await run(["exec-credential"], env), "DNS_ACCOUNT_BASE_URL", 'the profile "default"');
    conflict(await run(["servers"], { ...env, DNS_ACCOUNT_PROFILE: "default" }), "DNS_ACCOUNT_BASE_URL", 'the profile "default" (DNS_ACCOUNT_PROFILE)');
    // The same origin written another way is no conflict.
    const same = await run(["servers"], { ...env, DNS_ACCOUNT_BASE_URL: `${a.url}/` });
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stdout, /Only at A/);
    assert.equal(b.stats.requests, 0);
  });

  it("an explicit --profile sets the environment aside, DNS_ACCOUNT_BASE_URL included (as documented): A's account", async () => {
    const r = await run(["servers", "--profile", "default"], { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: b.url });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Only at A/);
    assert.equal(b.stats.requests, 0, "nothing reached B");
  });

  it("login: a refresh token or password from the environment goes to DNS_ACCOUNT_BASE_URL beside it, else the service's — never to --base-url or a profile's earlier URL elsewhere", async () => {
    const issued = await issueToken({ baseUrl: b.url, ...BOB });
    secrets.push(issued.refreshToken, issued.accessToken);
    b.resetStats();
    // The default profile is at A: re-logging it with B's token and no base URL beside the token.
    const adopt = await run(["login"], { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_REFRESH_TOKEN: issued.refreshToken });
    conflict(adopt, "the profile's base URL (default)", "DNS_ACCOUNT_REFRESH_TOKEN (with no base URL beside it");
    const flag = await run(["login", "--profile", "bob", "--base-url", a.url], { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: b.url, DNS_ACCOUNT_REFRESH_TOKEN: issued.refreshToken });
    conflict(flag, "--base-url", "DNS_ACCOUNT_REFRESH_TOKEN (with DNS_ACCOUNT_BASE_URL)");
    const password = await run(["login", "--profile", "bob", "--base-url", a.url], { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: b.url, DNS_ACCOUNT_USERNAME: BOB.username, DNS_ACCOUNT_PASSWORD: BOB.password });
    conflict(password, "--base-url", "DNS_ACCOUNT_PASSWORD (with DNS_ACCOUNT_BASE_URL)");
    // One source: the token and its base URL from the environment.
    const ok = await run(["login", "--profile", "bob", "--json"], { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: b.url, DNS_ACCOUNT_REFRESH_TOKEN: issued.refreshToken });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal((JSON.parse(ok.stdout) as { baseUrl: string }).baseUrl, b.url);
    assert.equal(a.stats.requests, 0, "nothing reached A");
  });

  it("a credential command printing its own baseUrl, and DNS_ACCOUNT_BASE_URL elsewhere: base_url_conflict", async () => {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} token --json`;
    // The command reads the store logged in at A, and prints A's base URL with the token.
    const env = { DNS_ACCOUNT_CONFIG_DIR: empty, DNS_ACCOUNT_BASE_URL: b.url, DNS_ACCOUNT_CREDENTIAL_COMMAND: `DNS_ACCOUNT_BASE_URL= DNS_ACCOUNT_CONFIG_DIR=${JSON.stringify(dir)} ${command}` };
    const r = await run(["servers"], env);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /^dns-account: base_url_conflict: /);
    for (const n of ["DNS_ACCOUNT_BASE_URL", "the credential command (DNS_ACCOUNT_CREDENTIAL_COMMAND), by the baseUrl it printed"]) assert.ok(r.stderr.includes(n), r.stderr);
    assert.equal(b.stats.requests, 0, "nothing reached B");
    // Without DNS_ACCOUNT_BASE_URL the command's token goes where the command says: A.
    const ok = await run(["servers"], { ...env, DNS_ACCOUNT_BASE_URL: "" });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /Only at A/);
  });
});
