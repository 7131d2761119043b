/**
 * Loads one of the package's bundles (scripts/bundle.mjs: one minified CommonJS file per engine face) in
 * one step, with V8's code cache beside it (`<bundle>.cache`) when there is one that this Node accepts.
 * Node 20 has no `module.enableCompileCache`, so the bundle is compiled as a `vm.Script` given the cached
 * data, and run with the CommonJS wrapper's arguments (its `require` is the bundle file's own, for the
 * few files it leaves outside: the rules parser, Node's built-ins).
 *
 * V8 checks a code cache only for the source's length and its own flags, so a cache someone else could
 * write would run their code: a cache is used only when it is a regular file (not a link) no more
 * writable than its bundle (never by others; by the group only where the bundle is too) and owned by the
 * bundle's owner or the current user ({@link cacheTrusted}). Otherwise the bundle compiles without it.
 *
 * When the cache is missing, untrusted or rejected by this Node (another Node version or V8 flags than
 * the build's), a fresh one is written beside the bundle once the process has done its first work
 * ({@link refreshCache}): into a temporary file of its own (created exclusively, never through a link),
 * with the bundle's permissions rather than the process's umask, then renamed over the old one; only
 * where the folder is writable, and nothing else depends on it.
 *
 * The script is compiled under a name inside the package (`pulumi-dns-account/dist/…`), never the file's
 * absolute path: V8 keeps the name of the compile that made a cache, so the cache the build writes would
 * otherwise carry the build machine's folders (and show them in stack traces).
 */
import { closeSync, constants, fchmodSync, lstatSync, openSync, readFileSync, renameSync, statSync, type Stats, unlinkSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Script } from "node:vm";

/** The loaded bundles, by file: each is compiled and run once per process. */
const loaded = new Map<string, { exports: unknown; script: Script; cacheUsed: boolean }>();

/** POSIX permissions and owners mean nothing to this check on Windows (ACLs), nor O_NOFOLLOW. */
const POSIX = process.platform !== "win32";
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Whether a code cache with the status `cache` may be used for a bundle with the status `bundle`: a
 * regular file, written by no one who cannot write the bundle (never by others; by the group only when
 * the bundle is writable by that same group), owned by the bundle's owner or the current user.
 *
 * @example
 * ```ts
 * if (cacheTrusted(lstatSync(`${file}.cache`), statSync(file))) useIt();
 * ```
 */
export function cacheTrusted(cache: Stats, bundle: Stats): boolean {
  if (!cache.isFile()) return false;
  if (!POSIX) return true;
  if (cache.mode & 0o002) return false;
  if (cache.mode & 0o020 && !(bundle.mode & 0o020 && cache.gid === bundle.gid)) return false;
  return cache.uid === bundle.uid || cache.uid === process.getuid?.();
}

/** The code cache of `file` when there is one that may be used ({@link cacheTrusted}), else undefined. */
function readCache(file: string, bundle: Stats): Buffer | undefined {
  const name = `${file}.cache`;
  try {
    const before = lstatSync(name);
    if (!cacheTrusted(before, bundle)) return undefined;
    // Never through a link; and the file read is the one checked (same inode, still trusted, after the read).
    // (Node's open takes numeric flags here too; its types name only the string ones.)
    const data = readFileSync(name, { flag: (constants.O_RDONLY | NOFOLLOW) as unknown as string });
    const after = lstatSync(name);
    if (after.ino !== before.ino || after.dev !== before.dev || !cacheTrusted(after, bundle)) return undefined;
    return data;
  } catch {
    return undefined;
  }
}

/**
 * The name `file` is compiled under: its path from the package's `dist/` folder on, below the package's
 * name (`pulumi-dns-account/dist/provider/plugin/plugin.bundle.js`), the same on the build machine and
 * wherever it is installed; the file name alone when it lies in no `dist/`.
 *
 * @example
 * ```ts
 * scriptName("/usr/lib/node_modules/pulumi-dns-account/dist/provider/dynamic.bundle.js"); // "pulumi-dns-account/dist/provider/dynamic.bundle.js"
 * ```
 */
export function scriptName(file: string): string {
  const parts = path.resolve(file).split(path.sep);
  const at = parts.lastIndexOf("dist");
  return at >= 0 ? ["pulumi-dns-account", ...parts.slice(at)].join("/") : path.basename(file);
}

/**
 * The exports of the bundle `file`, compiled and run on the first call (with its code cache when this
 * Node accepts it and it may be used), the same object afterwards.
 *
 * @example
 * ```ts
 * const { start } = loadBundle(path.join(__dirname, "plugin.bundle.js")) as { start(): void };
 * ```
 */
export function loadBundle(file: string): unknown {
  const done = loaded.get(file);
  if (done) return done.exports;
  const bundle = statSync(file);
  const text = readFileSync(file, "utf8");
  const entry = runBundle(scriptName(file), text, readCache(file, bundle), createRequire(file), path.dirname(file), file);
  loaded.set(file, entry);
  return entry.exports;
}

/**
 * Compiles `text`, a CommonJS bundle, inside the CommonJS wrapper as a `vm.Script` named `filename`, with
 * `cachedData` when given (`script.cachedDataRejected` tells whether this Node took it); runs nothing.
 *
 * @example
 * ```ts
 * const accepted = !compileBundle("pulumi-resource-dns-account/plugin.js", text, cache).cachedDataRejected;
 * ```
 */
export function compileBundle(filename: string, text: string, cachedData?: Buffer): Script {
  // The wrapper Node gives every CommonJS module, on one line so that the bundle's positions stay its own.
  return new Script(`(function (exports, require, module, __filename, __dirname) {${text}\n})`, {
    filename,
    ...(cachedData ? { cachedData } : {}),
  });
}

/**
 * Compiles `text`, a CommonJS bundle, as a `vm.Script` named `filename` (with `cachedData`, V8's code cache
 * of it, when given and accepted), runs it with the CommonJS wrapper's arguments and `require` as its
 * require, and returns its exports, the script (for a fresh cache) and whether the cache was used. The
 * plugin's single executable runs its bundle this way from its assets.
 *
 * @example
 * ```ts
 * const { exports } = runBundle("plugin.js", text, undefined, require);
 * ```
 */
export function runBundle(
  filename: string,
  text: string,
  cachedData: Buffer | undefined,
  require: NodeRequire,
  dirname = ".",
  modulePath = filename,
): { exports: unknown; script: Script; cacheUsed: boolean } {
  const script = compileBundle(filename, text, cachedData);
  const mod = { exports: {} as unknown };
  const fn = script.runInThisContext() as (e: unknown, r: NodeRequire, m: { exports: unknown }, f: string, d: string) => void;
  fn(mod.exports, require, mod, modulePath, dirname);
  return { exports: mod.exports, script, cacheUsed: cachedData !== undefined && !script.cachedDataRejected };
}

/**
 * Whether `file` was loaded with its code cache (false when there was none, it could not be trusted or
 * this Node rejected it).
 *
 * @example
 * ```ts
 * if (!cacheUsed(file)) refreshCache(file);
 * ```
 */
export function cacheUsed(file: string): boolean {
  return loaded.get(file)?.cacheUsed ?? false;
}

/**
 * Writes the code cache of the loaded bundle `file` (what V8 has compiled of it so far) to
 * `<file>.cache`: into a temporary file of its own beside it, created exclusively and never through a
 * link, given the bundle's permissions (read and write bits: never more writable than the bundle,
 * whatever the umask), then renamed over the old one, so that a process starting at the same time reads
 * either the old cache or the new one. Returns false when it could not be written (a read-only install,
 * something already at the temporary name); never throws.
 *
 * @example
 * ```ts
 * refreshCache(file); // after the first operation, when cacheUsed(file) is false
 * ```
 */
export function refreshCache(file: string): boolean {
  const entry = loaded.get(file);
  if (!entry) return false;
  const temp = `${file}.cache.${process.pid}.tmp`;
  let fd: number | undefined;
  let mode: number;
  try {
    mode = statSync(file).mode & 0o666;
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, mode);
  } catch {
    // Not writable here, or something is at the temporary name: it is not ours to remove.
    return false;
  }
  try {
    const data = entry.script.createCachedData();
    for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
    // The umask only narrows the mode open() gave: set it, so that readers the bundle allows can read it.
    if (POSIX) fchmodSync(fd, mode);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, `${file}.cache`);
    return true;
  } catch {
    try {
      if (fd !== undefined) closeSync(fd);
      unlinkSync(temp);
    } catch {
      // already gone
    }
    return false;
  }
}
