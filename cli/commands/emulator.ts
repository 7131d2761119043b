/** `dns-account emulator` (and `npm run emulator`): the embedded Account API emulator, for local dry runs. */
import { existsSync } from "node:fs";
import { isIPv6 } from "node:net";
import { type Command, note, out, UsageError } from "../command";

const state = () => require("../../emulator/state") as typeof import("../../emulator/state");

// Repeatable options: parseArgs gives an array. (`OptionSpec` has no `multiple`, so they are typed here.)
const repeated = { type: "string", multiple: true } as const;
/** The values of a repeatable option: parseArgs gives an array, which `Values` does not type. */
const all = (value: unknown): string[] => (Array.isArray(value) ? (value as string[]) : []);

/** The account-limit names, as `GET /account/limits` and `dns-account export --format seed` name them. */
const LIMIT_NAMES = ["access_rules", "dedicated_ipv4", "devices", "dns_servers", "requests", "user_rules"] as const;

/**
 * The address `--host` names, as `listen` takes it: an IPv6 address copied from a URL, in brackets
 * (`[::1]`), is the address without them. Brackets around anything else, or around an address with a
 * port (`[::1]:8787`), are a usage error naming `--host` (the port goes in `--port`).
 *
 * @example
 * hostOf("[::1]"); // "::1"
 * hostOf("127.0.0.1"); // "127.0.0.1"
 */
function hostOf(value: string): string {
  if (!value.includes("[") && !value.includes("]")) return value;
  const inner = /^\[([^[\]]*)\]$/.exec(value)?.[1];
  if (inner === undefined || !isIPv6(inner)) {
    throw new UsageError("--host takes an address without a port, such as 127.0.0.1 or ::1 (brackets are for an IPv6 address alone: [::1]); the port goes in --port");
  }
  return inner;
}

/** The host as a URL writes it: an IPv6 address in brackets. */
const bracketed = (host: string): string => (isIPv6(host) ? `[${host}]` : host);

/**
 * `--limit NAME=N`, each: a limit name of `GET /account/limits` and a whole number from 0 to
 * 2147483647 (the API's int32). Errors name `--limit` and the limit, never the text given.
 */
function limitsOf(values: readonly string[]): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const value of values) {
    const eq = value.indexOf("=");
    const name = eq < 0 ? "" : value.slice(0, eq);
    if (!(LIMIT_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(`--limit takes NAME=N, NAME one of ${LIMIT_NAMES.join(", ")} (see dns-account emulator --help)`);
    }
    const number = value.slice(eq + 1);
    if (!/^\d{1,10}$/.test(number) || Number(number) > 2 ** 31 - 1) throw new UsageError(`--limit ${name} must be a whole number from 0 to 2147483647`);
    if (name in limits) throw new UsageError(`--limit ${name} is given twice`);
    limits[name] = Number(number);
  }
  return limits;
}

export const emulator: Command = {
  summary: "Start the embedded Account API emulator (for local dry runs)",
  // A getter: the seeded users and keys are read from the emulator's own defaults, only when asked.
  get usage(): string {
    const { DEFAULT_API_KEYS, DEFAULT_CLIENTS, DEFAULT_USERS } = state();
    return `Usage: dns-account emulator [--port N] [--host H [--allow-remote]] [--allow-host NAME[:PORT]]...
                          [--limit NAME=N]... [--token-lifetime SECONDS] [--require-grant-type]
                          [--listing-rules] [--seed FILE] [--state FILE] [--quiet]

Serves the Account API (1.15) on http://HOST:PORT (default 127.0.0.1:8787) until Ctrl-C.
  --port N              the port; 0 picks a free one (the URL line says which)
  --host H              the address to listen on (default 127.0.0.1; ::1 or [::1] for IPv6); one
                        that is not loopback (0.0.0.0, a LAN address) needs --allow-remote
  --allow-remote        listen on a --host that is not loopback: anyone who reaches it can use the
                        published users, password and API keys below (a warning says so)
  --allow-host NAME     also answer requests for NAME (with the emulator's port) or NAME:PORT, e.g.
                        emulator for http://emulator:8787 in docker-compose; repeatable. Otherwise
                        only 127.0.0.1, localhost and [::1] (and the --host address) are answered:
                        any other Host header gets 421, so a web page cannot reach it by DNS rebinding
  --limit NAME=N        the account quota NAME is N, over a seed's or state file's own (and kept in
                        --state); repeatable, e.g. --limit dedicated_ipv4=3. NAME is one of
                        ${LIMIT_NAMES.join(", ")}
  --token-lifetime S    lifetime of access tokens in seconds (default about 30 days, varying,
                        as the service issues them; 3600 for an hour)
  --require-grant-type  refuse token requests without grant_type (the schema's rule); by default the
                        password and refresh grants are inferred, as the service does
  --listing-rules       DNS server listings carry each server's user rules; by default they come
                        empty, as the service sends them (reading one server gives its rules)
  --seed FILE           start the first user's account from FILE: DNS servers with their settings and
                        rules, devices, dedicated addresses, query-log entries (the JSON that
                        dns-account export --format seed writes; query_log takes logs --json items)
  --state FILE          keep every account in FILE across restarts (read at start when it exists, and
                        then --seed is ignored; rewritten atomically, mode 0600, after each change).
                        Tokens are not kept: log in again after a restart, or use an API key
  --quiet               print nothing but the URL (and no request log)

Seeded accounts (password for both: ${DEFAULT_USERS[0]!.password}):
${DEFAULT_USERS.map((u) => `  ${u.username}${u.mfa ? " (MFA on: any 6-digit code, each once)" : ""}`).join("\n")}
API keys: ${DEFAULT_API_KEYS.map((k) => `${k.key} (${k.username})`).join(", ")}
OAuth client: ${DEFAULT_CLIENTS.map((c) => c.clientId).join(", ")}, with loopback redirect URIs on any port`;
  },
  options: {
    port: { type: "string" },
    host: { type: "string" },
    "allow-remote": { type: "boolean" },
    "allow-host": repeated,
    limit: repeated,
    "token-lifetime": { type: "string" },
    "require-grant-type": { type: "boolean" },
    // Accepted for old scripts: inferring the password and refresh grants is now the default.
    "grant-type-optional": { type: "boolean" },
    seed: { type: "string" },
    state: { type: "string" },
    "listing-rules": { type: "boolean" },
    quiet: { type: "boolean" },
  },
  async run(v) {
    const port = v.port === undefined ? 8787 : Number(v.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port must be an integer from 0 to 65535");
    const lifetime = v["token-lifetime"] === undefined ? undefined : Number(v["token-lifetime"]);
    if (lifetime !== undefined && (!Number.isInteger(lifetime) || lifetime <= 0)) throw new UsageError("--token-lifetime must be a positive integer");
    if (v["require-grant-type"] && v["grant-type-optional"]) throw new UsageError("--require-grant-type and --grant-type-optional contradict each other");
    const given = (v.host as string | undefined) ?? "127.0.0.1";
    if (given.trim() === "") throw new UsageError("--host needs an address, such as 127.0.0.1");
    const host = hostOf(given);
    const limits = limitsOf(all(v.limit));
    // Loaded on demand: the other commands never need the emulator.
    const { isLoopbackHost, parseAllowedHost } = require("../../emulator/http/host") as typeof import("../../emulator/http/host");
    const remote = !isLoopbackHost(host);
    if (remote && !v["allow-remote"]) {
      throw new UsageError(
        "--host is not a loopback address (127.0.0.1, ::1, localhost): the emulator's users, password and API keys are published, so anyone who reaches it could use them; pass --allow-remote to listen there anyway",
      );
    }
    const allowedHosts = all(v["allow-host"]);
    if (allowedHosts.some((h) => !parseAllowedHost(h))) throw new UsageError("--allow-host takes a host name or address, with an optional :PORT");
    const { startEmulator, DEFAULT_USERS } = require("../../emulator/server") as typeof import("../../emulator/server");
    const { readJsonFile } = require("../../emulator/seed/file") as typeof import("../../emulator/seed/file");
    if (v.seed === "" || v.state === "") throw new UsageError(`--${v.seed === "" ? "seed" : "state"} needs a file name`);
    // An existing --state file wins over --seed, which is then not read at all (it may be gone).
    const stateExists = v.state !== undefined && existsSync(v.state as string);
    const seed = v.seed === undefined || stateExists ? undefined : readJsonFile(v.seed as string, "--seed");
    let emu: Awaited<ReturnType<typeof startEmulator>>;
    try {
      emu = await startEmulator({
        port,
        host,
        ...(v["allow-remote"] ? { allowRemote: true } : {}),
        ...(allowedHosts.length > 0 ? { allowedHosts } : {}),
        ...(Object.keys(limits).length > 0 ? { limitOverrides: limits } : {}),
        ...(v["require-grant-type"] ? { requireGrantType: true } : {}),
        ...(v["listing-rules"] ? { listingRules: true } : {}),
        ...(lifetime !== undefined ? { tokenLifetimeSeconds: lifetime } : {}),
        ...(seed !== undefined ? { seed: seed as import("../../emulator/seed/schema").AccountSeedInput } : {}),
        ...(v.state !== undefined ? { stateFile: v.state as string } : {}),
        optionNames: { seed: "--seed", stateFile: "--state", host: "--host", allowRemote: "--allow-remote", allowedHosts: "--allow-host", limitOverrides: "--limit" },
        ...(v.quiet ? {} : { log: (line: string) => note(line) }),
        // Even with --quiet: a change the --state file could not keep is never lost in silence.
        warn: (message: string) => note(message),
      });
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === "EADDRINUSE") throw new UsageError(`port ${port} on ${bracketed(host)} is taken: pass --port 0 for any free port (or another --port)`);
      if (code === "EADDRNOTAVAIL" || code === "EACCES") throw new UsageError(`cannot listen on ${bracketed(host)}:${port} (${code})`);
      throw err;
    }
    // Even with --quiet (on stderr, so a script reading the URL line is not disturbed).
    if (remote) {
      note(
        `warning: --allow-remote: the emulator listens on ${emu.url}, beyond this machine; its users, password and API keys are published (dns-account emulator --help), so anyone who can reach that address can use them and the accounts it serves`,
      );
    }
    if (v.quiet) out(emu.url);
    else {
      out(`Account API emulator listening on ${emu.url}`);
      // Started by `npm run emulator` in a clone, where no dns-account command is on PATH: say the command that was run.
      const help = process.env["npm_lifecycle_event"] === "emulator" ? "npm run emulator -- --help" : "dns-account emulator --help";
      note(`Users: ${DEFAULT_USERS.map((u) => u.username).join(", ")} (${help} lists passwords and keys). Stop with Ctrl-C.`);
      if (v.state !== undefined) note(`Accounts are kept in ${v.state as string}${v.seed !== undefined ? " (--seed is used only while that file does not exist)" : ""}.`);
    }
    // Stop at once on Ctrl-C or SIGTERM: open keep-alive connections are cut, not waited for.
    await new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    void emu.close();
    // Stopping is how the emulator is meant to end: exit 0, so `npm run emulator` reports no failure.
    process.exit(0);
  },
};
