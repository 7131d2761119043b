import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { inspect } from "node:util";
import { type Emulator, startEmulator } from "../../emulator";
import { startProviderHost } from "../support/engine/provider-host";
import {
  createClient,
  defaultCredentialChain,
  issueToken,
  refreshToken,
  resetSharedSessions,
  resolveCredential,
  revokeToken,
  Session,
  TokenStore,
} from "../../sdk";
import { _assertNoSecrets, _cleanEnv, _closeAll, _errorText, _rejects, _repoRoot } from "../support/helpers";
import { _installedProgram, _runInProgram, MOCKS_PRELUDE } from "../support/program";
import { _useTempDirs } from "../support/temp";

const PASSWORD = "pw-AUDIT-f00dfacec0ffee";
const MFA_PASSWORD = "pw-AUDIT-MFA-5eed5eed";
const MFA_CODE = "480213";
const CLI = path.join(_repoRoot(), "dist", "cli", "main.js");

/**
 * Every public path (SDK, client, session, store, CLI, provider lifecycle through the host, emulator
 * log) run with distinctive secrets; then everything captured is searched for them: zero hits.
 */
describe("leak audit across every public path", function () {
  const tmp = _useTempDirs();
  this.timeout(120_000);
  let emu: Emulator;
  const captured: string[] = [];
  const secrets: string[] = [PASSWORD, MFA_PASSWORD, MFA_CODE];
  const collect = (text: string) => void captured.push(text);

  before(async () => {
    emu = await startEmulator({
      users: [
        { username: "audit@example.com", password: PASSWORD },
        { username: "audit-mfa@example.com", password: MFA_PASSWORD, mfa: [MFA_CODE] },
      ],
      log: collect,
    });
  });

  after(async () => {
    await _closeAll(() => resetSharedSessions(), () => emu?.close());
  });

  it("SDK, session, client and store: errors, util.inspect, JSON, and anything written to stdout/stderr", async () => {
    const out = process.stdout.write.bind(process.stdout);
    const err = process.stderr.write.bind(process.stderr);
    const tee = (write: typeof out) => ((chunk: unknown, ...rest: unknown[]) => (collect(String(chunk)), (write as (...a: unknown[]) => boolean)(chunk, ...rest))) as typeof out;
    process.stdout.write = tee(out);
    process.stderr.write = tee(err);
    try {
      const base = { baseUrl: emu.url };
      const set = await issueToken({ ...base, username: "audit-mfa@example.com", password: MFA_PASSWORD, mfaToken: MFA_CODE });
      secrets.push(set.accessToken, set.refreshToken);
      for (const p of [
        issueToken({ ...base, username: "audit@example.com", password: `${PASSWORD}!` }),
        issueToken({ ...base, username: "audit-mfa@example.com", password: MFA_PASSWORD }),
        issueToken({ ...base, username: "audit-mfa@example.com", password: MFA_PASSWORD, mfaToken: MFA_CODE }),
        refreshToken({ ...base, refreshToken: `${set.refreshToken}x` }),
      ]) {
        collect(_errorText(await _rejects(p)));
      }
      const session = new Session({
        ...base,
        credentials: { username: "audit@example.com", password: PASSWORD },
        keepAlive: true,
        // Every token the session ever holds is a secret to look for.
        onTokens: (t) => void secrets.push(t.accessToken, ...(t.refreshToken ? [t.refreshToken] : [])),
      });
      const client = createClient({ ...base, session, retry: { retries: 1, baseDelayMs: 1 } });
      await client.account.limits();
      emu.inject({ kind: "status", status: 401, count: 2, path: "/oapi/v1/account", body: JSON.stringify({ error: session.tokens!.accessToken }) });
      collect(_errorText(await _rejects(client.account.limits())));
      collect(_errorText(await _rejects(client.devices.create({ name: "", device_type: "MAC", dns_server_id: session.tokens!.accessToken }))));
      emu.inject({ kind: "hang", path: "/oapi/v1/revoke_token" });
      collect(_errorText(await _rejects(revokeToken({ ...base, refreshToken: set.refreshToken, timeoutMs: 100 }))));
      const store = new TokenStore({ dir: tmp("dns-account-audit-") });
      await store.put("audit", { baseUrl: emu.url, refreshToken: set.refreshToken });
      const credential = await resolveCredential(defaultCredentialChain({ store, profile: "audit", env: {} }));
      await credential.token();
      for (const value of [session, client, store, credential, client.session]) {
        collect(inspect(value, { depth: 8, showHidden: true }));
        collect(JSON.stringify(value) ?? "");
      }
      session.close();
      await client.close();
    } finally {
      process.stdout.write = out;
      process.stderr.write = err;
    }
  });

  it("CLI: stderr of every command, and stdout of those that do not print a token by design", async () => {
    const dir = tmp("dns-account-audit-cli-");
    const run = (args: string[], env: NodeJS.ProcessEnv = {}, input = "") =>
      new Promise<{ stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...args], { env: _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: emu.url, ...env }) });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        child.stdin.end(input);
        child.once("close", () => resolve({ stdout, stderr }));
      });
    const steps: [string[], NodeJS.ProcessEnv, string, boolean][] = [
      [["login", "--username", "audit@example.com", "--password-stdin", "--json"], {}, `${PASSWORD}\n`, true],
      [["login", "--profile", "m"], { DNS_ACCOUNT_USERNAME: "audit-mfa@example.com", DNS_ACCOUNT_PASSWORD: MFA_PASSWORD }, "", true],
      [["login", "--profile", "w"], { DNS_ACCOUNT_USERNAME: "audit@example.com", DNS_ACCOUNT_PASSWORD: `${PASSWORD}?` }, "", true],
      [["token"], {}, "", false],
      [["exec-credential"], {}, "", false],
      [["env"], {}, "", false],
      [["profiles", "--json"], {}, "", true],
      [["token", "--profile", "absent"], { DNS_ACCOUNT_CREDENTIAL_COMMAND: `echo '{"refreshToken":"${PASSWORD}"}'` }, "", true],
      [["revoke"], {}, "", true],
    ];
    for (const [args, env, input, stdoutToo] of steps) {
      const r = await run(args, env, input);
      collect(r.stderr);
      if (stdoutToo) collect(r.stdout);
      else secrets.push(r.stdout.trim().replace(/^.*"token":"([^"]+)".*$/s, "$1").replace(/^export DNS_ACCOUNT_ACCESS_TOKEN='([^']+)'[\s\S]*$/, "$1"));
    }
  });

  it("provider: __provider text, host output, failure messages and unmarked outputs", async () => {
    const program = await _installedProgram();
    const { stdout } = await _runInProgram(
      "audit-serialize",
      `${MOCKS_PRELUDE}
const { Token } = require("pulumi-dns-account");
new Token("a", { username: "audit@example.com", password: process.env.P, mfaToken: process.env.M, refreshToken: undefined });
registered((r) => r.inputs.__provider).then((r) => console.log(JSON.stringify(r.inputs.__provider)));`,
      { P: PASSWORD, M: MFA_CODE },
    );
    const provider = JSON.parse(stdout) as string;
    collect(provider);
    const host = await startProviderHost({ programDir: program, env: _cleanEnv() });
    try {
      await host.configure({ "dns-account:baseUrl": emu.url, "dns-account:username": "audit@example.com", "dns-account:password": PASSWORD }, ["dns-account:password"]);
      const urn = "urn:pulumi:dev::audit::pulumi-nodejs:dynamic/dns-account:Token::a";
      const created = await host.create(urn, { __provider: provider });
      const { accessToken, refreshToken: rt, ...unmarked } = created.properties;
      secrets.push(accessToken as string, rt as string);
      collect(JSON.stringify(unmarked));
      const updated = await host.update(created.id, urn, created.properties, { __provider: provider });
      secrets.push(updated.properties.accessToken as string);
      collect(_errorText(await _rejects(host.create(urn, { __provider: provider, baseUrl: emu.url, username: "audit-mfa@example.com", password: MFA_PASSWORD }))));
      collect(_errorText(await _rejects(host.create(urn, { __provider: provider, baseUrl: emu.url, username: "audit-mfa@example.com", password: MFA_PASSWORD, mfaToken: "000000" }))));
      collect((await host.check(urn, {}, { __provider: provider, password: MFA_PASSWORD, refreshToken: MFA_CODE })).failures.map((f) => f.reason).join("\n"));
      await host.delete(created.id, urn, updated.properties);
      collect(host.output());
    } finally {
      await host.close();
    }
  });

  it("zero hits for any secret in everything captured", () => {
    assert.ok(captured.length > 40, `${captured.length} captures`);
    assert.ok(secrets.length >= 10, `${secrets.length} secrets`);
    _assertNoSecrets(captured.join("\n"), secrets.filter((s) => s.length >= 6));
  });
});
