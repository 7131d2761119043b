#!/usr/bin/env node
import { parseArgs } from "node:util";
import type { TokenSet } from "../auth/token-response";
import { cachedToken } from "./cached-token";

// kubectl runs exec-credential before every call: with a fresh stored token that path must cost little
// more than starting node, so everything beyond node's own modules is required where it is used (the
// SDK's modules load undici and zod). `node --cpu-prof` / counting require() calls checks it.
const errors = () => require("../errors") as typeof import("../errors");
const grants = () => require("../auth/grants") as typeof import("../auth/grants");
const revoke = () => require("../auth/revoke") as typeof import("../auth/revoke");
const sources = () => require("../credentials/credential-sources") as typeof import("../credentials/credential-sources");
const tokenStore = () => require("../credentials/token-store") as typeof import("../credentials/token-store");
const prompt = () => require("./prompt") as typeof import("./prompt");
const time = () => require("../time") as typeof import("../time");

/** A wrong command line: exit code 2. */
class UsageError extends Error {}

type Values = Record<string, string | boolean | undefined>;
type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string }>;

interface Command {
  summary: string;
  usage: string;
  options: OptionSpec;
  run(values: Values): Promise<void>;
}

const env = process.env;
const out = (text: string): void => void process.stdout.write(`${text}\n`);
const note = (text: string): void => void process.stderr.write(`${text}\n`);

const profileOption = { profile: { type: "string" as const, short: "p" } };
const insecureOption = { "allow-insecure-http": { type: "boolean" as const } };
/** `--allow-insecure-http` or `DNS_ACCOUNT_ALLOW_INSECURE_HTTP=1|true|yes`: http:// to a non-loopback host. */
const insecureOf = (v: Values): boolean => Boolean(v["allow-insecure-http"]) || /^(1|true|yes)$/i.test(env.DNS_ACCOUNT_ALLOW_INSECURE_HTTP ?? "");
const insecure = (v: Values): { allowInsecureHttp?: true } => (insecureOf(v) ? { allowInsecureHttp: true } : {});
/** The environment holds credentials that the chain's environment source would use. */
const envCredentials = (): boolean => Boolean(env.DNS_ACCOUNT_ACCESS_TOKEN || env.DNS_ACCOUNT_REFRESH_TOKEN || (env.DNS_ACCOUNT_USERNAME && env.DNS_ACCOUNT_PASSWORD));
const newStore = (v: Values) => new (tokenStore().TokenStore)(insecure(v));
const profileOf = (v: Values): string => (v.profile as string | undefined) ?? env.DNS_ACCOUNT_PROFILE ?? "default";
const iso = (ms: number): string => time().isoTime(ms);
const rfc3339 = (ms: number): string => time().isoTime(ms).replace(/\.\d{3}Z$/, "Z");
const isTime = (ms: number): boolean => time().isTime(ms);
const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** RFC 3339 `expirationTimestamp` of an ExecCredential, when the expiry is known; the fast path brings it formatted. */
function expirationOf(t: Current): { expirationTimestamp?: string } {
  if (t.expiresAtIso !== undefined) return { expirationTimestamp: t.expiresAtIso.replace(/\.\d{3}Z$/, "Z") };
  return isTime(t.expiresAt) ? { expirationTimestamp: rfc3339(t.expiresAt) } : {};
}

interface Current {
  accessToken: string;
  /** Epoch ms; Infinity when unknown (a bare access token). */
  expiresAt: number;
  /** ISO-8601 of `expiresAt`, when the cached-token path already made it. */
  expiresAtIso?: string;
  baseUrl: string;
  source: string;
  profile?: string;
}

/**
 * The credential chain's token. An explicit --profile negates the environment (as in botocore); then,
 * or when the environment holds no credentials, a fresh stored token is read without loading the SDK.
 */
async function currentToken(v: Values): Promise<Current> {
  const explicit = v.profile as string | undefined;
  if (explicit !== undefined || !envCredentials()) {
    const cached = cachedToken(env, profileOf(v));
    if (cached) return { ...cached, source: "profile" };
  }
  const { defaultCredentialChain, resolveCredential } = sources();
  const credential = await resolveCredential(defaultCredentialChain({ ...(explicit !== undefined ? { profile: explicit } : {}), ...insecure(v) }));
  const set = await credential.token();
  return {
    accessToken: set.accessToken,
    expiresAt: set.expiresAt,
    baseUrl: set.baseUrl ?? credential.baseUrl,
    source: credential.source,
    ...(credential.profile ? { profile: credential.profile } : {}),
  };
}

const EXEC_VERSIONS = ["client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"];

/** The apiVersion kubectl asked for in KUBERNETES_EXEC_INFO (v1 when it is absent). */
function execApiVersion(): string {
  const info = env.KUBERNETES_EXEC_INFO;
  if (!info) return EXEC_VERSIONS[0]!;
  let apiVersion: unknown;
  try {
    apiVersion = (JSON.parse(info) as { apiVersion?: unknown } | null)?.apiVersion;
  } catch {
    throw new (errors().ConfigError)("KUBERNETES_EXEC_INFO is not JSON", { field: "KUBERNETES_EXEC_INFO" });
  }
  if (typeof apiVersion !== "string" || !EXEC_VERSIONS.includes(apiVersion)) {
    throw new (errors().ConfigError)(`KUBERNETES_EXEC_INFO asks for an apiVersion this command does not speak (it answers ${EXEC_VERSIONS.join(" or ")})`, {
      field: "KUBERNETES_EXEC_INFO.apiVersion",
    });
  }
  return apiVersion;
}

async function passwordLogin(v: Values, baseUrl: string): Promise<{ username: string; set: TokenSet & { refreshToken: string } }> {
  const { ask, canPrompt, readStdin } = prompt();
  const { NoCredentialsError, MfaRequiredError } = errors();
  const interactive = canPrompt();
  const username = (v.username as string | undefined) ?? env.DNS_ACCOUNT_USERNAME ?? (interactive ? await ask("E-mail: ") : undefined);
  if (!username) throw new NoCredentialsError("No username: pass --username or set DNS_ACCOUNT_USERNAME");
  let password = env.DNS_ACCOUNT_PASSWORD;
  if (!password && v["password-stdin"]) {
    password = await readStdin();
    if (!password) throw new NoCredentialsError("--password-stdin read an empty password");
  }
  if (!password && interactive) {
    password = await ask("Password: ", true);
    if (!password) throw new NoCredentialsError("The password is empty: nothing was sent (run the command again and type it)");
  }
  if (!password) {
    throw new NoCredentialsError("No terminal to ask for the password: set DNS_ACCOUNT_PASSWORD or pass --password-stdin");
  }
  let mfaToken = env.DNS_ACCOUNT_MFA_TOKEN;
  if (!mfaToken && v.mfa) {
    if (!interactive) throw new NoCredentialsError("No terminal to ask for the MFA code: set DNS_ACCOUNT_MFA_TOKEN");
    mfaToken = await ask("Two-factor code: ", true);
  }
  const attempt = (code: string | undefined) => grants().issueToken({ baseUrl, username, password: password!, ...insecure(v), ...(code ? { mfaToken: code } : {}) });
  try {
    return { username, set: await attempt(mfaToken) };
  } catch (err) {
    if (!(err instanceof MfaRequiredError) || mfaToken) throw err;
    if (!interactive) {
      const mfa = new MfaRequiredError({ status: 401 });
      mfa.message = "This account uses two-factor authentication: set DNS_ACCOUNT_MFA_TOKEN to the current MFA code, or run dns-account login --mfa at a terminal";
      throw mfa;
    }
    const code = await ask("Two-factor code: ", true);
    if (!code) throw new NoCredentialsError("The MFA code is empty: nothing was sent (run the command again, or use --mfa / DNS_ACCOUNT_MFA_TOKEN)");
    return { username, set: await attempt(code) };
  }
}

const commands: Record<string, Command> = {
  login: {
    summary: "Log in and store a profile (password and MFA code, a refresh token, an API key, or --browser)",
    usage: `Usage: dns-account login [--profile P] [--username U] [--mfa] [--password-stdin] [--base-url URL] [--allow-insecure-http] [--json]
       dns-account login --api-key-stdin [--profile P] [--base-url URL] [--json]
       dns-account login --browser --client-id ID [--flow code|implicit] [--redirect-port N] [--no-open] [--profile P] [--base-url URL]

The password is read from DNS_ACCOUNT_PASSWORD, from stdin with --password-stdin, or asked on the
terminal without echo; never from an argument. The MFA code is asked when the service needs one
(or up front with --mfa; DNS_ACCOUNT_MFA_TOKEN in pipelines). With DNS_ACCOUNT_REFRESH_TOKEN set
(and no password), that refresh token is checked and stored instead. Without a terminal, missing
values are an error, not a prompt. The profile keeps base URL, username and tokens, never the
password or the MFA code. --api-key-stdin reads an API key (issued in the service's dashboard) from
stdin, checks it with one API call and stores it: no token is minted and nothing is refreshed.
--browser logs in through a listener on 127.0.0.1 with Authorization Code + PKCE (--flow code, the
default), storing the refresh token the exchange returns; --flow implicit uses the implicit grant,
which yields no refresh token, so that login lasts until the access token expires. Ctrl-C at a prompt exits 130,
Ctrl-D exits 1, and nothing is stored. --allow-insecure-http (or DNS_ACCOUNT_ALLOW_INSECURE_HTTP=1)
permits http:// to a host other than loopback, e.g. an emulator at http://emulator:8787 in
docker-compose; tokens then cross that network in clear.`,
    options: {
      ...profileOption,
      ...insecureOption,
      username: { type: "string", short: "u" },
      mfa: { type: "boolean" },
      "password-stdin": { type: "boolean" },
      "api-key-stdin": { type: "boolean" },
      "base-url": { type: "string" },
      browser: { type: "boolean" },
      flow: { type: "string" },
      "client-id": { type: "string" },
      "redirect-port": { type: "string" },
      "no-open": { type: "boolean" },
      json: { type: "boolean" },
    },
    async run(v) {
      const profile = profileOf(v);
      const store = newStore(v);
      const previous = await store.profile(profile);
      const baseUrl = (v["base-url"] as string | undefined) ?? env.DNS_ACCOUNT_BASE_URL ?? previous?.baseUrl ?? (require("../http/transport") as typeof import("../http/transport")).DEFAULT_BASE_URL;
      let username: string | undefined;
      let set: TokenSet;
      if (v["api-key-stdin"]) {
        if (v.browser || v["password-stdin"]) throw new UsageError("--api-key-stdin goes without --browser and --password-stdin");
        const apiKey = (await prompt().readStdin()).trim();
        if (!apiKey) throw new (errors().NoCredentialsError)("--api-key-stdin read an empty API key");
        const { createClient } = require("../client/client") as typeof import("../client/client");
        const client = createClient({ baseUrl, apiKey, retry: { retries: 0 }, ...insecure(v) });
        try {
          await client.account.limits(); // a wrong or deleted key fails here (invalid_api_key), before anything is stored
        } finally {
          await client.close();
        }
        await store.put(profile, { baseUrl, apiKey });
        if (previous?.refreshToken) {
          await revoke().revokeToken({ baseUrl: previous.baseUrl, refreshToken: previous.refreshToken, ...insecure(v) }).catch(() => note("Could not revoke the profile's previous refresh token."));
        }
        if (v.json) out(JSON.stringify({ profile, baseUrl, apiKey: true }));
        else note(`Stored the API key in profile "${profile}" (${store.file}); it is valid until deleted in the dashboard.`);
        return;
      }
      if (v.browser) {
        const clientId = v["client-id"] as string | undefined;
        if (!clientId) throw new UsageError("--browser needs --client-id");
        const port = v["redirect-port"] === undefined ? 0 : Number(v["redirect-port"]);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--redirect-port must be an integer from 0 to 65535");
        const flow = (v.flow as string | undefined) ?? "code";
        if (flow !== "code" && flow !== "implicit") throw new UsageError("--flow must be code or implicit");
        const browser = { baseUrl, clientId, redirectPort: port, open: !v["no-open"], onUrl: (url: string) => note(`Open this URL in your browser to log in:\n${url}`) };
        if (flow === "code") {
          const { codeLogin } = require("./code-login") as typeof import("./code-login");
          set = await codeLogin(browser);
        } else {
          const { browserLogin } = require("./browser-login") as typeof import("./browser-login");
          set = await browserLogin(browser);
          note(`The implicit grant gives no refresh token: this login lasts until ${iso(set.expiresAt)}; then run dns-account login again.`);
        }
      } else if (env.DNS_ACCOUNT_REFRESH_TOKEN && !env.DNS_ACCOUNT_PASSWORD && !v.username) {
        set = await grants().refreshToken({ baseUrl, refreshToken: env.DNS_ACCOUNT_REFRESH_TOKEN, ...insecure(v) });
        username = previous?.username;
      } else {
        const login = await passwordLogin(v, baseUrl);
        username = login.username;
        set = login.set;
      }
      await store.put(profile, {
        baseUrl,
        ...(username ? { username } : {}),
        ...(set.refreshToken ? { refreshToken: set.refreshToken } : {}),
        accessToken: set.accessToken,
        expiresAt: set.expiresAt,
        expiresIn: set.expiresIn,
      });
      // A replaced refresh token would stay valid forever: revoke it (best effort).
      if (previous?.refreshToken && previous.refreshToken !== set.refreshToken) {
        await revoke().revokeToken({ baseUrl: previous.baseUrl, refreshToken: previous.refreshToken, ...insecure(v) }).catch(() => note("Could not revoke the profile's previous refresh token."));
      }
      if (v.json) out(JSON.stringify({ profile, baseUrl, username: username ?? null, expiresAt: iso(set.expiresAt), refreshToken: Boolean(set.refreshToken) }));
      else note(`Logged in${username ? ` as ${username}` : ""} (profile "${profile}", ${store.file}); access token valid until ${iso(set.expiresAt)}.`);
    },
  },

  token: {
    summary: "Print a valid access token (refreshing and persisting as needed)",
    usage: `Usage: dns-account token [--profile P] [--json] [--allow-insecure-http]

Credentials, first match wins: DNS_ACCOUNT_ACCESS_TOKEN, DNS_ACCOUNT_REFRESH_TOKEN or
DNS_ACCOUNT_USERNAME + DNS_ACCOUNT_PASSWORD; then the stored profile; then DNS_ACCOUNT_CREDENTIAL_COMMAND.
An explicit --profile uses that profile only (the environment is ignored); a missing one is an error.
--json prints {"accessToken", "expiresAt", "baseUrl", ...}: valid output for a credential command
(DNS_ACCOUNT_CREDENTIAL_COMMAND="dns-account token --json --profile P").`,
    options: { ...profileOption, ...insecureOption, json: { type: "boolean" } },
    async run(v) {
      const t = await currentToken(v);
      if (v.json) {
        out(
          JSON.stringify({
            accessToken: t.accessToken,
            tokenType: "Bearer",
            ...(isTime(t.expiresAt) ? { expiresAt: iso(t.expiresAt) } : {}),
            baseUrl: t.baseUrl,
            source: t.source,
            profile: t.profile ?? null,
          }),
        );
      } else out(t.accessToken);
    },
  },

  "exec-credential": {
    summary: "Print a client-go ExecCredential (client.authentication.k8s.io/v1 or v1beta1)",
    usage: `Usage: dns-account exec-credential [--profile P] [--allow-insecure-http]

Prints an ExecCredential with status.token and status.expirationTimestamp (RFC 3339), in the
apiVersion that KUBERNETES_EXEC_INFO asks for (client.authentication.k8s.io/v1 or v1beta1; v1 when
unset). It never prompts: run dns-account login first.`,
    options: { ...profileOption, ...insecureOption },
    async run(v) {
      const apiVersion = execApiVersion();
      const t = await currentToken(v);
      out(
        JSON.stringify({
          apiVersion,
          kind: "ExecCredential",
          status: { token: t.accessToken, ...expirationOf(t) },
        }),
      );
    },
  },

  env: {
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
  },

  revoke: {
    summary: "Revoke the profile's refresh token and remove the profile (alias: logout)",
    usage: `Usage: dns-account revoke [--profile P] [--local] [--json] [--allow-insecure-http]
       dns-account logout [--profile P] [--local] [--json] [--allow-insecure-http]

Revoking an already revoked token succeeds; a missing profile is not an error. --local removes the
profile without contacting the server (e.g. it is unreachable): its refresh token is NOT revoked and
stays valid until it is revoked some other way.`,
    options: { ...profileOption, ...insecureOption, local: { type: "boolean" }, json: { type: "boolean" } },
    async run(v) {
      const profile = profileOf(v);
      const store = newStore(v);
      const p = await store.profile(profile);
      const revoked = Boolean(p?.refreshToken) && !v.local;
      if (revoked) await revoke().revokeToken({ baseUrl: p!.baseUrl, refreshToken: p!.refreshToken!, ...insecure(v) });
      if (p) await store.put(profile, undefined);
      if (v.json) out(JSON.stringify({ profile, removed: Boolean(p), revoked }));
      else if (!p) note(`No profile "${profile}": nothing to revoke.`);
      else if (revoked || !p.refreshToken) note(`${revoked ? "Revoked and removed" : "Removed"} profile "${profile}".`);
      else note(`Removed profile "${profile}" locally; its refresh token was NOT revoked and stays valid until revoked.`);
    },
  },

  profiles: {
    summary: "List stored profiles (no secrets)",
    usage: "Usage: dns-account profiles [--json]",
    options: { json: { type: "boolean" } },
    async run(v) {
      const store = newStore(v);
      const data = await store.read();
      const rows = Object.entries(data.profiles).map(([name, p]) => ({
        profile: name,
        baseUrl: p.baseUrl,
        username: p.username ?? null,
        refreshToken: Boolean(p.refreshToken),
        apiKey: Boolean(p.apiKey),
        expiresAt: p.expiresAt !== undefined ? iso(p.expiresAt) : null,
      }));
      if (v.json) out(JSON.stringify(rows));
      else if (rows.length === 0) note(`No profiles in ${store.file}.`);
      else for (const r of rows) out(`${r.profile}\t${r.baseUrl}\t${r.username ?? "-"}\t${r.apiKey ? "API key" : r.refreshToken ? "refresh token" : "access token only"}\t${r.expiresAt ?? "-"}`);
    },
  },

  emulator: {
    summary: "Start the embedded Account API emulator (for local dry runs)",
    usage: "Usage: dns-account emulator [--port N] [--host H] [--token-lifetime SECONDS] [--grant-type-optional] [--quiet]",
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "token-lifetime": { type: "string" },
      "require-grant-type": { type: "boolean" },
      "grant-type-optional": { type: "boolean" },
      quiet: { type: "boolean" },
    },
    async run(v) {
      const port = v.port === undefined ? 8787 : Number(v.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port must be an integer from 0 to 65535");
      const lifetime = v["token-lifetime"] === undefined ? undefined : Number(v["token-lifetime"]);
      if (lifetime !== undefined && (!Number.isInteger(lifetime) || lifetime <= 0)) throw new UsageError("--token-lifetime must be a positive integer");
      // Loaded on demand: the other commands never need the emulator.
      const { startEmulator, DEFAULT_USERS } = require("../../emulator/server") as typeof import("../../emulator/server");
      const emu = await startEmulator({
        port,
        host: (v.host as string | undefined) ?? "127.0.0.1",
        // grant_type is required by default (API 1.15); --grant-type-optional is the 1.11 behaviour.
        requireGrantType: !v["grant-type-optional"],
        ...(lifetime !== undefined ? { tokenLifetimeSeconds: lifetime } : {}),
        ...(v.quiet ? {} : { log: (line: string) => note(line) }),
      });
      out(`Account API emulator listening on ${emu.url}`);
      note(`Users: ${DEFAULT_USERS.map((u) => u.username).join(", ")} (see the README). Stop with Ctrl-C.`);
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await emu.close();
    },
  },
};
commands.logout = commands.revoke!;

const MAIN_USAGE = `Usage: dns-account <command> [options]

Commands:
${Object.entries(commands)
  .filter(([name]) => name !== "logout")
  .map(([name, c]) => `  ${name.padEnd(16)}${c.summary}`)
  .join("\n")}
  logout          Same as revoke

Run dns-account <command> --help for a command's options. Exit codes: 0 success, 1 failure, 2 usage.
Profiles live in $DNS_ACCOUNT_CONFIG_DIR, $XDG_CONFIG_HOME/dns-account or the platform's config folder.`;

/**
 * The arguments kubectl passes on every call (none, or `--profile P`), read without `parseArgs`, which
 * node compiles on first use (about a quarter of this command's own start-up). Anything else goes
 * through `parseArgs` as usual, so both read these arguments the same way.
 */
function kubectlValues(rest: string[]): Values | undefined {
  if (rest.length === 0) return {};
  if (rest.length === 2 && rest[0] === "--profile" && rest[1] !== undefined && rest[1] !== "" && !rest[1].startsWith("-")) return { profile: rest[1] };
  return undefined;
}

async function dispatch(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h" || name === "help") return void out(MAIN_USAGE);
  if (name === "--version") return void out((require("../version") as typeof import("../version")).VERSION);
  if (!name) throw new UsageError("a command is needed (see dns-account --help)");
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) throw new UsageError(`unknown command "${name}" (see dns-account --help)`);
  let values: Values | undefined = name === "token" || name === "exec-credential" ? kubectlValues(rest) : undefined;
  if (values) return void (await command.run(values));
  try {
    ({ values } = parseArgs({ args: rest, options: { ...command.options, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false }));
  } catch (err) {
    // Built from the error code: parseArgs' own messages quote arguments, which could be a secret.
    const code = (err as { code?: string }).code;
    // "Option '-p, --profile <value>' argument missing": name the long form, which is what users type.
    const option = /'(?:-[A-Za-z], )?(--?[A-Za-z][\w-]*)/.exec((err as Error).message)?.[1];
    const what =
      option === "--password"
        ? "passwords are never taken as arguments: use --password-stdin, DNS_ACCOUNT_PASSWORD, or the prompt"
        : code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL"
        ? "this command takes no positional arguments (secrets are never passed as arguments)"
        : code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
          ? `unknown option ${option ?? ""}`.trim()
          : `option ${option ?? ""} has a missing or wrong value`.replace("  ", " ");
    throw new UsageError(`${what} (see dns-account ${name} --help)`);
  }
  if (values.help) return void out(command.usage);
  await command.run(values);
}

/**
 * Runs the CLI with `argv` (without `node` and the script) and sets `process.exitCode`: 0 success,
 * 1 failure, 2 usage. Errors go to stderr as one line with their code.
 */
export function run(argv: string[]): Promise<void> {
  return dispatch(argv).then(
    () => {
      process.exitCode = 0;
    },
    (err: unknown) => {
    const { PromptAbortedError } = prompt();
    if (err instanceof UsageError) {
      note(`dns-account: usage: ${err.message}`);
      process.exitCode = 2;
    } else if (err instanceof PromptAbortedError) {
      note(`dns-account: ${err.message}`);
      process.exitCode = err.exitCode;
    } else if (err instanceof errors().DnsAccountError) {
      // The SDK's wording names the option; say how the CLI spells it.
      const message = err.message.replace("set allowInsecureHttp", "pass --allow-insecure-http (or set DNS_ACCOUNT_ALLOW_INSECURE_HTTP=1)");
      note(`dns-account: ${err.code}: ${message}`);
      process.exitCode = 1;
    } else {
      note(`dns-account: error: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    }
  },
  );
}

if (require.main === module) void run(process.argv.slice(2));
