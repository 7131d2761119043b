import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { request } from "undici";
import { type Emulator, startEmulator } from "../../emulator";
import { codeLogin } from "../../cli/code-login";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { _launchChromium, NO_CHROMIUM } from "../support/browser";
import { _assertNoSecrets, _cleanEnv, _closeAll, _errorText, _rejects, _repoRoot, _skipBecause } from "../support/helpers";
import { _useTempDirs } from "../support/temp";

const CLI = path.join(_repoRoot(), "dist", "cli", "main.js");

const PASSWORD = "pw-CODE-LOGIN-9b2e";

describe("codeLogin: Authorization Code + PKCE through a loopback listener (headless Chromium)", function () {
  const tmp = _useTempDirs();
  this.timeout(120_000);
  let browser: Browser;
  let emu: Emulator;

  before(async function () {
    const launched = await _launchChromium();
    if (!launched) _skipBecause(this, NO_CHROMIUM);
    browser = launched;
    emu = await startEmulator({ users: [{ username: "code@example.com", password: PASSWORD }] });
  });

  after(async () => {
    await _closeAll(() => browser?.close(), () => emu?.close());
  });

  it("ignores a forged callback, then completes with the real one: tokens include a refresh token", async () => {
    let resolveUrl!: (u: string) => void;
    const urlSeen = new Promise<string>((r) => (resolveUrl = r));
    const login = codeLogin({ baseUrl: emu.url, clientId: "dns-account-cli", open: false, onUrl: resolveUrl });
    const url = new URL(await urlSeen);
    assert.equal(url.searchParams.get("response_type"), "code");
    assert.equal(url.searchParams.get("code_challenge_method"), "S256");
    assert.match(url.searchParams.get("code_challenge")!, /^[\w-]{43}$/);
    assert.match(url.searchParams.get("state")!, /^[\w-]{22}$/);
    const callback = new URL(url.searchParams.get("redirect_uri")!);
    assert.equal(callback.hostname, "127.0.0.1");

    const forged = await fetch(`${callback.href}?code=attacker-code&state=forged`);
    assert.equal(forged.status, 400);
    const noState = await fetch(`${callback.href}?code=attacker-code`);
    assert.equal(noState.status, 400);
    const rebound = await request(`${callback.href}?code=x&state=${url.searchParams.get("state")}`, { headers: { host: "evil.example" } });
    await rebound.body.text();
    assert.equal(rebound.statusCode, 404, "a request for another host name (DNS rebinding) is not the callback");

    const page = await browser.newPage();
    await page.goto(url.href);
    await page.fill("#username", "code@example.com");
    await page.fill("#password", PASSWORD);
    await page.click("#submit");
    await page.waitForFunction(`document.getElementById("status")?.textContent?.startsWith("Logged in")`);
    const tokens = await login;
    assert.ok(tokens.refreshToken, "the code flow yields a refresh token");
    const api = await fetch(`${emu.url}/oapi/v1/account/limits`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
    assert.equal(api.status, 200);
    assert.equal(emu.stats.codeGrants, 1);
    await page.close();
  });

  it("opens the browser without the authorize URL in any process's arguments: a 0600 page that redirects", async () => {
    // $BROWSER is a recorder: it reports the arguments it was started with, as another local user would see them.
    const dir = tmp("dns-account-opener-");
    const recorder = path.join(dir, "recorder.js");
    writeFileSync(recorder, `fetch(process.env.RECORD_URL, { method: "POST", body: JSON.stringify(process.argv.slice(2)) });`);
    let received!: (argv: string[]) => void;
    const argvSeen = new Promise<string[]>((r) => (received = r));
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString()));
      req.on("end", () => {
        res.end();
        received(JSON.parse(body) as string[]);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const saved = { BROWSER: process.env.BROWSER, RECORD_URL: process.env.RECORD_URL };
    process.env.BROWSER = `${process.execPath} ${recorder}`;
    process.env.RECORD_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      let resolveUrl!: (u: string) => void;
      const urlSeen = new Promise<string>((r) => (resolveUrl = r));
      const login = codeLogin({ baseUrl: emu.url, clientId: "dns-account-cli", onUrl: resolveUrl });
      const url = new URL(await urlSeen);
      const argv = await argvSeen;
      const state = url.searchParams.get("state")!;
      const challenge = url.searchParams.get("code_challenge")!;
      assert.equal(argv.length, 1);
      _assertNoSecrets(argv.join(" "), [state, challenge, url.href]);
      const page = fileURLToPath(argv[0]!);
      assert.equal(statSync(page).mode & 0o777, 0o600, "the page is readable by its owner only");
      assert.equal(statSync(path.dirname(page)).mode & 0o777, 0o700, "in a folder of the owner's");
      assert.ok(readFileSync(page, "utf8").includes(url.href.replace(/&/g, "&amp;")), "the page redirects to the authorize URL");
      const tab = await browser.newPage();
      await tab.goto(argv[0]!);
      await tab.waitForSelector("#username");
      await tab.fill("#username", "code@example.com");
      await tab.fill("#password", PASSWORD);
      await tab.click("#submit");
      assert.ok((await login).refreshToken);
      assert.ok(!existsSync(path.dirname(page)), "the page is removed once the login ends");
      await tab.close();
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
      server.close();
    }
  });

  it("an error redirect with the right state ends the login, with no secret in the error", async () => {
    let resolveUrl!: (u: string) => void;
    const urlSeen = new Promise<string>((r) => (resolveUrl = r));
    const login = codeLogin({ baseUrl: emu.url, clientId: "dns-account-cli", open: false, onUrl: resolveUrl });
    const url = new URL(await urlSeen);
    const callback = url.searchParams.get("redirect_uri")!;
    const failed = _rejects(login);
    const res = await fetch(`${callback}?error=access_denied&state=${url.searchParams.get("state")}`);
    assert.equal(res.status, 400);
    const err = await failed;
    assert.equal(err.code, "authorization_failed");
    _assertNoSecrets(_errorText(err), [url.searchParams.get("code_challenge")!, PASSWORD]);
  });

  it("dns-account login --browser uses the code flow by default and stores the refresh token", async () => {
    const dir = tmp("dns-account-code-");
    const child = spawn(process.execPath, [CLI, "login", "--browser", "--client-id", "dns-account-cli", "--no-open", "--profile", "web"], {
      env: _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: emu.url }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const url = await new Promise<string>((resolve) =>
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
        const m = /^(http:\/\/\S+oauth_authorize\S+)$/m.exec(stderr);
        if (m) resolve(m[1]!);
      }),
    );
    const done = new Promise<number | null>((resolve) => child.once("close", resolve));
    assert.match(url, /response_type=code/);
    assert.match(url, /code_challenge_method=S256/);
    const page = await browser.newPage();
    await page.goto(url);
    await page.fill("#username", "code@example.com");
    await page.fill("#password", PASSWORD);
    await page.click("#submit");
    await page.waitForFunction(`document.getElementById("status")?.textContent?.startsWith("Logged in")`);
    assert.equal(await done, 0, stderr);
    const profile = (JSON.parse(readFileSync(path.join(dir, "credentials.json"), "utf8")) as { profiles: Record<string, Record<string, string>> }).profiles.web!;
    assert.ok(profile.refreshToken, "the code flow's refresh token is stored");
    assert.doesNotMatch(stderr, /no refresh token/);
    const token = await new Promise<string>((resolve) => {
      const t = spawn(process.execPath, [CLI, "token", "--profile", "web"], { env: _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: dir }) });
      let o = "";
      t.stdout.on("data", (d: Buffer) => (o += d.toString()));
      t.once("close", () => resolve(o.trim()));
    });
    assert.ok(token.length > 10);
    _assertNoSecrets(stderr + stdout, [PASSWORD, profile.refreshToken!, profile.accessToken!]);
    await page.close();
  });
});
