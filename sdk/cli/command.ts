/**
 * What every command of the `dns-account` CLI shares: the command shape, the usage error, output helpers,
 * the common options and the SDK modules, each loaded where it is first used. kubectl runs
 * `exec-credential` before every call, so this module loads nothing beyond node's own modules.
 */

/** A wrong command line: exit code 2. */
export class UsageError extends Error {}

/** Parsed option values. */
export type Values = Record<string, string | boolean | undefined>;
/** Options as `parseArgs` takes them. */
export type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string }>;

/**
 * One command: its summary (in `dns-account --help`), its usage text and options, and what it does.
 *
 * @example
 * ```ts
 * export const hello: Command = { summary: "Say hello", usage: "Usage: dns-account hello", options: {}, run: async () => out("hello") };
 * ```
 */
export interface Command {
  summary: string;
  usage: string;
  options: OptionSpec;
  run(values: Values): Promise<void>;
}

// The SDK's modules load undici and zod: each is required where it is used.
export const errors = () => require("../errors") as typeof import("../errors");
export const grants = () => require("../auth/grants") as typeof import("../auth/grants");
export const revoke = () => require("../auth/revoke") as typeof import("../auth/revoke");
export const sources = () => require("../credentials/credential-sources") as typeof import("../credentials/credential-sources");
export const tokenStore = () => require("../credentials/token-store") as typeof import("../credentials/token-store");
export const prompt = () => require("./prompt") as typeof import("./prompt");
export const time = () => require("../time") as typeof import("../time");

export const env = process.env;
export const out = (text: string): void => void process.stdout.write(`${text}\n`);
export const note = (text: string): void => void process.stderr.write(`${text}\n`);

export const profileOption = { profile: { type: "string" as const, short: "p" } };
export const insecureOption = { "allow-insecure-http": { type: "boolean" as const } };
/** `--allow-insecure-http` or `DNS_ACCOUNT_ALLOW_INSECURE_HTTP=1|true|yes`: http:// to a non-loopback host. */
export const insecureOf = (v: Values): boolean => Boolean(v["allow-insecure-http"]) || /^(1|true|yes)$/i.test(env.DNS_ACCOUNT_ALLOW_INSECURE_HTTP ?? "");
export const insecure = (v: Values): { allowInsecureHttp?: true } => (insecureOf(v) ? { allowInsecureHttp: true } : {});
/**
 * The environment holds credentials that the chain's environment source would use: then the token path
 * goes through the chain, so the fast path and the chain decide the same way (an API key included).
 */
export const envCredentials = (): boolean =>
  Boolean(env.DNS_ACCOUNT_API_KEY || env.DNS_ACCOUNT_ACCESS_TOKEN || env.DNS_ACCOUNT_REFRESH_TOKEN || (env.DNS_ACCOUNT_USERNAME && env.DNS_ACCOUNT_PASSWORD));
export const newStore = (v: Values) => new (tokenStore().TokenStore)(insecure(v));
export const profileOf = (v: Values): string => (v.profile as string | undefined) ?? env.DNS_ACCOUNT_PROFILE ?? "default";
export const iso = (ms: number): string => time().isoTime(ms);
export const rfc3339 = (ms: number): string => time().isoTime(ms).replace(/\.\d{3}Z$/, "Z");
export const isTime = (ms: number): boolean => time().isTime(ms);
export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * An API client for the active credential (the same chain as `token` and `env`: `--profile` alone when
 * given, else the environment, the profile, the credential command). Close it when done.
 *
 * @example
 * ```ts
 * const client = await cliClient(v);
 * try { out(JSON.stringify(await client.devices.list())); } finally { await client.close(); }
 * ```
 */
export async function cliClient(v: Values): Promise<import("../client/client").Client> {
  const explicit = v.profile as string | undefined;
  const { defaultCredentialChain, resolveCredential } = sources();
  const credential = await resolveCredential(defaultCredentialChain({ ...(explicit !== undefined ? { profile: explicit } : {}), ...insecure(v) }));
  const { createClient } = require("../client/client") as typeof import("../client/client");
  if (credential.apiKey) return createClient({ baseUrl: credential.baseUrl, apiKey: credential.apiKey(), ...insecure(v) });
  const set = await credential.token();
  return createClient({ baseUrl: set.baseUrl ?? credential.baseUrl, credentials: set, ...insecure(v) });
}

/**
 * Runs `fn` with a client for the active credential ({@link cliClient}) and closes the client after.
 *
 * @example
 * ```ts
 * await withClient(v, async (client) => out(table(await client.devices.list())));
 * ```
 */
export async function withClient<T>(v: Values, fn: (client: import("../client/client").Client) => Promise<T>): Promise<T> {
  const client = await cliClient(v);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}
