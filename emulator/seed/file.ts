/**
 * Reading seed and state files, and writing the state file atomically: a new file (mode 0600, created
 * exclusively, never through a symbolic link) written in full and synced, then renamed over the old
 * one, so a crash leaves the old state or the new one, never half of either.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, fsyncSync, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "../../sdk/errors";

/** The largest seed or state file read (a million query-log entries fit). */
export const MAX_FILE_BYTES = 512 * 1024 * 1024;

/**
 * Reads a JSON file: a regular file only (a FIFO or device is refused, not waited on), never through a
 * symbolic link when `noFollow`, at most {@link MAX_FILE_BYTES}. Returns undefined when it does not
 * exist and `missingOk`.
 *
 * @example
 * ```ts
 * const seed = readJsonFile("account.json", "--seed");
 * ```
 */
export function readJsonFile(file: string, label: string, options: { noFollow?: boolean; missingOk?: boolean } = {}): unknown {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO without a writer returns at once (and is then refused as not regular).
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && options.missingOk) return undefined;
    if (code === "ELOOP") throw new ConfigError(`${label}: the file is a symbolic link; give the file itself`, { field: label });
    throw new ConfigError(`${label}: the file cannot be read (${code ?? "error"})`, { field: label });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ConfigError(`${label}: not a regular file`, { field: label });
    if (stat.size > MAX_FILE_BYTES) throw new ConfigError(`${label}: the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB`, { field: label });
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    try {
      return JSON.parse(buffer.toString("utf8", 0, read));
    } catch {
      throw new ConfigError(`${label}: the file is not valid JSON`, { field: label });
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` to `file` atomically: a temporary file beside it (created exclusively with mode 0600,
 * refusing a symbolic link in its place), synced, then renamed over `file` (a rename replaces a link
 * at `file` itself, never what it points to).
 *
 * @example
 * ```ts
 * writeFileAtomic("state.json", JSON.stringify(state));
 * ```
 */
export function writeFileAtomic(file: string, text: string): void {
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    try {
      const data = Buffer.from(text, "utf8");
      for (let written = 0; written < data.length; ) written += writeSync(fd, data, written, data.length - written);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (err) {
    try {
      unlinkSync(temp);
    } catch {
      // already renamed or gone
    }
    throw err;
  }
}
