#!/usr/bin/env node
/**
 * `node dist/emulator/cli.js [--port N] …`: the same as `dns-account emulator`, kept as the emulator's
 * own entry point (one implementation). Options: --port (default 8787; 0 for any free port), --host,
 * --token-lifetime SECONDS (default about 30 days, as the service), --require-grant-type, --seed FILE,
 * --state FILE, --quiet, --help.
 */
import { run } from "../sdk/cli/main";

void run(["emulator", ...process.argv.slice(2)]);
