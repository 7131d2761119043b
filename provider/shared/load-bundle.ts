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
  const text = readFileSync(file, "utf8");
  const cachedData = readCache(file);
  // The wrapper Node gives every CommonJS module, on one line so that the bundle's positions stay its own.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${text}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const mod = { exports: {} as unknown };
  const fn = script.runInThisContext() as (e: unknown, r: NodeRequire, m: { exports: unknown }, f: string, d: string) => void;
  fn(mod.exports, createRequire(file), mod, file, path.dirname(file));
  loaded.set(file, { exports: mod.exports, script, cacheUsed: cachedData !== undefined && !script.cachedDataRejected });
  return mod.exports;
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
