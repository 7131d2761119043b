/** `dns-account env`: export lines for `eval`. */
import { type Command, insecure, insecureOption, out, profileOption, shellQuote, sources, UsageError } from "../command";

export const env: Command = {
  summary: "Print export lines for eval: DNS_ACCOUNT_ACCESS_TOKEN (or DNS_ACCOUNT_API_KEY) and DNS_ACCOUNT_BASE_URL",
  usage: `Usage: dns-account env [--shell bash|fish|powershell] [--profile P] [--json] [--allow-insecure-http]

Prints the active credential as variables for the shell:
  bash, sh, zsh (default)   eval "$(dns-account env)"
  fish                      dns-account env --shell fish | source
  powershell                dns-account env --shell powershell | Invoke-Expression`,
  options: { ...profileOption, ...insecureOption, json: { type: "boolean" }, shell: { type: "string" } },
  async run(v) {
    if (v.shell !== undefined && !["bash", "sh", "zsh", "fish", "powershell"].includes(v.shell as string)) {
      throw new UsageError("--shell must be bash, fish or powershell (or sh, zsh)");
    }
    const explicit = v.profile as string | undefined;
    const { defaultCredentialChain, resolveCredential } = sources();
    const credential = await resolveCredential(defaultCredentialChain({ ...(explicit !== undefined ? { profile: explicit } : {}), ...insecure(v) }));
    let vars: Record<string, string>;
    if (credential.apiKey) vars = { DNS_ACCOUNT_API_KEY: credential.apiKey(), DNS_ACCOUNT_BASE_URL: credential.baseUrl };
    else {
      const set = await credential.token();
      vars = { DNS_ACCOUNT_ACCESS_TOKEN: set.accessToken, DNS_ACCOUNT_BASE_URL: set.baseUrl ?? credential.baseUrl };
    }
    if (v.json) return void out(JSON.stringify(vars));
    const shell = (v.shell as string | undefined) ?? "bash";
    for (const [k, val] of Object.entries(vars)) {
      if (shell === "bash" || shell === "sh" || shell === "zsh") out(`export ${k}=${shellQuote(val)}`);
      else if (shell === "fish") out(`set -gx ${k} '${val.replace(/[\\']/g, (c) => `\\${c}`)}';`);
      else out(`$env:${k} = '${val.replace(/'/g, "''")}'`);
    }
  },
};
