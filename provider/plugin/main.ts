#!/usr/bin/env node
/**
 * `pulumi-resource-dns-account`: the native provider plugin, as Pulumi starts it
 * (`pulumi-resource-dns-account <engine-address>`). It prints its port on the first line of stdout and
 * serves until the engine stops it; nothing else is ever written to stdout.
 *
 * The same file is the entry of the plugin's single executable (scripts/package-plugin.mjs), where
 * `./grpc-installed` is swapped for `./grpc-bundled`.
 *
 * @example
 * ```sh
 * pulumi-resource-dns-account 127.0.0.1:50051   # prints e.g. 40123
 * ```
 */
import { pulumiMissing } from "./grpc-installed";

function fail(message: string): never {
  process.stderr.write(`pulumi-resource-dns-account: ${message}\n`);
  process.exit(1);
}

async function start(): Promise<void> {
  const missing = pulumiMissing();
  if (missing) fail(missing);
  const args = process.argv.slice(2).filter((a) => !a.startsWith("-"));
  const { serve } = require("./server") as typeof import("./server");
  const { port } = await serve(args[0]);
  // The port is the first and only line on stdout: the engine reads it to connect.
  process.stdout.write(`${port}\n`);
}

start().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
