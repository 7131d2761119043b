/**
 * An asset of the single executable this code runs in (Node's `node:sea`), for the executables' entries
 * (provider/plugin/sea.ts, provider/tofu/sea.ts): the build puts a face's code cache in only where it
 * was made for the executable's own Node binary, so its absence is an answer, not an error.
 */
import { getAsset } from "node:sea";

/**
 * The asset `key`'s bytes, or undefined when the executable has no such asset.
 *
 * @example
 * ```ts
 * const cache = seaAsset("tofu.js.cache"); // undefined in a cross-built executable
 * ```
 */
export function seaAsset(key: string): Buffer | undefined {
  try {
    return Buffer.from(getAsset(key));
  } catch {
    return undefined;
  }
}
