/** `dns-account status` (whoami): the active credential, where it came from, and whether it works. */
import { type Command, env, insecure, insecureOption, iso, isTime, out, profileOption, sources } from "../command";
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
    const explicit = v.profile as string | undefined;
    const { defaultCredentialChain, resolveCredential } = sources();
    const credential = await resolveCredential(defaultCredentialChain({ ...(explicit !== undefined ? { profile: explicit } : {}), ...insecure(v) }));
    const kind = credential.apiKey ? "API key" : "tokens";
    const from =
      credential.source === "profile"
        ? `profile "${credential.profile}"`
        : credential.source === "environment"
          ? environmentVariable(Boolean(credential.apiKey))
          : credential.source === "command"
            ? "DNS_ACCOUNT_CREDENTIAL_COMMAND"
            : credential.source;
    const { createClient } = require("../../client/client") as typeof import("../../client/client");
    let expiresAt: number | undefined;
    let baseUrl = credential.baseUrl;
    let limits: Record<string, { limit: number; used: number }> | undefined;
    let problem: { code: string; message: string } | undefined;
    try {
      let client;
      if (credential.apiKey) client = createClient({ baseUrl, apiKey: credential.apiKey(), retry: { retries: 0 }, ...insecure(v) });
      else {
        const set = await credential.token();
        baseUrl = set.baseUrl ?? baseUrl;
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
      problem = { code: typeof e.code === "string" ? e.code : "error", message: typeof e.message === "string" ? e.message : "the call failed" };
    }
    const expiry = expiresAt !== undefined && isTime(expiresAt) ? iso(expiresAt) : undefined;
    if (v.json) {
      out(JSON.stringify({ credential: kind, source: credential.source, from, baseUrl, works: !problem, ...(expiry ? { expiresAt: expiry } : {}), ...(limits ? { limits } : {}), ...(problem ? { error: problem } : {}) }, null, 2));
    } else {
      out(`Credential: ${kind} from ${from}`);
      out(`Service:    ${baseUrl}`);
      if (expiry) out(`Expires:    ${expiry} (access token)`);
      out(`Works:      ${problem ? `no — ${problem.code}: ${problem.message}` : "yes"}`);
      if (limits) out(`\n${table([["LIMIT", "USED", "OF"], ...Object.entries(limits).map(([k, l]) => [k, l.used, l.limit])])}`);
    }
    if (problem) process.exitCode = 1;
  },
};
