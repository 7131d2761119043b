import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Emulator, startEmulator } from "../../emulator";
import { InvalidGrantError, issueToken, refreshToken } from "../../sdk";
import { _assertNoSecrets, _closeAll, _rejects, _repoRoot, _waitForLine } from "../support/helpers";
import { _namedHost } from "../support/named-hosts";
import { CLI, _cli as cli, _hasScript as hasScript, _onTty as onTty } from "./_cli";
import { _useTempDirs } from "../support/temp";

const PASSWORD = "pw-CLI-LEAK-8d2b61f0";
const MFA_PASSWORD = "pw-CLIMFA-LEAK-2c7e90";

describe("dns-account CLI", function () {
  const tmp = _useTempDirs();
  this.timeout(60_000);
  let emu: Emulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const stderrs: string[] = [];
  const secrets: string[] = [PASSWORD, MFA_PASSWORD];
  const run = async (args: string[], extra: NodeJS.ProcessEnv = {}, input?: string) => {
    const r = await cli(args, { ...env, ...extra }, input);
    stderrs.push(r.stderr);
    return r;
  };
  const stored = () => JSON.parse(readFileSync(path.join(dir, "credentials.json"), "utf8")) as { profiles: Record<string, Record<string, unknown>> };

  before(async () => {
    emu = await startEmulator({
      users: [
        { username: "ops@example.com", password: PASSWORD },
        { username: "mfa@example.com", password: MFA_PASSWORD, mfa: true },
      ],
      allowedHosts: ["emulator"],
    });
    dir = tmp("dns-account-cli-");
    env = { DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: emu.url };
  });

  after(async () => {
    await _closeAll(() => _assertNoSecrets(stderrs.join("\n"), secrets), () => emu?.close());
  });

  it("--help for the program and every command (exit 0); usage errors exit 2", async () => {
    const main = await run(["--help"]);
    assert.equal(main.code, 0);
    for (const command of ["login", "token", "exec-credential", "env", "revoke", "logout", "profiles", "export", "emulator"]) {
      assert.match(main.stdout, new RegExp(`^  ${command} `, "m"));
      const help = await run([command, "--help"]);
      assert.equal(help.code, 0, command);
      assert.match(help.stdout, /^Usage: dns-account /);
      assert.match(help.stdout, new RegExp(`dns-account ${command} `));
    }
    assert.deepEqual(await run([]), main, "a bare call prints the usage");
    assert.deepEqual(await run(["help"]), main);
    assert.equal((await run(["help", "token"])).stdout, (await run(["token", "--help"])).stdout);
    for (const args of [["help", "nope"], ["nope"], ["token", "--bogus"], ["login", "stray-argument"], ["login", "--browser"], ["emulator", "--port", "x"]]) {
      const r = await run(args);
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.stderr, /^dns-account: usage: .+\n$/);
    }
    for (const flag of ["--version", "-v", "version"]) {
      assert.equal((await run([flag])).stdout.trim(), JSON.parse(readFileSync(path.join(_repoRoot(), "package.json"), "utf8")).version, flag);
    }
  });

  it("help points at the docs page and section that hold what it refers to, and each exists", async () => {
    const main = await run(["--help"]);
    const commands = [...main.stdout.matchAll(/^ {2}([a-z][\w-]*) /gm)].map((m) => m[1]!);
    assert.ok(commands.includes("export") && commands.length >= 10, main.stdout);
    const helps = [main, ...(await Promise.all(commands.map((c) => run([c, "--help"]))))].map((r, i) => ({ command: ["(main)", ...commands][i]!, text: r.stdout }));
    for (const { command, text } of helps) {
      // The README is an overview: the lists and details live in docs/*.md, and a help names that page.
      assert.doesNotMatch(text, /\bREADME\b/, `${command} --help refers to the README`);
      for (const [, page] of text.matchAll(/\b(docs\/[\w./-]+\.md)\b/g)) assert.ok(existsSync(path.join(_repoRoot(), page!)), `${command} --help: ${page} exists`);
      for (const [, section, page] of text.matchAll(/"([^"\n]+)" in (docs\/[\w./-]+\.md)/g)) {
        assert.ok(readFileSync(path.join(_repoRoot(), page!), "utf8").includes(section!), `${command} --help: "${section}" is in ${page}`);
      }
    }
    // What export leaves out is listed in docs/plugin.md, under the section its help names.
    assert.match(helps.find((h) => h.command === "export")!.text, /"What the resources do not manage" in docs\/plugin\.md/);
  });

  it("a password given as an argument is refused without echoing it", async () => {
    const r = await run(["login", `--password=${PASSWORD}`]);
    assert.equal(r.code, 2);
    assert.ok(!r.stderr.includes(PASSWORD));
    const positional = await run(["login", PASSWORD]);
    assert.equal(positional.code, 2);
    assert.ok(!positional.stderr.includes(PASSWORD));
  });

  it("login in a pipeline: reads DNS_ACCOUNT_*, stores base URL, username and tokens (0600), never the password", async () => {
    const r = await run(["login", "--json"], { DNS_ACCOUNT_USERNAME: "ops@example.com", DNS_ACCOUNT_PASSWORD: PASSWORD });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).profile, "default");
    const p = stored().profiles.default!;
    assert.equal(p.username, "ops@example.com");
    assert.equal(p.baseUrl, emu.url);
    assert.ok(p.refreshToken && p.accessToken);
    secrets.push(p.refreshToken as string, p.accessToken as string);
    assert.ok(!readFileSync(path.join(dir, "credentials.json"), "utf8").includes(PASSWORD));
    assert.equal(statSync(path.join(dir, "credentials.json")).mode & 0o777, 0o600);
  });

  it("login without a terminal and without a password fails clearly instead of prompting", async () => {
    const r = await run(["login", "--profile", "x", "--username", "ops@example.com"]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^dns-account: no_credentials: No terminal to ask for the password: set DNS_ACCOUNT_PASSWORD or pass --password-stdin\n$/);
  });

  it("login --password-stdin", async () => {
    const r = await run(["login", "--profile", "stdin", "--username", "ops@example.com", "--password-stdin"], {}, `${PASSWORD}\n`);
    assert.equal(r.code, 0, r.stderr);
    secrets.push(stored().profiles.stdin!.refreshToken as string, stored().profiles.stdin!.accessToken as string);
  });

  it("login for an MFA account: mfa_required in a pipeline, success with DNS_ACCOUNT_MFA_TOKEN", async () => {
    const missing = await run(["login", "--profile", "mfa"], { DNS_ACCOUNT_USERNAME: "mfa@example.com", DNS_ACCOUNT_PASSWORD: MFA_PASSWORD });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^dns-account: mfa_required: .*DNS_ACCOUNT_MFA_TOKEN.*--mfa/);
    const ok = await run(["login", "--profile", "mfa"], { DNS_ACCOUNT_USERNAME: "mfa@example.com", DNS_ACCOUNT_PASSWORD: MFA_PASSWORD, DNS_ACCOUNT_MFA_TOKEN: "314159" });
    assert.equal(ok.code, 0, ok.stderr);
    secrets.push(stored().profiles.mfa!.refreshToken as string, stored().profiles.mfa!.accessToken as string);
  });

  it("login on a terminal: asks for the password without echo, then for the MFA code the service wants", async function () {
    if (!hasScript()) {
      console.log("      skipped: script(1) is not available to provide a terminal");
      this.skip();
    }
    const r = await onTty(["login", "--profile", "tty", "--username", "mfa@example.com"], env, [
      [/Password: /, MFA_PASSWORD],
      [/Two-factor code: /, "271828"],
    ]);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /Logged in as mfa@example.com \(profile "tty"/);
    assert.ok(!r.stdout.includes(MFA_PASSWORD), "the password is not echoed");
    assert.ok(!r.stdout.includes("271828"), "the MFA code is not echoed");
    secrets.push(stored().profiles.tty!.refreshToken as string, stored().profiles.tty!.accessToken as string);
  });

  it("token prints a valid access token; --json adds expiry and source", async () => {
    const r = await run(["token"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), stored().profiles.default!.accessToken);
    const json = JSON.parse((await run(["token", "--json", "--profile", "stdin"])).stdout) as Record<string, unknown>;
    assert.equal(json.source, "profile");
    assert.equal(json.profile, "stdin");
    assert.ok(!Number.isNaN(Date.parse(json.expiresAt as string)));
  });

  it("token refreshes and persists an expired access token", async () => {
    const file = path.join(dir, "credentials.json");
    const data = stored();
    data.profiles.default!.expiresAt = Date.now() - 1000;
    writeFileSync(file, JSON.stringify(data), { mode: 0o600 });
    emu.resetStats();
    const r = await run(["token"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(emu.stats.refreshGrants, 1);
    assert.equal(stored().profiles.default!.accessToken, r.stdout.trim());
    assert.ok((stored().profiles.default!.expiresAt as number) > Date.now());
    secrets.push(r.stdout.trim());
  });

  it("exec-credential prints a client-go ExecCredential", async () => {
    const r = await run(["exec-credential"]);
    assert.equal(r.code, 0, r.stderr);
    const cred = JSON.parse(r.stdout) as { apiVersion: string; kind: string; status: { token: string; expirationTimestamp: string } };
    assert.equal(cred.apiVersion, "client.authentication.k8s.io/v1");
    assert.equal(cred.kind, "ExecCredential");
    assert.equal(cred.status.token, stored().profiles.default!.accessToken);
    assert.match(cred.status.expirationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("env prints export lines that a shell can eval", async () => {
    const r = await run(["env"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^export DNS_ACCOUNT_ACCESS_TOKEN='[^']+'\nexport DNS_ACCOUNT_BASE_URL='http:\/\/127\.0\.0\.1:\d+'\n$/);
    const echoed = execFileSync("bash", ["-c", `eval "$1"; printf %s "$DNS_ACCOUNT_ACCESS_TOKEN"`, "_", r.stdout]).toString();
    assert.equal(echoed, stored().profiles.default!.accessToken);
  });

  it("the environment wins over the profile, and a credential command comes last (its stderr passed through)", async () => {
    const fromEnv = await run(["token"], { DNS_ACCOUNT_ACCESS_TOKEN: "bare-env-token" });
    assert.equal(fromEnv.stdout.trim(), "bare-env-token");
    const command = `echo "helper says hi" >&2; echo '{"accessToken":"from-helper","expiresAt":"2099-01-01T00:00:00Z"}'`;
    const fromCommand = await run(["token", "--json"], { DNS_ACCOUNT_CONFIG_DIR: tmp("dns-account-none-"), DNS_ACCOUNT_CREDENTIAL_COMMAND: command });
    assert.equal(fromCommand.code, 0, fromCommand.stderr);
    assert.equal(JSON.parse(fromCommand.stdout).source, "command");
    assert.match(fromCommand.stderr, /helper says hi/);
    const noStore = { DNS_ACCOUNT_CONFIG_DIR: tmp("dns-account-none-") };
    const failing = await run(["token"], { ...noStore, DNS_ACCOUNT_CREDENTIAL_COMMAND: "exit 7" });
    assert.equal(failing.code, 1);
    assert.match(failing.stderr, /^dns-account: credential_process: The credential command exited with code 7\n$/);
    const none = await run(["token"], noStore);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^dns-account: no_credentials: No credentials found/);
  });

  it("a corrupt store is a clear error, never overwritten", async () => {
    const other = tmp("dns-account-cli-corrupt-");
    writeFileSync(path.join(other, "credentials.json"), "{ broken", { mode: 0o600 });
    const r = await run(["login"], { DNS_ACCOUNT_CONFIG_DIR: other, DNS_ACCOUNT_USERNAME: "ops@example.com", DNS_ACCOUNT_PASSWORD: PASSWORD });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^dns-account: store_corrupt: /);
    assert.equal(readFileSync(path.join(other, "credentials.json"), "utf8"), "{ broken");
  });

  it("profiles lists profiles without secrets", async () => {
    const r = await run(["profiles", "--json"]);
    const rows = JSON.parse(r.stdout) as { profile: string }[];
    assert.deepEqual(rows.map((x) => x.profile).sort(), ["default", "mfa", "stdin", "tty"].filter((p) => p !== "tty" || hasScript()));
    _assertNoSecrets(r.stdout, secrets);
  });

  it("revoke revokes the refresh token and removes the profile; logout of a missing profile succeeds", async () => {
    const refresh = stored().profiles.stdin!.refreshToken as string;
    const r = await run(["revoke", "--profile", "stdin"]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok((await _rejects(refreshToken({ baseUrl: emu.url, refreshToken: refresh }))) instanceof InvalidGrantError);
    assert.equal(stored().profiles.stdin, undefined);
    const again = await run(["logout", "--profile", "stdin", "--json"]);
    assert.equal(again.code, 0);
    assert.deepEqual(JSON.parse(again.stdout), { profile: "stdin", removed: false, revoked: false });
  });

  it("login again revokes the profile's previous refresh token", async () => {
    const before = stored().profiles.default!.refreshToken as string;
    const r = await run(["login"], { DNS_ACCOUNT_USERNAME: "ops@example.com", DNS_ACCOUNT_PASSWORD: PASSWORD });
    assert.equal(r.code, 0, r.stderr);
    secrets.push(stored().profiles.default!.refreshToken as string, stored().profiles.default!.accessToken as string);
    assert.ok((await _rejects(refreshToken({ baseUrl: emu.url, refreshToken: before }))) instanceof InvalidGrantError);
  });

  it("login adopts DNS_ACCOUNT_REFRESH_TOKEN when no password is given", async () => {
    const issued = await issueToken({ baseUrl: emu.url, username: "ops@example.com", password: PASSWORD });
    secrets.push(issued.refreshToken, issued.accessToken);
    const r = await run(["login", "--profile", "adopted"], { DNS_ACCOUNT_REFRESH_TOKEN: issued.refreshToken });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(stored().profiles.adopted!.refreshToken, issued.refreshToken);
    secrets.push(stored().profiles.adopted!.accessToken as string);
  });

  it("emulator starts the embedded emulator and stops on SIGTERM", async () => {
    const child = spawn(process.execPath, [CLI, "emulator", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    const url = await _waitForLine(child, /listening on (http:\/\/\S+)/);
    const set = await issueToken({ baseUrl: url, username: "user@example.com", password: "emulator-password" });
    assert.ok(set.accessToken);
    child.kill("SIGTERM");
    const code = await new Promise((r) => child.once("exit", r));
    assert.equal(code, 0);
  });

  it("an explicit --profile beats environment credentials; a missing profile is named", async () => {
    const mfa = stored().profiles.mfa!;
    const fromProfile = await run(["token", "--profile", "mfa"], { DNS_ACCOUNT_ACCESS_TOKEN: "bare-env-token" });
    assert.equal(fromProfile.code, 0, fromProfile.stderr);
    assert.equal(fromProfile.stdout.trim(), mfa.accessToken);
    // After eval "$(dns-account env)", exec-credential --profile X still answers X's token, with its expiry.
    const exported = { DNS_ACCOUNT_ACCESS_TOKEN: stored().profiles.default!.accessToken as string };
    const cred = await run(["exec-credential", "--profile", "mfa"], exported);
    const status = (JSON.parse(cred.stdout) as { status: { token: string; expirationTimestamp?: string } }).status;
    assert.equal(status.token, mfa.accessToken);
    assert.equal(status.expirationTimestamp, new Date(mfa.expiresAt as number).toISOString().replace(/\.\d{3}Z$/, "Z"));
    // An expired profile is refreshed from the profile, not replaced by the environment's token.
    const data = stored();
    data.profiles.mfa!.expiresAt = Date.now() - 1000;
    writeFileSync(path.join(dir, "credentials.json"), JSON.stringify(data), { mode: 0o600 });
    const refreshed = await run(["token", "--profile", "mfa"], exported);
    assert.equal(refreshed.code, 0, refreshed.stderr);
    assert.equal(refreshed.stdout.trim(), stored().profiles.mfa!.accessToken);
    assert.notEqual(refreshed.stdout.trim(), exported.DNS_ACCOUNT_ACCESS_TOKEN);
    secrets.push(refreshed.stdout.trim());
    for (const [args, extra] of [
      [["token", "--profile", "nope"], { DNS_ACCOUNT_ACCESS_TOKEN: "bare-env-token" }],
      [["exec-credential", "--profile", "nope"], { DNS_ACCOUNT_CREDENTIAL_COMMAND: `echo '{"accessToken":"from-helper"}'` }],
    ] as const) {
      const r = await run([...args], extra);
      assert.equal(r.code, 1, args.join(" "));
      assert.match(r.stderr, /^dns-account: no_credentials: No profile "nope" in .*: run dns-account login --profile nope\n$/);
      assert.ok(!r.stdout.includes("bare-env-token") && !r.stdout.includes("from-helper"));
    }
  });

  it("exec-credential answers in the apiVersion KUBERNETES_EXEC_INFO asks for (v1, v1beta1)", async () => {
    for (const apiVersion of ["client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"]) {
      const info = JSON.stringify({ kind: "ExecCredential", apiVersion, spec: { interactive: false } });
      const r = await run(["exec-credential"], { KUBERNETES_EXEC_INFO: info });
      assert.equal(r.code, 0, r.stderr);
      const cred = JSON.parse(r.stdout) as { apiVersion: string; kind: string; status: { token: string } };
      assert.equal(cred.apiVersion, apiVersion);
      assert.equal(cred.kind, "ExecCredential");
      assert.equal(cred.status.token, stored().profiles.default!.accessToken);
    }
    for (const info of ['{"apiVersion":"client.authentication.k8s.io/v2"}', "not json"]) {
      const r = await run(["exec-credential"], { KUBERNETES_EXEC_INFO: info });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^dns-account: invalid_config: KUBERNETES_EXEC_INFO /);
      assert.equal(r.stdout, "");
    }
  });

  it("token --json is valid credential-command output, with the base URL the command gave", async () => {
    const empty = tmp("dns-account-cli-empty-");
    const inner = `DNS_ACCOUNT_CONFIG_DIR='${dir}' '${process.execPath}' '${CLI}' token --json --profile mfa`;
    const r = await run(["token", "--json"], { DNS_ACCOUNT_CONFIG_DIR: empty, DNS_ACCOUNT_BASE_URL: undefined, DNS_ACCOUNT_CREDENTIAL_COMMAND: inner });
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.equal(json.source, "command");
    assert.equal(json.accessToken, stored().profiles.mfa!.accessToken);
    assert.equal(json.baseUrl, emu.url);
    assert.equal(json.expiresAt, new Date(stored().profiles.mfa!.expiresAt as number).toISOString());
    // A bare token of unknown lifetime has no expiresAt (null would not be valid credential-command output).
    const bare = JSON.parse((await run(["token", "--json"], { DNS_ACCOUNT_ACCESS_TOKEN: "bare-env-token" })).stdout) as Record<string, unknown>;
    assert.ok(!("expiresAt" in bare));
  });

  it("usage messages name what users type: --profile (not -p), --password-stdin for --password", async () => {
    const noValue = await run(["token", "--profile"]);
    assert.equal(noValue.code, 2);
    assert.match(noValue.stderr, /--profile/);
    assert.ok(!/-p\b/.test(noValue.stderr.replace("--profile", "")), noValue.stderr);
    for (const args of [["login", "--password"], ["login", "--password", PASSWORD], ["login", `--password=${PASSWORD}`]]) {
      const r = await run(args);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--password-stdin/);
    }
  });

  it("logout --local removes the profile without reaching the server and says the token was not revoked", async () => {
    const login = await run(["login", "--profile", "local"], { DNS_ACCOUNT_USERNAME: "ops@example.com", DNS_ACCOUNT_PASSWORD: PASSWORD });
    assert.equal(login.code, 0, login.stderr);
    const refresh = stored().profiles.local!.refreshToken as string;
    secrets.push(refresh, stored().profiles.local!.accessToken as string);
    emu.resetStats();
    const r = await run(["logout", "--local", "--profile", "local"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^Removed profile "local" locally; its refresh token was NOT revoked/);
    assert.equal(emu.stats.requests, 0);
    assert.equal(stored().profiles.local, undefined);
    assert.ok((await refreshToken({ baseUrl: emu.url, refreshToken: refresh })).accessToken);
  });

  it("--allow-insecure-http / DNS_ACCOUNT_ALLOW_INSECURE_HTTP: an emulator at http://emulator:8787 (docker-compose) is usable", async () => {
    // "emulator" resolves to 127.0.0.1 in the child only, as docker-compose's network would resolve it.
    const named = _namedHost(emu.url);
    const other = tmp("dns-account-cli-insecure-");
    const base = { ...named.env, DNS_ACCOUNT_CONFIG_DIR: other, DNS_ACCOUNT_BASE_URL: named.url };
    const calls = emu.stats.tokenCalls;
    {
      const creds = { DNS_ACCOUNT_USERNAME: "ops@example.com", DNS_ACCOUNT_PASSWORD: PASSWORD };
      const refused = await run(["login"], { ...base, ...creds });
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /^dns-account: invalid_config: .*--allow-insecure-http/);
      const ok = await run(["login", "--allow-insecure-http"], { ...base, ...creds });
      assert.equal(ok.code, 0, ok.stderr);
      const data = JSON.parse(readFileSync(path.join(other, "credentials.json"), "utf8")) as { profiles: Record<string, Record<string, unknown>> };
      assert.equal(data.profiles.default!.baseUrl, named.url);
      secrets.push(data.profiles.default!.refreshToken as string, data.profiles.default!.accessToken as string);
      data.profiles.default!.expiresAt = Date.now() - 1000;
      writeFileSync(path.join(other, "credentials.json"), JSON.stringify(data), { mode: 0o600 });
      assert.equal((await run(["token"], base)).code, 1, "refreshing over http:// needs the opt-in too");
      const refreshed = await run(["token"], { ...base, DNS_ACCOUNT_ALLOW_INSECURE_HTTP: "1" });
      assert.equal(refreshed.code, 0, refreshed.stderr);
      secrets.push(refreshed.stdout.trim());
      assert.equal(emu.stats.tokenCalls, calls + 2, "the login and the refresh reached the emulator by its name");
    }
  });
});
