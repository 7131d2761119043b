/** `dns-account env`: export lines for `eval`. */
import { activeCredential, activeToken, type Command, insecureOption, json, out, profileOption, shellQuote, UsageError } from "../command";

/** The shells `env --shell` speaks. */
export type Shell = "bash" | "sh" | "zsh" | "fish" | "powershell";
const SHELLS: readonly Shell[] = ["bash", "sh", "zsh", "fish", "powershell"];

/**
 * One variable as a line of `shell`'s own syntax, the value in single quotes so the shell reads it as
 * written, whatever it holds:
 * - bash, sh, zsh: `'` ends the quotes, so each is written `'\''`;
 * - fish: inside single quotes only `\'` and `\\` are escapes;
 * - PowerShell: a single-quoted string ends at any of `'` U+2018 U+2019 U+201A U+201B, and two of them
 *   in a row stand for the second one, so each is doubled. `Invoke-Expression` takes the output line by
 *   line, so a line break would end the line and the next one would run as a command: CR and LF are
 *   written as "`r" and "`n", joined to the quoted pieces with `+`, and each variable stays one line.
 *
 * @example
 * ```ts
 * exportLine("powershell", "DNS_ACCOUNT_BASE_URL", "https://x/it’s"); // "$env:DNS_ACCOUNT_BASE_URL = 'https://x/it’’s'"
 * ```
 */
export function exportLine(shell: Shell, name: string, value: string): string {
  if (shell === "fish") return `set -gx ${name} '${value.replace(/[\\']/g, (c) => `\\${c}`)}';`;
  if (shell === "powershell") {
    const quoted = (piece: string) => `'${piece.replace(/['\u2018\u2019\u201a\u201b]/g, (c) => c + c)}'`;
    // "a\nb" splits into ["a", "\n", "b"]: the odd places are the line breaks.
    const expression = value.split(/([\r\n])/).map((piece, i) => (i % 2 === 0 ? quoted(piece) : piece === "\n" ? '"`n"' : '"`r"'));
    return `$env:${name} = ${expression.join(" + ")}`;
  }
  return `export ${name}=${shellQuote(value)}`;
}

export const env: Command = {
  summary: "Print export lines for eval: DNS_ACCOUNT_ACCESS_TOKEN (or DNS_ACCOUNT_API_KEY) and DNS_ACCOUNT_BASE_URL",
  usage: `Usage: dns-account env [--shell bash|fish|powershell] [--profile P] [--json] [--allow-insecure-http]

Prints the active credential as variables for the shell:
  bash, sh, zsh (default)   eval "$(dns-account env)"
  fish                      dns-account env --shell fish | source
  powershell                dns-account env --shell powershell | Invoke-Expression`,
  options: { ...profileOption, ...insecureOption, json: { type: "boolean" }, shell: { type: "string" } },
  async run(v) {
    const shell = (v.shell as string | undefined) ?? "bash";
    if (!SHELLS.includes(shell as Shell)) throw new UsageError("--shell must be bash, fish or powershell (or sh, zsh)");
    // The credential, its base URL and its token are checked: nothing with control characters is printed.
    const credential = await activeCredential(v);
    let vars: Record<string, string>;
    if (credential.apiKey) vars = { DNS_ACCOUNT_API_KEY: credential.apiKey(), DNS_ACCOUNT_BASE_URL: credential.baseUrl };
    else {
      const { set, baseUrl } = await activeToken(credential, v);
      vars = { DNS_ACCOUNT_ACCESS_TOKEN: set.accessToken, DNS_ACCOUNT_BASE_URL: baseUrl };
    }
    if (v.json) return void out(json(vars));
    for (const [k, val] of Object.entries(vars)) out(exportLine(shell as Shell, k, val));
  },
};
