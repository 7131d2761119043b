import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { inspect } from "node:util";
import { request } from "undici";
import { type Emulator, startEmulator } from "../../emulator";
import { authorizeUrl, type CodeAuthorization, createClient, exchangeCode, parseCodeRedirect, sharedClient, resetSharedSessions } from "../../sdk";
import { _assertNoSecrets, _cleanEnv, _closeAll, _errorText, _rejects, _repoRoot } from "../support/helpers";
import { _useTempDirs } from "../support/temp";

const CLI = path.join(_repoRoot(), "dist", "cli", "main.js");

// Lowercase on purpose: a lowercase hex secret looks like the identifier-like words servers may echo.
const API_KEY = "0a1b2c3d4e5f60718293a4b5c6d7e8f9aabbccdd";
const WRONG_KEY = "ffeeddccbbaa99887766554433221100aabbccdd";
const PASSWORD = "pw-AUDIT-CODE-7c7c7c";

/** API keys, authorization codes and PKCE verifiers through every path that can show them. */
describe("leak audit: API keys, authorization codes and PKCE verifiers", function () {
  const tmp = _useTempDirs();
  this.timeout(60_000);
  let emu: Emulator;
  const captured: string[] = [];
  const secrets: string[] = [API_KEY, WRONG_KEY, PASSWORD];
  const collect = (text: string) => void captured.push(text);

  before(async () => {
    emu = await startEmulator({ users: [{ username: "audit-key@example.com", password: PASSWORD }], apiKeys: [{ key: API_KEY, username: "audit-key@example.com" }], log: collect });
  });
  after(async () => {
    await _closeAll(() => resetSharedSessions(), () => emu?.close());
  });

  it("API-key clients: errors of every kind, inspect and JSON", async () => {
    const client = createClient({ baseUrl: emu.url, apiKey: API_KEY, retry: { retries: 0 } });
    const shared = sharedClient({ baseUrl: emu.url, apiKey: API_KEY });
    try {
      await client.account.limits();
      collect(_errorText(await _rejects(client.devices.create({ name: "", device_type: "MAC", dns_server_id: API_KEY }))));
      emu.inject({ kind: "status", status: 500, path: "/oapi/v1/account", body: JSON.stringify({ error: API_KEY, error_code: API_KEY, message: API_KEY }) });
      collect(_errorText(await _rejects(client.account.limits())));
      collect(_errorText(await _rejects(client.request({ method: "POST", path: "/oauth_token", body: { api_key: API_KEY } }))));
      emu.inject({ kind: "status", status: 401, path: "/oapi/v1/account", body: JSON.stringify({ error: API_KEY, error_code: API_KEY }) });
      collect(_errorText(await _rejects(client.account.limits())));
      collect(_errorText(await _rejects(client.account.limits())));
      const wrong = createClient({ baseUrl: emu.url, apiKey: WRONG_KEY });
      collect(_errorText(await _rejects(wrong.dnsServers.list())));
      collect(_errorText(await _rejects(Promise.resolve().then(() => createClient({ baseUrl: emu.url, apiKey: `${API_KEY} x` })))));
      for (const value of [client, wrong, shared]) {
        collect(inspect(value, { depth: 8, showHidden: true }));
        collect(JSON.stringify(value) ?? "");
      }
      await wrong.close();
    } finally {
      await client.close();
    }
  });

  it("the code flow: authorize requests, redirects, exchanges and their failures", async () => {
    const redirectUri = "http://127.0.0.1:49154/callback";
    const clientId = "dns-account-cli";
    const form = new URLSearchParams({ username: "audit-key@example.com", password: PASSWORD, return_to: "/oapi/v1/oauth_authorize?x=1" });
    const login = await request(`${emu.url}/login`, { method: "POST", body: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
    await login.body.text();
    const cookie = String(login.headers["set-cookie"]).split(";")[0]!;
    const codeFor = async (auth: CodeAuthorization): Promise<string> => {
      const res = await request(auth.url, { headers: { cookie } });
      await res.body.text();
      const location = String(res.headers.location);
      const parsed = parseCodeRedirect(location, { state: auth.state });
      collect(inspect(parsed, { showHidden: false }));
      collect(JSON.stringify(parsed));
      return parsed.code;
    };
    const auth = authorizeUrl({ baseUrl: emu.url, responseType: "code", clientId, redirectUri });
    secrets.push(auth.codeVerifier);
    collect(inspect(auth, { depth: 5 }));
    collect(JSON.stringify(auth));
    collect(auth.url);
    const code = await codeFor(auth);
    secrets.push(code);
    const other = authorizeUrl({ responseType: "code", clientId, redirectUri }).codeVerifier;
    secrets.push(other);
    collect(_errorText(await _rejects(exchangeCode({ baseUrl: emu.url, code, codeVerifier: other, clientId, redirectUri }))));
    const auth2 = authorizeUrl({ baseUrl: emu.url, responseType: "code", clientId, redirectUri });
    secrets.push(auth2.codeVerifier);
    const code2 = await codeFor(auth2);
    secrets.push(code2);
    const tokens = await exchangeCode({ baseUrl: emu.url, code: code2, codeVerifier: auth2.codeVerifier, clientId, redirectUri });
    secrets.push(tokens.accessToken, tokens.refreshToken!);
    collect(_errorText(await _rejects(exchangeCode({ baseUrl: emu.url, code: code2, codeVerifier: auth2.codeVerifier, clientId, redirectUri }))));
    collect(_errorText(await _rejects(Promise.resolve().then(() => parseCodeRedirect(`${redirectUri}?code=${code}&state=${auth.codeVerifier}`, { state: "mine" })))));
    collect(_errorText(await _rejects(Promise.resolve().then(() => parseCodeRedirect(`${redirectUri}?error=${code}&state=s`, { state: "s" })))));
    collect(_errorText(await _rejects(Promise.resolve().then(() => authorizeUrl({ responseType: "code", clientId, redirectUri, codeVerifier: `${auth.codeVerifier}!` })))));
    emu.inject({ kind: "status", status: 400, path: "/oapi/v1/oauth_token", body: JSON.stringify({ error: code, error_description: auth.codeVerifier }) });
    collect(_errorText(await _rejects(exchangeCode({ baseUrl: emu.url, code, codeVerifier: auth.codeVerifier, clientId, redirectUri }))));
  });

  it("CLI: login --api-key-stdin (right and wrong keys), profiles, token and exec-credential with an API-key profile", async () => {
    const dir = tmp("dns-account-audit-key-");
    const run = (args: string[], input = "", extra: NodeJS.ProcessEnv = {}) =>
      new Promise<{ stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...args], { env: _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: emu.url, ...extra }) });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
        child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
        child.stdin.end(input);
        child.once("close", () => resolve({ stdout, stderr }));
      });
    for (const [args, input, extra] of [
      [["login", "--api-key-stdin", "--json"], `${API_KEY}\n`, {}],
      [["login", "--api-key-stdin", "--profile", "w"], WRONG_KEY, {}],
      [["profiles", "--json"], "", {}],
      [["profiles"], "", {}],
      [["token"], "", {}],
      [["exec-credential"], "", {}],
      [["token", "--profile", "absent"], "", { DNS_ACCOUNT_API_KEY: WRONG_KEY }],
    ] as [string[], string, NodeJS.ProcessEnv][]) {
      const r = await run(args, input, extra);
      collect(r.stdout);
      collect(r.stderr);
    }
  });

  it("zero hits for any secret in everything captured", () => {
    assert.ok(captured.length > 25, `${captured.length} captures`);
    _assertNoSecrets(captured.join("\n"), secrets);
  });
});
