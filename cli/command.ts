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
export const errors = () => require("../sdk/errors") as typeof import("../sdk/errors");
export const grants = () => require("../sdk/auth/grants") as typeof import("../sdk/auth/grants");
export const revoke = () => require("../sdk/auth/revoke") as typeof import("../sdk/auth/revoke");
export const sources = () => require("../sdk/credentials/credential-sources") as typeof import("../sdk/credentials/credential-sources");
export const tokenStore = () => require("../sdk/credentials/token-store") as typeof import("../sdk/credentials/token-store");
export const prompt = () => require("./prompt") as typeof import("./prompt");
export const time = () => require("../sdk/time") as typeof import("../sdk/time");

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
export const shellQuote = (s: string): string => "'" + s.replace(/'/g, "'\\''") + "'";

/**
 * What a terminal must never receive from the service or a credential command as it is: C0 and C1
 * controls (cursor moves, colours, OSC sequences), Unicode format characters (category Cf: the bidi
 * marks, embeddings, overrides and isolates U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, zero-width
 * characters), the line and paragraph separators U+2028 and U+2029, and lone surrogates.
 */
const UNSHOWN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** `\u202E` for a BMP character, `\u{E0001}` beyond it. */
const escaped = (c: string): string => {
  const cp = c.codePointAt(0)!;
  const hex = cp.toString(16).toUpperCase();
  return cp > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
};

/**
 * A service-supplied string (a name, a domain, a URL, a message) as the CLI prints it: every character
 * of {@link UNSHOWN} written as its escape (`\u202E`, `\u001B`), so nothing can move the cursor,
 * recolour the terminal or reorder what the user reads.
 *
 * @example
 * ```ts
 * shown("Phone\u202Eexe.txt"); // "Phone\\u202Eexe.txt"
 * ```
 */
export const shown = (text: string): string => text.replace(UNSHOWN, escaped);

/**
 * JSON as the CLI prints it (`--json`): `JSON.stringify`, with the characters of {@link UNSHOWN} that it
 * leaves raw (DEL, C1 controls, format characters, U+2028/U+2029) escaped as `\uXXXX` too. Such a
 * character can only stand inside a string, so the JSON means exactly the same.
 *
 * @example
 * ```ts
 * json({ name: "a\u202Eb" }); // '{"name":"a\\u202Eb"}'
 * ```
 */
export const json = (value: unknown, space?: number): string => escapedSource(JSON.stringify(value, null, space));

/**
 * JSON or JavaScript text whose strings were written by `JSON.stringify`, with what that leaves raw
 * (DEL, C1 controls, format characters such as bidi overrides, U+2028/U+2029) escaped as `\uXXXX`:
 * the same value in a JSON or TypeScript string, and no "Trojan Source" reordering of the code around it.
 * C0 controls are JSON.stringify's own business: a raw newline is layout, kept.
 *
 * @example
 * ```ts
 * escapedSource(`new Device(${JSON.stringify("a\u202Eb")})`); // 'new Device("a\\u202Eb")'
 * ```
 */
export const escapedSource = (text: string): string =>
  text.replace(/[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).toUpperCase().padStart(4, "0")}`).join(""),
  );

/**
 * An OAuth token's characters (RFC 6749 appendix A: VSCHAR, printable ASCII), at least one.
 *
 * @example
 * ```ts
 * isTokenText("abc.DEF-123"); // true; isTokenText("a\u001b[2J") is false
 * ```
 */
export const isTokenText = (s: string): boolean => /^[\x20-\x7e]+$/.test(s);
/**
 * True when `s` holds none of the characters a terminal must not receive raw ({@link shown}).
 *
 * @example
 * ```ts
 * isPlainText("https://api.example"); // true; isPlainText("https://\u202Eelpmaxe") is false
 * ```
 */
export const isPlainText = (s: string): boolean => !new RegExp(UNSHOWN.source, "u").test(s);

/** How the CLI says to allow plain http to a non-loopback host (where the SDK says `set allowInsecureHttp`). */
export const INSECURE_WORDS = "pass --allow-insecure-http (or set DNS_ACCOUNT_ALLOW_INSECURE_HTTP=1)";

type Credential = import("../sdk/credentials/credential-sources").Credential;

/** Where a credential's base URL came from, in the words the user set it with. */
function baseUrlName(credential: Credential, fromCommand: boolean): string {
  if (fromCommand) return `The credential command's "baseUrl"`;
  if (credential.source === "profile") return `The base URL of profile "${credential.profile}"`;
  return "DNS_ACCOUNT_BASE_URL";
}

/** Where a credential's secret came from, for messages. */
function secretFrom(credential: Credential): string {
  if (credential.source === "profile") return `profile "${credential.profile}"`;
  if (credential.source === "command") return "the credential command";
  if (credential.apiKey) return "DNS_ACCOUNT_API_KEY";
  return env.DNS_ACCOUNT_ACCESS_TOKEN ? "DNS_ACCOUNT_ACCESS_TOKEN" : "the environment";
}

/**
 * Checks a base URL as the SDK will (scheme, no credentials, no control characters, https unless
 * `--allow-insecure-http`), naming it as the user set it (`--base-url`, `DNS_ACCOUNT_BASE_URL`, a
 * profile's, the credential command's).
 *
 * @example
 * ```ts
 * checkBaseUrl("http://emulator:8787", "--base-url", v); // ConfigError: "--base-url uses http:// … pass --allow-insecure-http …"
 * ```
 */
export function checkBaseUrl(url: string, name: string, v: Values): void {
  const { resolveBaseUrl } = require("../sdk/http/transport") as typeof import("../sdk/http/transport");
  resolveBaseUrl(url, insecureOf(v), { name, insecure: INSECURE_WORDS });
}

/**
 * The active credential (`--profile` alone when given, else the environment, the profile, the credential
 * command), its base URL and API key checked ({@link checkCredential}) before anything is sent or
 * printed; `check: false` leaves that to the caller (`status` reports it as "does not work").
 *
 * @example
 * ```ts
 * const credential = await activeCredential(v);
 * if (credential.apiKey) out(credential.baseUrl);
 * ```
 */
export async function activeCredential(v: Values, check = true): Promise<Credential> {
  const explicit = v.profile as string | undefined;
  // The environment's credentials win when there is no --profile; resolving them already checks their URL.
  if (check && explicit === undefined && envCredentials() && env.DNS_ACCOUNT_BASE_URL) checkBaseUrl(env.DNS_ACCOUNT_BASE_URL, "DNS_ACCOUNT_BASE_URL", v);
  const { defaultCredentialChain, resolveCredential } = sources();
  const credential = await resolveCredential(defaultCredentialChain({ ...(explicit !== undefined ? { profile: explicit } : {}), ...insecure(v) }));
  if (check) checkCredential(credential, v);
  return credential;
}

/**
 * Checks a credential's base URL ({@link checkBaseUrl}) and its API key (no control or format characters).
 *
 * @example
 * ```ts
 * const credential = await activeCredential(v, false);
 * checkCredential(credential, v); // throws a ConfigError naming DNS_ACCOUNT_BASE_URL, say
 * ```
 */
export function checkCredential(credential: Credential, v: Values): void {
  checkBaseUrl(credential.baseUrl, baseUrlName(credential, false), v);
  if (credential.apiKey && !isPlainText(credential.apiKey())) {
    throw new (errors().ConfigError)(`The API key from ${secretFrom(credential)} holds control or format characters: it is neither used nor printed`, { field: "apiKey" });
  }
}

/**
 * The credential's token set and the base URL it belongs to, both checked: the URL as {@link checkBaseUrl}
 * does, the access token as a token must be (RFC 6749: printable ASCII), so neither ever reaches the
 * terminal, a shell or a request otherwise.
 *
 * @example
 * ```ts
 * const { set, baseUrl } = await activeToken(await activeCredential(v), v);
 * out(set.accessToken);
 * ```
 */
export async function activeToken(credential: Credential, v: Values): Promise<{ set: Awaited<ReturnType<Credential["token"]>>; baseUrl: string }> {
  const set = await credential.token();
  const baseUrl = set.baseUrl ?? credential.baseUrl;
  if (set.baseUrl !== undefined && set.baseUrl !== credential.baseUrl) checkBaseUrl(set.baseUrl, baseUrlName(credential, true), v);
  if (!isTokenText(set.accessToken)) {
    throw new (errors().ConfigError)(`The access token from ${secretFrom(credential)} holds characters a token cannot have (RFC 6749 allows printable ASCII only): it is neither used nor printed`, {
      field: "accessToken",
    });
  }
  return { set, baseUrl };
}

/**
 * An error's message in the CLI's words, printable: the SDK's messages name its options, the CLI's name
 * the flags and variables the user types.
 *
 * @example
 * ```ts
 * note(`dns-account: ${err.code}: ${cliMessage(err)}`); // "… use https:// or pass --allow-insecure-http …"
 * ```
 */
export function cliMessage(err: { code?: unknown; message: string }): string {
  let message = err.message;
  if (err.code === "mfa_required") {
    message = "This account uses two-factor authentication: set DNS_ACCOUNT_MFA_TOKEN to the current MFA code, or run dns-account login --mfa at a terminal";
  }
  message = message.replace("set allowInsecureHttp", INSECURE_WORDS).replace(/^"baseUrl"/, "The base URL");
  return shown(message);
}

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
export async function cliClient(v: Values): Promise<import("../sdk/client/client").Client> {
  const credential = await activeCredential(v);
  const { createClient } = require("../sdk/client/client") as typeof import("../sdk/client/client");
  if (credential.apiKey) return createClient({ baseUrl: credential.baseUrl, apiKey: credential.apiKey(), ...insecure(v) });
  const { set, baseUrl } = await activeToken(credential, v);
  return createClient({ baseUrl, credentials: set, ...insecure(v) });
}

/**
 * Runs `fn` with a client for the active credential ({@link cliClient}) and closes the client after.
 *
 * @example
 * ```ts
 * await withClient(v, async (client) => out(table(await client.devices.list())));
 * ```
 */
export async function withClient<T>(v: Values, fn: (client: import("../sdk/client/client").Client) => Promise<T>): Promise<T> {
  const client = await cliClient(v);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}
