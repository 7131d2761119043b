import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { type Emulator, startEmulator } from "../../emulator";
import { browserLogin } from "../../cli/browser-login";
import { _launchChromium, NO_CHROMIUM } from "../support/browser";
import { _assertNoSecrets, _cleanEnv, _closeAll, _rejects, _repoRoot, _skipBecause } from "../support/helpers";
import { _useTempDirs } from "../support/temp";

const CLI = path.join(_repoRoot(), "dist", "cli", "main.js");
const PASSWORD = "pw-BROWSER-LEAK-6f1a";

/** Starts `dns-account login --browser --no-open` and resolves the authorize URL it prints. */
function startLogin(
  dir: string,
  emu: Emulator,
  flow: "code" | "implicit" = "implicit",
): { child: ChildProcess; url: Promise<string>; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [CLI, "login", "--browser", "--flow", flow, "--client-id", "dns-account-cli", "--no-open", "--profile", "web"], {
    env: _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: emu.url }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  const url = new Promise<string>((resolve) => {
    child.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString();
      const m = /^(http:\/\/\S+oauth_authorize\S+)$/m.exec(stderr);
      if (m) resolve(m[1]!);
    });
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
  return { child, url, done };
}

describe("dns-account login --browser (headless Chromium)", function () {
  const tmp = _useTempDirs();
  this.timeout(120_000);
  let browser: Browser;
  let emu: Emulator;

  before(async function () {
    const launched = await _launchChromium();
    if (!launched) _skipBecause(this, NO_CHROMIUM);
    browser = launched;
    emu = await startEmulator({ users: [{ username: "web@example.com", password: PASSWORD }] });
  });

  after(async () => {
    await _closeAll(() => browser?.close(), () => emu?.close());
  });

  it("logs in through the emulator's login page and stores the access token (no refresh token)", async () => {
    const dir = tmp("dns-account-web-");
    const login = startLogin(dir, emu);
    const url = await login.url;
    assert.match(url, /response_type=token/);
    assert.match(url, /state=[\w-]{16,}/);
    assert.match(decodeURIComponent(url), /redirect_uri=http:\/\/127\.0\.0\.1:\d+\/callback/);
    const page = await browser.newPage();
    await page.goto(url);
    assert.match(page.url(), /\/login\?return_to=/, "no session yet: the emulator sends the browser to its login page");
    await page.fill("#username", "web@example.com");
    await page.fill("#password", PASSWORD);
    await page.click("#submit");
    await page.waitForFunction(`document.getElementById("status")?.textContent?.startsWith("Logged in")`);
    assert.ok(!page.url().includes("#"), "the callback page drops the token from the address bar");
    const result = await login.done;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /no refresh token/);
    const profile = (JSON.parse(readFileSync(path.join(dir, "credentials.json"), "utf8")) as { profiles: Record<string, Record<string, unknown>> }).profiles.web!;
    assert.ok(profile.accessToken);
    assert.equal(profile.refreshToken, undefined);
    const api = await fetch(`${emu.url}/oapi/v1/account/limits`, { headers: { authorization: `Bearer ${profile.accessToken as string}` } });
    assert.equal(api.status, 200);
    _assertNoSecrets(result.stderr + result.stdout, [PASSWORD, profile.accessToken as string]);
    await page.close();
  });

  it("ignores a redirect with a forged state and completes with the real one", async () => {
    const dir = tmp("dns-account-web-");
    const login = startLogin(dir, emu);
    const url = await login.url;
    const callback = new URL(new URL(url).searchParams.get("redirect_uri")!);
    const page = await browser.newPage();
    await page.goto(`${callback.href}#access_token=attacker-token-123&token_type=Bearer&expires_in=3600&state=forged`);
    await page.waitForFunction(`document.getElementById("status")?.textContent?.startsWith("Ignored")`);
    assert.equal(login.child.exitCode, null, "the login keeps waiting");
    await page.goto(url);
    await page.fill("#username", "web@example.com");
    await page.fill("#password", PASSWORD);
    await page.click("#submit");
    await page.waitForFunction(`document.getElementById("status")?.textContent?.startsWith("Logged in")`);
    const result = await login.done;
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!result.stderr.includes("attacker-token-123"));
    const profile = (JSON.parse(readFileSync(path.join(dir, "credentials.json"), "utf8")) as { profiles: Record<string, Record<string, unknown>> }).profiles.web!;
    assert.ok(profile.accessToken && profile.accessToken !== "attacker-token-123");
    await page.close();
  });

  it("refuses a completion posted from another origin", async () => {
    const dir = tmp("dns-account-web-");
    const login = startLogin(dir, emu);
    const callback = new URL(new URL(await login.url).searchParams.get("redirect_uri")!);
    const res = await fetch(new URL("/complete", callback), { method: "POST", headers: { origin: "https://evil.example" }, body: "x" });
    assert.equal(res.status, 403);
    login.child.kill("SIGTERM");
    await login.done;
  });
});

describe("browserLogin: only a redirect carrying the login's own state ends it", () => {
  const start = () => {
    let shown!: (url: string) => void;
    const url = new Promise<string>((r) => (shown = r));
    const done = browserLogin({ baseUrl: "http://127.0.0.1:9", clientId: "dns-account-cli", open: false, onUrl: (u) => shown(u), timeoutMs: 60_000 });
    return { url, done };
  };
  const settled = (p: Promise<unknown>) =>
    Promise.race([p.then(() => "settled", () => "settled"), new Promise((r) => setImmediate(() => r("pending")))]);

  it("ignores wrong, missing and malformed posts from local processes, then accepts the right one", async () => {
    const { url, done } = start();
    const authorize = new URL(await url);
    const callback = new URL(authorize.searchParams.get("redirect_uri")!);
    const state = authorize.searchParams.get("state")!;
    const post = (body: string) => fetch(new URL("/complete", callback), { method: "POST", headers: { origin: callback.origin }, body });
    for (const body of [
      `${callback.href}#access_token=attacker-token-123&token_type=Bearer&expires_in=3600&state=forged`,
      `${callback.href}#access_token=attacker-token-123&token_type=Bearer&expires_in=3600`,
      `${callback.href}#error=access_denied&state=forged`,
      "not a url",
      "x".repeat(70 * 1024),
    ]) {
      const res = await post(body);
      assert.ok(res.status === 400 || res.status === 413, String(res.status));
      assert.match(await res.text(), /^Ignored/);
      assert.equal(await settled(done), "pending", "a wrong post ended the login");
    }
    const ok = await post(`${callback.href}#access_token=the-real-one&token_type=Bearer&expires_in=3600&state=${encodeURIComponent(state)}`);
    assert.equal(ok.status, 200);
    assert.equal((await done).accessToken, "the-real-one");
  });

  it("a redirect with the right state and error= still fails the login", async () => {
    const { url, done } = start();
    const authorize = new URL(await url);
    const callback = new URL(authorize.searchParams.get("redirect_uri")!);
    const state = authorize.searchParams.get("state")!;
    const failed = _rejects(done);
    await fetch(new URL("/complete", callback), { method: "POST", headers: { origin: callback.origin }, body: `${callback.href}#error=access_denied&state=${encodeURIComponent(state)}` });
    assert.equal((await failed).code, "authorization_failed");
  });
});
