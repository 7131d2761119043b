/** `dns-account emulator` (and `npm run emulator`): the embedded Account API emulator, for local dry runs. */
import { existsSync } from "node:fs";
import { type Command, note, out, UsageError } from "../command";

const state = () => require("../../emulator/state") as typeof import("../../emulator/state");

export const emulator: Command = {
  summary: "Start the embedded Account API emulator (for local dry runs)",
  // A getter: the seeded users and keys are read from the emulator's own defaults, only when asked.
  get usage(): string {
    const { DEFAULT_API_KEYS, DEFAULT_CLIENTS, DEFAULT_USERS } = state();
    return `Usage: dns-account emulator [--port N] [--host H] [--token-lifetime SECONDS] [--require-grant-type]
                          [--listing-rules] [--seed FILE] [--state FILE] [--quiet]

Serves the Account API (1.15) on http://HOST:PORT (default 127.0.0.1:8787) until Ctrl-C.
  --port N              the port; 0 picks a free one (the URL line says which)
  --host H              the address to listen on (default 127.0.0.1)
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
    const host = (v.host as string | undefined) ?? "127.0.0.1";
    // Loaded on demand: the other commands never need the emulator.
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
        ...(v["require-grant-type"] ? { requireGrantType: true } : {}),
        ...(v["listing-rules"] ? { listingRules: true } : {}),
        ...(lifetime !== undefined ? { tokenLifetimeSeconds: lifetime } : {}),
        ...(seed !== undefined ? { seed: seed as import("../../emulator/seed/schema").AccountSeedInput } : {}),
        ...(v.state !== undefined ? { stateFile: v.state as string } : {}),
        optionNames: { seed: "--seed", stateFile: "--state" },
        ...(v.quiet ? {} : { log: (line: string) => note(line) }),
        // Even with --quiet: a change the --state file could not keep is never lost in silence.
        warn: (message: string) => note(message),
      });
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === "EADDRINUSE") throw new UsageError(`port ${port} on ${host} is taken: pass --port 0 for any free port (or another --port)`);
      if (code === "EADDRNOTAVAIL" || code === "EACCES") throw new UsageError(`cannot listen on ${host}:${port} (${code})`);
      throw err;
    }
    if (v.quiet) out(emu.url);
    else {
      out(`Account API emulator listening on ${emu.url}`);
      note(`Users: ${DEFAULT_USERS.map((u) => u.username).join(", ")} (dns-account emulator --help lists passwords and keys). Stop with Ctrl-C.`);
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
