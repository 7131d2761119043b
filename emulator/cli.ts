#!/usr/bin/env node
/**
 * `node dist/emulator/cli.js [--port N] …`: the same as `dns-account emulator`, kept as the emulator's
 * own entry point. Options: --port (default 8787), --host, --token-lifetime SECONDS,
 * --grant-type-optional (1.11 behaviour), --quiet.
 */
import { run } from "../sdk/cli/main";

void run(["emulator", ...process.argv.slice(2)]);
