/** `dns-account env`: export lines for `eval`. */
import { type Command, insecure, insecureOption, out, profileOption, shellQuote, sources } from "../command";

export const env: Command = {
  summary: "Print export lines for eval: DNS_ACCOUNT_ACCESS_TOKEN (or DNS_ACCOUNT_API_KEY) and DNS_ACCOUNT_BASE_URL",
  usage: 'Usage: dns-account env [--profile P] [--json] [--allow-insecure-http]\n\nUse as: eval "$(dns-account env)"',
  options: { ...profileOption, ...insecureOption, json: { type: "boolean" } },
  async run(v) {
    const explicit = v.profile as string | undefined;
    const { defaultCredentialChain, resolveCredential } = sources();
    const credential = await resolveCredential(defaultCredentialChain({ ...(explicit !== undefined ? { profile: explicit } : {}), ...insecure(v) }));
    let vars: Record<string, string>;
    if (credential.apiKey) vars = { DNS_ACCOUNT_API_KEY: credential.apiKey(), DNS_ACCOUNT_BASE_URL: credential.baseUrl };
    else {
      const set = await credential.token();
      vars = { DNS_ACCOUNT_ACCESS_TOKEN: set.accessToken, DNS_ACCOUNT_BASE_URL: set.baseUrl ?? credential.baseUrl };
    }
    if (v.json) out(JSON.stringify(vars));
    else for (const [k, val] of Object.entries(vars)) out(`export ${k}=${shellQuote(val)}`);
  },
};
