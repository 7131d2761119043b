/** `dns-account status` (whoami): the active credential, where it came from, and whether it works. */
import { activeCredential, activeToken, checkCredential, cliMessage, type Command, env, insecure, insecureOption, iso, isTime, json, out, profileOption, shown } from "../command";
import { table } from "../report";

/** The environment variable the environment source took its credential from (the source's own order). */
function environmentVariable(apiKey: boolean): string {
  if (apiKey) return "DNS_ACCOUNT_API_KEY";
  if (env.DNS_ACCOUNT_ACCESS_TOKEN) return "DNS_ACCOUNT_ACCESS_TOKEN";
  if (env.DNS_ACCOUNT_REFRESH_TOKEN) return "DNS_ACCOUNT_REFRESH_TOKEN";
  return "DNS_ACCOUNT_USERNAME and DNS_ACCOUNT_PASSWORD";
}

export const status: Command = {
  summary: "Show the active credential, where it came from, whether it works, and the account's limits",
  usage: `Usage: dns-account status [--json] [--profile P] [--allow-insecure-http]

Resolves the credential as every command does (--profile alone when given; else the environment, the
profile DNS_ACCOUNT_PROFILE names or "default", the credential command), says where it came from (the
profile, the environment variable, or the command), makes one API call (the account's limits) and
prints them. Exit code 0 when the credential works, 1 when it does not (revoked, expired, wrong).`,
  options: { ...profileOption, ...insecureOption, json: { type: "boolean" } },
  async run(v) {
    // A base URL or key the CLI refuses is reported below as "does not work", where it came from shown.
    const credential = await activeCredential(v, false);
    const kind = credential.apiKey ? "API key" : "tokens";
    const from =
      credential.source === "profile"
        ? `profile "${credential.profile}"`
        : credential.source === "environment"
          ? environmentVariable(Boolean(credential.apiKey))
          : credential.source === "command"
            ? "DNS_ACCOUNT_CREDENTIAL_COMMAND"
            : credential.source;
    const { createClient } = require("../../sdk/client/client") as typeof import("../../sdk/client/client");
    let expiresAt: number | undefined;
    let baseUrl = credential.baseUrl;
    let limits: Record<string, { limit: number; used: number }> | undefined;
    let problem: { code: string; message: string } | undefined;
    try {
      checkCredential(credential, v);
      let client;
      if (credential.apiKey) client = createClient({ baseUrl, apiKey: credential.apiKey(), retry: { retries: 0 }, ...insecure(v) });
      else {
        const token = await activeToken(credential, v);
        const set = token.set;
        baseUrl = token.baseUrl;
        expiresAt = set.expiresAt;
        client = createClient({ baseUrl, credentials: set, retry: { retries: 0 }, ...insecure(v) });
      }
      try {
        limits = (await client.account.limits()) as unknown as Record<string, { limit: number; used: number }>;
      } finally {
        await client.close();
      }
    } catch (err) {
      const e = err as { code?: unknown; message?: unknown };
      // In the CLI's words (flags, variables), as main prints errors.
      problem = { code: typeof e.code === "string" ? e.code : "error", message: typeof e.message === "string" ? cliMessage({ code: e.code, message: e.message }) : "the call failed" };
    }
    const expiry = expiresAt !== undefined && isTime(expiresAt) ? iso(expiresAt) : undefined;
    if (v.json) {
      out(json({ credential: kind, source: credential.source, from, baseUrl, works: !problem, ...(expiry ? { expiresAt: expiry } : {}), ...(limits ? { limits } : {}), ...(problem ? { error: problem } : {}) }, 2));
    } else {
      out(`Credential: ${kind} from ${shown(from)}`);
      out(`Service:    ${shown(baseUrl)}`);
      if (expiry) out(`Expires:    ${expiry} (access token)`);
      out(`Works:      ${problem ? `no — ${shown(problem.code)}: ${problem.message}` : "yes"}`);
      if (limits) out(`\n${table([["LIMIT", "USED", "OF"], ...Object.entries(limits).map(([k, l]) => [k, l.used, l.limit])])}`);
    }
    if (problem) process.exitCode = 1;
  },
};
