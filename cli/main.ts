#!/usr/bin/env node
import { parseArgs } from "node:util";
import { cachedToken } from "./cached-token";
import {
  activeCredential,
  activeToken,
  cliMessage,
  type Command,
  env,
  envCredentials,
  errors,
  insecureOption,
  isPlainText,
  isTime,
  isTokenText,
  iso,
  json,
  note,
  out,
  profileOf,
  profileOption,
  prompt,
  rfc3339,
  shown,
  UsageError,
  type Values,
} from "./command";

// kubectl runs exec-credential before every call: with a fresh stored token that path must cost little
// more than starting node, so everything beyond node's own modules is required where it is used (the
// SDK's modules load undici and zod), and the other commands live in ./commands/, loaded when named.
// `node --cpu-prof` / counting require() calls checks it.


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
    // DNS_ACCOUNT_BASE_URL naming another origin than the profile's: the full path says base_url_conflict.
    // Anything a terminal must not receive takes the full path too, which refuses it with an error.
    if (
      cached &&
      isTokenText(cached.accessToken) &&
      isPlainText(cached.baseUrl) &&
      (explicit !== undefined || sameOrigin(env.DNS_ACCOUNT_BASE_URL, cached.baseUrl))
    )
      return { ...cached, source: "profile" };
  }
  const credential = await activeCredential(v);
  const { set, baseUrl } = await activeToken(credential, v);
  return {
    accessToken: set.accessToken,
    expiresAt: set.expiresAt,
    baseUrl,
    source: credential.source,
    ...(credential.profile ? { profile: credential.profile } : {}),
  };
}

/** True when `url` is unset or names the origin of `other` (WHATWG URL is global: no module to load). */
function sameOrigin(url: string | undefined, other: string): boolean {
  if (!url) return true;
  try {
    return new URL(url).origin === new URL(other).origin;
  } catch {
    return false;
  }
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


const commands: Record<string, Command | (() => Command)> = {
  login: () => (require("./commands/login") as typeof import("./commands/login")).login,
  token: {
    summary: "Print a valid access token (refreshing and persisting as needed)",
    usage: `Usage: dns-account token [--profile P] [--json] [--allow-insecure-http]

Credentials, first match wins: DNS_ACCOUNT_ACCESS_TOKEN, DNS_ACCOUNT_REFRESH_TOKEN or
DNS_ACCOUNT_USERNAME + DNS_ACCOUNT_PASSWORD; then the stored profile; then DNS_ACCOUNT_CREDENTIAL_COMMAND.
An explicit --profile uses that profile only (the environment is ignored); a missing one is an error.
A secret goes only to its own origin: DNS_ACCOUNT_BASE_URL naming another origin than the profile's,
or than the baseUrl a credential command prints, is an error (base_url_conflict), not a choice.
--json prints {"accessToken", "expiresAt", "baseUrl", ...}: valid output for a credential command
(DNS_ACCOUNT_CREDENTIAL_COMMAND="dns-account token --json --profile P").`,
    options: { ...profileOption, ...insecureOption, json: { type: "boolean" } },
    async run(v) {
      const t = await currentToken(v);
      if (v.json) {
        out(
          json({
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
        json({
          apiVersion,
          kind: "ExecCredential",
          status: { token: t.accessToken, ...expirationOf(t) },
        }),
      );
    },
  },
  env: () => (require("./commands/env") as typeof import("./commands/env")).env,
  revoke: () => (require("./commands/revoke") as typeof import("./commands/revoke")).revoke,
  profiles: () => (require("./commands/profiles") as typeof import("./commands/profiles")).profiles,
  status: () => (require("./commands/status") as typeof import("./commands/status")).status,
  devices: () => (require("./commands/listings") as typeof import("./commands/listings")).devices,
  servers: () => (require("./commands/listings") as typeof import("./commands/listings")).servers,
  logs: () => (require("./commands/logs") as typeof import("./commands/logs")).logs,
  stats: () => (require("./commands/stats") as typeof import("./commands/stats")).stats,
  export: () => (require("./commands/export") as typeof import("./commands/export")).exportCommand,
  emulator: () => (require("./commands/emulator") as typeof import("./commands/emulator")).emulator,
};
commands.logout = commands.revoke!;

/** The command named `name` (its module loaded now), or undefined. */
function commandOf(name: string): Command | undefined {
  const c = Object.hasOwn(commands, name) ? commands[name] : undefined;
  return typeof c === "function" ? c() : c;
}

/** The main usage text; it names every command, so it loads them all (only for help). */
const mainUsage = (): string => `Usage: dns-account <command> [options]

Commands:
${Object.entries(commands)
  .filter(([name]) => name !== "logout")
  .map(([name]) => `  ${name.padEnd(16)}${commandOf(name)!.summary}`)
  .join("\n")}
  logout          Same as revoke

Run dns-account help <command> (or <command> --help) for its options; dns-account --version.
Every command takes --debug (or DNS_ACCOUNT_DEBUG=1): each HTTP exchange on stderr, secrets redacted. Exit codes: 0 success, 1 failure, 2 usage.
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
  // As gh and kubectl: a bare call and `help` print the usage (exit 0); `help <command>` that command's.
  if (name === undefined || name === "--help" || name === "-h") return void out(mainUsage());
  if (name === "help") {
    if (rest.length === 0) return void out(mainUsage());
    const topic = rest.length === 1 ? commandOf(rest[0]!) : undefined;
    if (!topic) throw new UsageError(`help takes one command name (see dns-account --help)`);
    return void out(topic.usage);
  }
  if (name === "--version" || name === "-v" || name === "version") return void out((require("../sdk/version") as typeof import("../sdk/version")).VERSION);
  const command = commandOf(name);
  if (!command) throw new UsageError(`unknown command "${name}" (see dns-account --help)`);
  const debug = (): void => (require("./debug") as typeof import("./debug")).enableDebug();
  let values: Values | undefined = name === "token" || name === "exec-credential" ? kubectlValues(rest) : undefined;
  if (values) {
    if (env.DNS_ACCOUNT_DEBUG === "1") debug();
    return void (await command.run(values));
  }
  try {
    ({ values } = parseArgs({ args: rest, options: { ...command.options, help: { type: "boolean", short: "h" }, debug: { type: "boolean" } }, strict: true, allowPositionals: false }));
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
  // --debug (or DNS_ACCOUNT_DEBUG=1): each HTTP exchange on stderr, secrets redacted.
  if (values.debug || env.DNS_ACCOUNT_DEBUG === "1") debug();
  await command.run(values);
}

/**
 * Runs the CLI with `argv` (without `node` and the script) and sets `process.exitCode`: 0 success,
 * 1 failure, 2 usage. Errors go to stderr as one line with their code.
 */
export function run(argv: string[]): Promise<void> {
  return dispatch(argv).then(
    () => {
      // A command that reports a failure in its output (status) sets the exit code itself.
      process.exitCode ??= 0;
    },
    (err: unknown) => {
    const { PromptAbortedError } = prompt();
    if (err instanceof UsageError) {
      note(`dns-account: usage: ${shown(err.message)}`);
      process.exitCode = 2;
    } else if (err instanceof PromptAbortedError) {
      note(`dns-account: ${shown(err.message)}`);
      process.exitCode = err.exitCode;
    } else if (err instanceof errors().DnsAccountError) {
      note(`dns-account: ${err.code}: ${cliMessage(err)}`);
      process.exitCode = 1;
    } else {
      note(`dns-account: error: ${shown(err instanceof Error ? err.message : String(err))}`);
      process.exitCode = 1;
    }
  },
  );
}

if (require.main === module) {
  // A reader that stops early (`dns-account logs | head`) closes the pipe: end quietly, as gh and kubectl
  // do, instead of crashing with a stack trace on the next write.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
  void run(process.argv.slice(2));
}
