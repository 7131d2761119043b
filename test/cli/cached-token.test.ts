import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cachedToken, staleWindowMs, storeDir } from "../../cli/cached-token";
import { defaultStoreDir } from "../../sdk/credentials/token-store";
import { refreshWindowMs } from "../../sdk/session";
import { _cleanEnv } from "../support/helpers";
import { CLI, _cli } from "./_cli";
import { _useTempDirs } from "../support/temp";

const TOKEN = "cached-access-TOKEN-9f3e";

/** A store folder (made by `tmp`) holding `profiles`. */
function storeWith(tmp: (prefix: string) => string, profiles: Record<string, unknown>, mode = 0o600): string {
  const dir = tmp("dns-account-cached-");
  const file = path.join(dir, "credentials.json");
  writeFileSync(file, JSON.stringify({ version: 1, profiles }), { mode });
  chmodSync(file, mode);
  return dir;
}

const fresh = () => ({ baseUrl: "http://127.0.0.1:9", accessToken: TOKEN, expiresAt: Date.now() + 3600_000, expiresIn: 3600, updatedAt: "" });

describe("dns-account CLI: the cached-token path (what kubectl runs on every call)", function () {
  const tmp = _useTempDirs();
  this.timeout(30_000);

  it("repeats the store's folder rule and refresh window exactly", () => {
    const envs: NodeJS.ProcessEnv[] = [{}, { DNS_ACCOUNT_CONFIG_DIR: "/x/y" }, { XDG_CONFIG_HOME: "/xdg" }, { APPDATA: "C:\\AppData" }];
    for (const env of envs) {
      for (const platform of ["linux", "darwin", "win32"] as const) assert.equal(storeDir(env, platform, "/home/u"), defaultStoreDir(env, platform, "/home/u"));
    }
    for (const s of [1, 30, 60, 600, 3000, 3600, 86_400]) assert.equal(staleWindowMs(s), refreshWindowMs(s));
  });

  it("answers a fresh stored token with node's own modules only: no undici, no zod, no SDK", () => {
    const dir = storeWith(tmp, { default: fresh() });
    const probe = `
      process.argv = [process.argv[0], ${JSON.stringify(CLI)}, "exec-credential"];
      require(${JSON.stringify(CLI)}).run(["exec-credential"]).then(() => {
        process.stderr.write(JSON.stringify(Object.keys(require.cache)));
      });`;
    const r = spawnSync(process.execPath, ["-e", probe], { env: _cleanEnv({ DNS_ACCOUNT_CONFIG_DIR: dir }), encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { status: { token: string } }).status.token, TOKEN);
    const loaded = r.stderr;
    const modules = (JSON.parse(loaded || "[]") as string[]).map((m) => path.relative(path.dirname(path.dirname(CLI)), m));
    assert.ok(modules.length > 0);
    assert.deepEqual(modules.filter((m) => /node_modules|undici|zod/.test(m)), []);
    assert.deepEqual(modules.sort(), ["cli/cached-token.js", "cli/command.js", "cli/main.js"]);
  });

  it("reads nothing it does not fully recognise: the store then decides (and reports)", async () => {
    // A field a newer version wrote: the store keeps it and answers (the fast path only steps aside).
    const newer = storeWith(tmp, { default: { ...fresh(), addedLater: "x" } });
    assert.equal(cachedToken({ DNS_ACCOUNT_CONFIG_DIR: newer }, "default"), undefined, "an unknown key in the profile");
    const answered = await _cli(["token"], { DNS_ACCOUNT_CONFIG_DIR: newer });
    assert.equal(answered.code, 0, answered.stderr);
    assert.equal(answered.stdout.trim(), TOKEN);
    const cases: [string, Record<string, unknown>, number, RegExp][] = [
      ["another profile malformed", { default: fresh(), other: { baseUrl: 1 } }, 0o600, /^dns-account: store_corrupt: /],
      ["a store open to other users", { default: fresh() }, 0o644, /^dns-account: store_permissions: /],
      ["an expiry past the Date range", { default: { ...fresh(), expiresAt: 9e15 } }, 0o600, /./],
    ];
    for (const [what, profiles, mode, error] of cases) {
      const dir = storeWith(tmp, profiles, mode);
      assert.equal(cachedToken({ DNS_ACCOUNT_CONFIG_DIR: dir }, "default"), undefined, what);
      const r = await _cli(["token"], { DNS_ACCOUNT_CONFIG_DIR: dir });
      assert.equal(r.code, 1, what);
      assert.match(r.stderr, error, what);
      assert.ok(!r.stdout.includes(TOKEN), what);
    }
    // The store's folder rule and links, read-only: a folder others can write, or a link at the store's name.
    const open = storeWith(tmp, { default: fresh() });
    chmodSync(open, 0o777);
    assert.equal(cachedToken({ DNS_ACCOUNT_CONFIG_DIR: open }, "default"), undefined, "a folder others can write");
    const linked = storeWith(tmp, {});
    symlinkSync(path.join(storeWith(tmp, { default: fresh() }), "credentials.json"), path.join(linked, "other.json"));
    renameSync(path.join(linked, "other.json"), path.join(linked, "credentials.json"));
    assert.equal(cachedToken({ DNS_ACCOUNT_CONFIG_DIR: linked }, "default"), undefined, "a link at the store's name");
    const stale = storeWith(tmp, { default: { ...fresh(), expiresAt: Date.now() + 60_000 } });
    assert.equal(cachedToken({ DNS_ACCOUNT_CONFIG_DIR: stale }, "default"), undefined, "inside the refresh window");
    assert.equal(cachedToken({ DNS_ACCOUNT_CONFIG_DIR: storeWith(tmp, { default: fresh() }) }, "default")?.accessToken, TOKEN);
  });
});
