/** `dns-account emulator`: the embedded Account API emulator, for local dry runs. */
import { type Command, note, out, UsageError } from "../command";

export const emulator: Command = {
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
    const { startEmulator, DEFAULT_USERS } = require("../../../emulator/server") as typeof import("../../../emulator/server");
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
};
