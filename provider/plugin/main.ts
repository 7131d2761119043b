#!/usr/bin/env node
/**
 * `pulumi-resource-dns-account` unbundled: the native provider plugin, as Pulumi starts it
 * (`pulumi-resource-dns-account <engine-address>`). It prints its port on the first line of stdout and
 * serves until the engine stops it; nothing else is ever written to stdout.
 *
 * The npm bin is ./bin (one bundle with its code cache); this file is the entry of the plugin's single
 * executable (scripts/package-plugin.mjs), where `./grpc-installed` is swapped for `./grpc-bundled`.
 *
 * @example
 * ```sh
 * pulumi-resource-dns-account 127.0.0.1:50051   # prints e.g. 40123
 * ```
 */
import { start } from "./start";

start();
