/**
 * User rules as AdGuard's own parser reads them (`@adguard/agtree`, loaded only when rules are checked),
 * and a reader of rules files. agtree 2.x: it is CommonJS and runs on Node 18 and newer, which fits this
 * package's `engines` (>=20.18); 3.x and 4.x are ESM-only and declare Node 22.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { ConfigError } from "../../sdk/errors";
import type { Failure } from "../shared/lifecycle";

/** The largest rules file {@link rulesFromFile} reads (the service's own limits are far below it). */
const MAX_RULES_FILE_BYTES = 16 * 1024 * 1024;

type Parser = { parse(raw: string, options: { tolerant: boolean }): unknown };
let parser: Parser | undefined;

/**
 * Check failures for the rules AdGuard's parser rejects, each named by its 0-based index under `path`
 * (`settings.userRules.rules[3]`) with the parser's reason. Values unknown during preview are skipped.
 *
 * Only the syntax is checked: agtree's modifier validator knows the browser extensions' modifiers and
 * would reject DNS ones the service accepts (`$dnstype`, `$dnsrewrite`, `$client`, `$ctag`).
 *
 * @example
 * ```ts
 * checkRules(["||ads.example^", "||a^$domain="], "settings.userRules.rules", isUnknown);
 * // [{ property: "settings.userRules.rules[1]", reason: "…: Modifier value cannot be empty" }]
 * ```
 */
export function checkRules(rules: readonly unknown[], path: string, isUnknown: (v: unknown) => boolean): Failure[] {
  parser ??= (require("@adguard/agtree") as { RuleParser: Parser }).RuleParser;
  const failures: Failure[] = [];
  rules.forEach((rule, i) => {
    if (typeof rule !== "string" || isUnknown(rule)) return;
    try {
      parser!.parse(rule, { tolerant: false });
    } catch (err) {
      // The parser's reason describes the syntax; it never quotes a secret (a rule is not one).
      const reason = err instanceof Error ? err.message.split("\n")[0]!.slice(0, 200) : "not a valid rule";
      failures.push({ property: `${path}[${i}]`, reason: `${path}[${i}] is not a valid AdGuard rule: ${reason}` });
    }
  });
  return failures;
}

/**
 * Reads a rules file: one rule a line, blank lines and comments (`! …`, or `# …` as in hosts files)
 * skipped, trailing spaces and `\r` removed. For `settings.userRules.rules`.
 *
 * Only a regular file is read, and at most {@link MAX_RULES_FILE_BYTES} of it, counted while reading (a
 * `/proc` file says it is empty): a FIFO, a device or a socket (`/dev/stdin`, `/dev/zero`) is refused
 * without waiting for a writer, as is a larger file. Both are a `ConfigError` (`invalid_config`) whose
 * `field` is `path`.
 *
 * @example
 * ```ts
 * new DnsServer("home", { name: "Home", settings: { userRules: { rules: rulesFromFile("rules.txt") } } });
 * ```
 */
export function rulesFromFile(path: string): string[] {
  return readRulesText(path)
    .split("\n")
    .map((line) => line.replace(/\s+$/, ""))
    .filter((line) => line.trim() !== "" && !/^\s*!/.test(line) && !/^\s*#(?![#@$%?])/.test(line));
}

/** What a file that is not a regular one is, for the message. */
function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  if (stats.isDirectory()) return "a folder";
  return "not a regular file";
}

// The file's path is the program's own (never a secret), and a program may read several: it is named.
function readRulesText(path: string): string {
  // O_NONBLOCK: opening a FIFO that has no writer returns at once instead of waiting forever; the opened
  // file is then checked (fstat of the descriptor, so nothing can be swapped in between).
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    // A Unix socket cannot be opened at all (ENXIO): refused like the other files that are not regular.
    if ((err as NodeJS.ErrnoException).code === "ENXIO") {
      throw new ConfigError(`rulesFromFile: "path" must be a regular file, and ${path} is a socket`, { field: "path" });
    }
    throw err;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      throw new ConfigError(`rulesFromFile: "path" must be a regular file, and ${path} is ${kindOf(stats)}`, { field: "path" });
    }
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.alloc(64 * 1024);
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_RULES_FILE_BYTES) {
        throw new ConfigError(`rulesFromFile: ${path} holds more than ${MAX_RULES_FILE_BYTES} bytes, the most it reads`, { field: "path" });
      }
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
    return Buffer.concat(chunks, total).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
