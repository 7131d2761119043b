import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import sinon from "sinon";
import { defaultStoreDir, issueToken, revokeToken, StoreError, TokenStore } from "../../../sdk";
import { _cleanEnv, _rejects, _repoRoot, _useEmulator, USER } from "../../support/helpers";
import { _useTempDirs } from "../../support/temp";


describe("TokenStore", () => {
  const made = _useTempDirs();
  const tmp = () => made("dns-account-store-");
  const emu = _useEmulator({ tokenLifetimeSeconds: 3600 });

  it("lives in DNS_ACCOUNT_CONFIG_DIR, $XDG_CONFIG_HOME/dns-account or the platform's config folder", () => {
    assert.equal(defaultStoreDir({ DNS_ACCOUNT_CONFIG_DIR: "/x", XDG_CONFIG_HOME: "/y" }, "linux", "/home/u"), "/x");
    assert.equal(defaultStoreDir({ XDG_CONFIG_HOME: "/y" }, "linux", "/home/u"), "/y/dns-account");
    assert.equal(defaultStoreDir({}, "linux", "/home/u"), "/home/u/.config/dns-account");
    assert.equal(defaultStoreDir({}, "darwin", "/Users/u"), "/Users/u/Library/Application Support/dns-account");
    assert.equal(defaultStoreDir({ APPDATA: "C:\\AppData" }, "win32", "C:\\u"), path.join("C:\\AppData", "dns-account"));
  });

  it("writes profiles with mode 0600 in a 0700 folder, never a password", async () => {
    const dir = path.join(tmp(), "nested");
    const store = new TokenStore({ dir });
    await store.put("default", { baseUrl: emu().url, username: USER.username, refreshToken: "r1", accessToken: "a1", expiresAt: 1, expiresIn: 60 });
    assert.equal(statSync(store.file).mode & 0o777, 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal((await store.profile("default"))?.refreshToken, "r1");
    assert.deepEqual(await store.profiles(), ["default"]);
    await store.put("default", undefined);
    assert.deepEqual(await store.profiles(), []);
  });

  it("refuses a corrupt store with a clear error and never overwrites it", async () => {
    const store = new TokenStore({ dir: tmp() });
    await store.put("a", { baseUrl: "https://x.example" });
    writeFileSync(store.file, "{ not json", { mode: 0o600 });
    const err = await _rejects(store.put("b", { baseUrl: "https://y.example" }));
    assert.ok(err instanceof StoreError);
    assert.equal(err.code, "store_corrupt");
    assert.equal(readFileSync(store.file, "utf8"), "{ not json");
    writeFileSync(store.file, JSON.stringify({ version: 1, profiles: { a: { baseUrl: 5 } } }), { mode: 0o600 });
    const shape = await _rejects(store.read());
    assert.equal(shape.code, "store_corrupt");
    assert.equal(shape.field, "profiles.a.baseUrl");
  });

  it("refuses a store other users can read", async () => {
    const store = new TokenStore({ dir: tmp() });
    await store.put("a", { baseUrl: "https://x.example" });
    chmodSync(store.file, 0o644);
    const err = await _rejects(store.read());
    assert.equal(err.code, "store_permissions");
    assert.match(err.message, /chmod 600/);
  });

  it("refuses a store owned by another user", async function () {
    if (process.getuid?.() !== 0) {
      console.log("      skipped: needs root to give the file to another user");
      this.skip();
    }
    const store = new TokenStore({ dir: tmp() });
    await store.put("a", { baseUrl: "https://x.example" });
    chownSync(store.file, 65534, 65534);
    assert.equal((await _rejects(store.read())).code, "store_foreign_owner");
  });

  it("writes atomically: readers never see a partial file, and a writer killed mid-write leaves a whole one", async function () {
    this.timeout(120_000);
    const dir = tmp();
    const store = new TokenStore({ dir });
    await store.put("p", { baseUrl: "https://old.example" });
    // The writer says "writing i" before each put and "wrote i" after it: the test counts these events
    // instead of giving the writer a window of time, so a slow machine only makes it slower.
    const writer = `const { TokenStore } = require(${JSON.stringify(path.join(_repoRoot(), "dist", "sdk"))});
      const s = new TokenStore({ dir: ${JSON.stringify(dir)} });
      (async () => { for (let i = 0; ; i++) { process.stdout.write("writing " + i + "\\n"); await s.put("p", { baseUrl: "https://new.example/" + i, username: "x".repeat(4 * 1024 * 1024) }); process.stdout.write("wrote " + i + "\\n"); } })();`;
    let reads = 0;
    for (let round = 0; round < 6; round++) {
      const child = spawn(process.execPath, ["-e", writer], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      let wrote = false;
      // Kill as soon as the writer starts a put after a completed one: mid-write (or mid-lock).
      const exited = new Promise((r) => child.once("exit", r));
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (!wrote && /^wrote \d+\nwriting \d+$/m.test(out)) {
          wrote = true;
          child.kill("SIGKILL");
        }
      });
      // Meanwhile, read the file as another process would, until the writer is gone: every snapshot is whole.
      let gone = false;
      void exited.then(() => (gone = true));
      while (!gone) {
        const text = readFileSync(store.file, "utf8");
        assert.doesNotThrow(() => JSON.parse(text), "a reader saw a partly written store");
        reads++;
        await new Promise((r) => setImmediate(r));
      }
      assert.ok(wrote, "the writer completed a put and was killed in the next one");
      // The killed writer's lock would go stale after 10 s; drop it now so the next round writes at once.
      rmSync(`${store.file}.lock`, { recursive: true, force: true });
      const data = JSON.parse(readFileSync(store.file, "utf8")) as { profiles: { p: { baseUrl: string } } };
      assert.match(data.profiles.p.baseUrl, /^https:\/\/new\.example\/\d+$/);
      assert.deepEqual(await store.profiles(), ["p"]);
    }
    assert.ok(reads > 0);
  });

  it("resolves its options once: refreshes after the first reuse the retry policy and transport it resolved (issue 26 §2)", async () => {
    const resolve = require("../../../sdk/config/resolve") as typeof import("../../../sdk/config/resolve");
    let now = Date.now();
    const clock = { now: () => now };
    const options = { dir: tmp(), clock, retry: { retries: 1 } };
    const store = new TokenStore(options);
    const issued = await issueToken({ baseUrl: emu().url, ...USER, clock });
    await store.put("p", { baseUrl: emu().url, refreshToken: issued.refreshToken, accessToken: issued.accessToken, expiresAt: issued.expiresAt, expiresIn: issued.expiresIn });
    const spy = sinon.spy(resolve, "resolveRetryConfig");
    try {
      options.retry.retries = -1; // the caller's object changing later changes nothing: it was read once
      for (let i = 0; i < 3; i++) {
        now += 3600_000;
        await store.accessToken("p");
      }
      assert.equal(spy.callCount, 1);
      assert.equal(spy.firstCall.args[0]?.retries, 1);
    } finally {
      spy.restore();
    }
    // A bad retry option still fails the first refresh (not the constructor), naming the field.
    const bad = new TokenStore({ dir: tmp(), clock, retry: { retries: -1 } });
    await bad.put("q", { baseUrl: emu().url, refreshToken: issued.refreshToken, accessToken: issued.accessToken, expiresAt: 0, expiresIn: 1 });
    const err = await _rejects(bad.accessToken("q"));
    assert.equal(err.code, "invalid_config");
    assert.equal((err as { field?: string }).field, "retry.retries");
  });

  it("accessToken(): a fresh token without a call; an expired one refreshed once and persisted", async () => {
    let now = Date.now();
    const clock = { now: () => now };
    const store = new TokenStore({ dir: tmp(), clock });
    const issued = await issueToken({ baseUrl: emu().url, ...USER, clock });
    await store.put("p", { baseUrl: emu().url, refreshToken: issued.refreshToken, accessToken: issued.accessToken, expiresAt: issued.expiresAt, expiresIn: issued.expiresIn });
    emu().resetStats();
    assert.equal((await store.accessToken("p")).accessToken, issued.accessToken);
    assert.equal(emu().stats.tokenCalls, 0);
    now += 3600_000;
    const next = await store.accessToken("p");
    assert.notEqual(next.accessToken, issued.accessToken);
    assert.equal((await store.profile("p"))?.accessToken, next.accessToken);
    assert.equal((await store.accessToken("p")).accessToken, next.accessToken);
    assert.equal(emu().stats.tokenCalls, 1);
    assert.equal((await _rejects(store.accessToken("missing"))).code, "no_credentials");
  });

  it("ten processes that find an expired access token at once cause one token call", async function () {
    this.timeout(60_000);
    const dir = tmp();
    const store = new TokenStore({ dir });
    const issued = await issueToken({ baseUrl: emu().url, ...USER });
    await store.put("default", { baseUrl: emu().url, refreshToken: issued.refreshToken, accessToken: issued.accessToken, expiresAt: Date.now() - 1000, expiresIn: 3600 });
    emu().resetStats();
    const env = _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: dir });
    const cli = path.join(_repoRoot(), "dist", "cli", "main.js");
    const outputs = await Promise.all(Array.from({ length: 10 }, () => promisify(execFile)(process.execPath, [cli, "token"], { env })));
    const tokens = new Set(outputs.map((o) => o.stdout.trim()));
    assert.equal(tokens.size, 1);
    assert.equal(emu().stats.refreshGrants, 1);
    assert.equal(emu().stats.tokenCalls, 1);
  });

  describe("under a hostile local user", () => {
    it("refuses a folder others can write, with a fix hint, and writes nothing there", async () => {
      for (const mode of [0o777, 0o770, 0o722]) {
        const dir = tmp();
        chmodSync(dir, mode);
        const store = new TokenStore({ dir });
        const err = await _rejects(store.put("p", { baseUrl: "https://x.example" }));
        assert.ok(err instanceof StoreError);
        assert.equal(err.code, "store_permissions");
        assert.match(err.message, new RegExp(`can be written by other users .*run: chmod 700 ${dir}`));
        assert.deepEqual(readdirSync(dir), [], "no lock, temp or store file written");
        assert.equal((await _rejects(store.read())).code, "store_permissions");
      }
    });

    it("refuses a folder below one anyone can write without the sticky bit (but not below /tmp)", async () => {
      const open = path.join(tmp(), "open");
      mkdirSync(open);
      chmodSync(open, 0o777);
      const err = await _rejects(new TokenStore({ dir: path.join(open, "store") }).put("p", { baseUrl: "https://x.example" }));
      assert.equal(err.code, "store_permissions");
      assert.match(err.message, /no sticky bit/);
      chmodSync(open, 0o1777);
      await new TokenStore({ dir: path.join(open, "store") }).put("p", { baseUrl: "https://x.example" });
    });

    it("refuses a folder owned by another user", async function () {
      if (process.getuid?.() !== 0) {
        console.log("      skipped: needs root to give the folder to another user");
        this.skip();
      }
      const dir = tmp();
      chownSync(dir, 65534, 65534);
      const err = await _rejects(new TokenStore({ dir }).put("p", { baseUrl: "https://x.example" }));
      assert.equal(err.code, "store_foreign_owner");
      assert.match(err.message, /belongs to another user.*DNS_ACCOUNT_CONFIG_DIR/);
    });

    it("never follows a symbolic link at the store's name, reading or writing", async () => {
      const dir = tmp();
      const victim = path.join(tmp(), "victim.txt");
      writeFileSync(victim, "precious", { mode: 0o600 });
      const store = new TokenStore({ dir });
      symlinkSync(victim, store.file);
      const err = await _rejects(store.put("p", { baseUrl: "https://x.example", refreshToken: "rt-secret-0a0b" }));
      assert.equal(err.code, "store_permissions");
      assert.match(err.message, /symbolic link/);
      assert.equal(readFileSync(victim, "utf8"), "precious");
      assert.equal((await _rejects(store.read())).code, "store_permissions");
    });

    it("stores and finds profiles named __proto__, constructor and toString like any other", async () => {
      const store = new TokenStore({ dir: tmp() });
      assert.equal(await store.profile("constructor"), undefined);
      assert.equal(await store.profile("toString"), undefined);
      for (const name of ["__proto__", "constructor", "toString"]) await store.put(name, { baseUrl: `https://${name.replace(/_/g, "")}.example` });
      assert.deepEqual(await store.profiles(), ["__proto__", "constructor", "toString"]);
      assert.equal((await store.profile("__proto__"))?.baseUrl, "https://proto.example");
      assert.equal((await store.profile("constructor"))?.baseUrl, "https://constructor.example");
      assert.equal((await store.profile("hasOwnProperty")), undefined);
      assert.ok(Object.keys(JSON.parse(readFileSync(store.file, "utf8")).profiles).includes("__proto__"));
      await store.put("__proto__", undefined);
      assert.deepEqual(await store.profiles(), ["constructor", "toString"]);
    });

    it("dns-account login --profile __proto__ stores it and token finds it", async () => {
      const dir = tmp();
      const cli = path.join(_repoRoot(), "dist", "cli", "main.js");
      const env = _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: dir, DNS_ACCOUNT_BASE_URL: emu().url, DNS_ACCOUNT_USERNAME: USER.username, DNS_ACCOUNT_PASSWORD: USER.password });
      await promisify(execFile)(process.execPath, [cli, "login", "--profile", "__proto__"], { env });
      const { stdout } = await promisify(execFile)(process.execPath, [cli, "token", "--profile", "__proto__"], { env: _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: dir }) });
      assert.equal(stdout.trim(), (await new TokenStore({ dir }).profile("__proto__"))?.accessToken);
    });

    it("keeps fields it does not know (written by a newer version), through a refresh and other writes", async () => {
      let now = Date.now();
      const clock = { now: () => now };
      const dir = tmp();
      const issued = await issueToken({ baseUrl: emu().url, ...USER, clock });
      writeFileSync(
        path.join(dir, "credentials.json"),
        JSON.stringify({ version: 1, futureTop: { a: 1 }, profiles: { p: { baseUrl: emu().url, refreshToken: issued.refreshToken, accessToken: "old", expiresAt: now - 1, expiresIn: 60, futureField: ["x"] } } }),
        { mode: 0o600 },
      );
      const store = new TokenStore({ dir, clock });
      now += 1000;
      assert.notEqual((await store.accessToken("p")).accessToken, "old");
      await store.put("q", { baseUrl: "https://q.example" });
      const data = JSON.parse(readFileSync(store.file, "utf8")) as { futureTop: unknown; profiles: Record<string, { futureField?: unknown }> };
      assert.deepEqual(data.futureTop, { a: 1 });
      assert.deepEqual(data.profiles.p!.futureField, ["x"]);
    });

    it("a stored expiresAt past the largest date reads as unknown: the token is refreshed and the profile revocable", async () => {
      const dir = tmp();
      const issued = await issueToken({ baseUrl: emu().url, ...USER });
      writeFileSync(
        path.join(dir, "credentials.json"),
        JSON.stringify({ version: 1, profiles: { default: { baseUrl: emu().url, refreshToken: issued.refreshToken, accessToken: issued.accessToken, expiresAt: 1e300, expiresIn: 9e15 } } }),
        { mode: 0o600 },
      );
      const cli = path.join(_repoRoot(), "dist", "cli", "main.js");
      const env = _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: dir });
      const listed = JSON.parse((await promisify(execFile)(process.execPath, [cli, "profiles", "--json"], { env })).stdout) as { expiresAt: unknown }[];
      assert.equal(listed[0]!.expiresAt, null);
      const token = (await promisify(execFile)(process.execPath, [cli, "exec-credential"], { env })).stdout;
      assert.match(token, /"expirationTimestamp":"\d{4}-/);
      await promisify(execFile)(process.execPath, [cli, "revoke"], { env });
      assert.equal(existsSync(path.join(dir, "credentials.json")) && (await new TokenStore({ dir }).profile("default")) !== undefined, false);
      await revokeToken({ baseUrl: emu().url, refreshToken: issued.refreshToken });
    });
  });
});
