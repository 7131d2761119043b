import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { loadBundle, refreshCache, runBundle, scriptName } from "../../provider/shared/load-bundle";
import { _repoRoot } from "../support/helpers";
import { _useTempDirs } from "../support/temp";

const run = promisify(execFile);
/** The loader as the package ships it (each entry has it inside; the compiled module is the same code). */
const LOADER = path.join(_repoRoot(), "dist", "provider", "shared", "load-bundle.js");

/** A bundle and, of exactly the same length, someone else's code: V8 checks a cache only for the length (and its flags). */
const BUNDLE = 'module.exports = { who: "the bundle" };';
const FOREIGN = 'module.exports = { who: "FOREIGN!!!" };';

/**
 * In a child Node (with `umask`): loads `file` with the package's loader and says whose code ran and
 * whether the code cache was used; with `refresh`, then writes a fresh cache as the bin does.
 */
async function load(file: string, options: { umask?: number; refresh?: boolean } = {}): Promise<{ who: string; cacheUsed: boolean; refreshed?: boolean }> {
  const code = `
${options.umask !== undefined ? `process.umask(${options.umask});` : ""}
const l = require(${JSON.stringify(LOADER)});
const f = process.env.BUNDLE_FILE;
const who = l.loadBundle(f).who;
const out = { who, cacheUsed: l.cacheUsed(f) };
${options.refresh ? "out.refreshed = l.refreshCache(f);" : ""}
process.stdout.write(JSON.stringify(out));`;
  const { stdout } = await run(process.execPath, ["-e", code], { env: { ...process.env, BUNDLE_FILE: file } });
  return JSON.parse(stdout) as { who: string; cacheUsed: boolean; refreshed?: boolean };
}

/** V8's code cache of `text` compiled as the loader compiles the bundle `file`. */
function cacheOf(file: string, text: string): Buffer {
  return runBundle(scriptName(file), text, undefined, require).script.createCachedData();
}

const mode = (file: string): number => statSync(file).mode & 0o777;

/**
 * Issue 32 §4: the npm faces' code caches (`<bundle>.cache` beside plugin.bundle.js and dynamic.bundle.js,
 * provider/shared/load-bundle.ts). V8 runs whatever compiled code a cache holds once its length and flags
 * match, so a cache someone else can write is their code in our process: it is never written more
 * writable than its bundle, never through a link, and one that others could have written is not used.
 * Real files, real child processes.
 */
describe("the bundles' code caches: written no more writable than the bundle, never through a link; one others could write is not used", function () {
  this.timeout(60_000);
  const tmp = _useTempDirs();

  /** A bundle in an installed package's layout (`…/dist/provider/x.bundle.js`) with `mode`. */
  const bundle = (bundleMode = 0o644): string => {
    const dir = path.join(tmp("dns-account-cache-"), "node_modules", "pulumi-dns-account", "dist", "provider");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "x.bundle.js");
    writeFileSync(file, BUNDLE);
    chmodSync(file, bundleMode);
    return file;
  };

  it("a rewritten cache gets the bundle's permissions, not the umask's (umask 000 in the writing process)", async () => {
    for (const bundleMode of [0o644, 0o600, 0o640]) {
      const file = bundle(bundleMode);
      const first = await load(file, { umask: 0o000, refresh: true });
      assert.deepEqual(first, { who: "the bundle", cacheUsed: false, refreshed: true });
      assert.equal(mode(`${file}.cache`).toString(8), bundleMode.toString(8), `the cache beside a ${bundleMode.toString(8)} bundle`);
      // …and it is a cache the next process uses.
      assert.deepEqual(await load(file), { who: "the bundle", cacheUsed: true });
    }
  });

  it("a link planted at the temporary file's name is neither followed nor removed, and no cache is written through it", () => {
    const file = bundle();
    loadBundle(file);
    const dir = path.dirname(file);
    // This process writes `<bundle>.cache.<pid>.tmp`: one link to a file of the victim's, one to where a file would appear.
    const victim = path.join(dir, "victim.txt");
    writeFileSync(victim, "the victim's own content");
    const temp = `${file}.cache.${process.pid}.tmp`;
    symlinkSync(victim, temp);
    assert.equal(refreshCache(file), false);
    assert.equal(readFileSync(victim, "utf8"), "the victim's own content");
    assert.ok(lstatSync(temp).isSymbolicLink(), "the planted link is not ours to remove");
    assert.equal(existsSync(`${file}.cache`), false, "nothing was renamed into place");

    const dangling = path.join(dir, "made-through-the-link");
    const file2 = bundle();
    loadBundle(file2);
    symlinkSync(dangling, `${file2}.cache.${process.pid}.tmp`);
    assert.equal(refreshCache(file2), false);
    assert.equal(existsSync(dangling), false, "no file was created through a dangling link");
    assert.equal(existsSync(`${file2}.cache`), false);
  });

  it("a cache with someone else's code is used only when no one but the bundle's writers could have written it", async () => {
    const file = bundle(0o644);
    const cache = `${file}.cache`;
    writeFileSync(cache, cacheOf(file, FOREIGN));
    // The attack is real: with the owner's permissions, V8 takes the cache and runs the foreign code.
    chmodSync(cache, 0o644);
    assert.deepEqual(await load(file), { who: "FOREIGN!!!", cacheUsed: true });

    // Writable by others (as a umask 000 rewrite left it), or by a group that cannot write the bundle: not used.
    for (const cacheMode of [0o666, 0o646, 0o664]) {
      chmodSync(cache, cacheMode);
      assert.deepEqual(await load(file), { who: "the bundle", cacheUsed: false }, `a ${cacheMode.toString(8)} cache`);
    }
    // Garbage writable by others: not used either (and the bundle still loads).
    writeFileSync(cache, Buffer.alloc(4096, 0x5a));
    chmodSync(cache, 0o666);
    assert.deepEqual(await load(file), { who: "the bundle", cacheUsed: false });

    // A link in the cache's place, to a foreign cache with good permissions: not followed.
    const elsewhere = path.join(path.dirname(file), "elsewhere.cache");
    writeFileSync(elsewhere, cacheOf(file, FOREIGN));
    chmodSync(elsewhere, 0o644);
    const linked = bundle(0o644);
    symlinkSync(elsewhere, `${linked}.cache`);
    assert.deepEqual(await load(linked), { who: "the bundle", cacheUsed: false });

    // The process then replaces the untrusted cache with its own, with the bundle's permissions, and uses it.
    writeFileSync(cache, cacheOf(file, FOREIGN));
    chmodSync(cache, 0o666);
    assert.deepEqual(await load(file, { refresh: true }), { who: "the bundle", cacheUsed: false, refreshed: true });
    assert.equal(mode(cache).toString(8), "644");
    assert.deepEqual(await load(file), { who: "the bundle", cacheUsed: true });
  });

  it("a cache owned by another user than the bundle's owner and the current one is not used", async function () {
    // Only root can give a file away: the suite runs as root on CI.
    if (process.getuid?.() !== 0) {
      console.log("      skipped: only root can give a file to another user (CI runs as root)");
      this.skip();
    }
    const file = bundle(0o644);
    const cache = `${file}.cache`;
    writeFileSync(cache, cacheOf(file, FOREIGN));
    chmodSync(cache, 0o644);
    chownSync(cache, 65534, 65534);
    assert.deepEqual(await load(file), { who: "the bundle", cacheUsed: false });
    // The same file given to the bundle's owner is used (so it is the owner that made the difference).
    chownSync(cache, statSync(file).uid, statSync(file).gid);
    assert.deepEqual(await load(file), { who: "FOREIGN!!!", cacheUsed: true });
  });

  it("a group-writable cache is used only beside a bundle writable by that same group", async () => {
    const file = bundle(0o664);
    const first = await load(file, { umask: 0o000, refresh: true });
    assert.equal(first.refreshed, true);
    assert.equal(mode(`${file}.cache`).toString(8), "664");
    assert.deepEqual(await load(file), { who: "the bundle", cacheUsed: true });
  });
});
