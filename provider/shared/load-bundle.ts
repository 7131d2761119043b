/**
 * Loads one of the package's bundles (scripts/bundle.mjs: one minified CommonJS file per engine face) in
 * one step, with V8's code cache beside it (`<bundle>.cache`) when there is one that this Node accepts.
 * Node 20 has no `module.enableCompileCache`, so the bundle is compiled as a `vm.Script` given the cached
 * data, and run with the CommonJS wrapper's arguments (its `require` is the bundle file's own, for the
 * few files it leaves outside: the rules parser, Node's built-ins).
 *
 * When the cache is missing or this Node rejects it (another Node version or V8 flags than the build's),
 * a fresh one is written beside the bundle once the process has done its first work ({@link refreshCache}),
 * atomically and only where the folder is writable; nothing else depends on it.
 */
import { renameSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Script } from "node:vm";

/** The loaded bundles, by file: each is compiled and run once per process. */
const loaded = new Map<string, { exports: unknown; script: Script; cacheUsed: boolean }>();

/** The code cache of `file`, or undefined when there is none. */
function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(`${file}.cache`);
  } catch {
    return undefined;
  }
}

/**
 * The exports of the bundle `file`, compiled and run on the first call (with its code cache when this
 * Node accepts it), the same object afterwards.
 *
 * @example
 * ```ts
 * const { start } = loadBundle(path.join(__dirname, "plugin.bundle.js")) as { start(): void };
 * ```
 */
export function loadBundle(file: string): unknown {
  const done = loaded.get(file);
  if (done) return done.exports;
  const entry = runBundle(file, readFileSync(file, "utf8"), readCache(file), createRequire(file), path.dirname(file));
  loaded.set(file, entry);
  return entry.exports;
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
export function runBundle(filename: string, text: string, cachedData: Buffer | undefined, require: NodeRequire, dirname = "."): { exports: unknown; script: Script; cacheUsed: boolean } {
  // The wrapper Node gives every CommonJS module, on one line so that the bundle's positions stay its own.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${text}\n})`, {
    filename,
    ...(cachedData ? { cachedData } : {}),
  });
  const mod = { exports: {} as unknown };
  const fn = script.runInThisContext() as (e: unknown, r: NodeRequire, m: { exports: unknown }, f: string, d: string) => void;
  fn(mod.exports, require, mod, filename, dirname);
  return { exports: mod.exports, script, cacheUsed: cachedData !== undefined && !script.cachedDataRejected };
}

/**
 * Whether `file` was loaded with its code cache (false when there was none or this Node rejected it).
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
 * `<file>.cache`: into a file of its own, then renamed over the old one, so that a process starting at
 * the same time reads either the old cache or the new one. Returns false when it could not be written
 * (a read-only install); never throws.
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
  try {
    writeFileSync(temp, entry.script.createCachedData());
    renameSync(temp, `${file}.cache`);
    return true;
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // nothing was written
    }
    return false;
  }
}
