#!/usr/bin/env node
import { parseArgs } from "node:util";
import { DEFAULT_CLIENTS, DEFAULT_USERS, startEmulator } from "./server";

const USAGE = `Usage: node dist/emulator/cli.js [--port N] [--host H] [--token-lifetime SECONDS] [--require-grant-type] [--quiet]

Starts the Account API emulator and prints its URL. Stop it with Ctrl-C.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "8787" },
      host: { type: "string", default: "127.0.0.1" },
      "token-lifetime": { type: "string" },
      "require-grant-type": { type: "boolean", default: false },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return void console.log(USAGE);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error("--port must be an integer from 0 to 65535");
  const lifetime = values["token-lifetime"] === undefined ? undefined : Number(values["token-lifetime"]);
  if (lifetime !== undefined && (!Number.isInteger(lifetime) || lifetime <= 0)) throw new Error("--token-lifetime must be a positive integer");
  const emu = await startEmulator({
    port,
    host: values.host,
    requireGrantType: values["require-grant-type"],
    ...(lifetime !== undefined ? { tokenLifetimeSeconds: lifetime } : {}),
    ...(values.quiet ? {} : { log: (line: string) => console.log(line) }),
  });
  console.log(`Account API emulator listening on ${emu.url}`);
  console.log(`Users: ${DEFAULT_USERS.map((u) => `${u.username}${u.mfa ? " (MFA: any 6-digit code, once)" : ""}`).join(", ")}; password: see the README`);
  console.log(`OAuth client: ${DEFAULT_CLIENTS[0]!.clientId} (loopback redirect URIs)`);
  const stop = (): void => void emu.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  console.error(`emulator: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(2);
});
