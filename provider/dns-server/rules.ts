/**
 * User rules as AdGuard's own parser reads them (`@adguard/agtree`, loaded only when rules are checked),
 * and a reader of rules files. agtree 2.x: it is CommonJS and runs on Node 18 and newer, which fits this
 * package's `engines` (>=20.18); 3.x and 4.x are ESM-only and declare Node 22.
 */
import { readFileSync, statSync } from "node:fs";
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
 * @example
 * ```ts
 * new DnsServer("home", { name: "Home", settings: { userRules: { rules: rulesFromFile("rules.txt") } } });
 * ```
 */
export function rulesFromFile(path: string): string[] {
  if (statSync(path).size > MAX_RULES_FILE_BYTES) throw new Error(`${path} is larger than ${MAX_RULES_FILE_BYTES} bytes`);
  return readFileSync(path, "utf8")
    .split("\n")
    .map((line) => line.replace(/\s+$/, ""))
    .filter((line) => line.trim() !== "" && !/^\s*!/.test(line) && !/^\s*#(?![#@$%?])/.test(line));
}
