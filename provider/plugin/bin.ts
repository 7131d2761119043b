#!/usr/bin/env node
/**
 * `pulumi-resource-dns-account`, the npm bin: the native provider plugin as Pulumi starts it
 * (`pulumi-resource-dns-account <engine-address>`). It opens and prints its port first (./listen), then
 * loads the plugin in one step, from one minified bundle (`plugin.bundle.js`, built by scripts/bundle.mjs
 * at `npm run build`/prepare, @pulumi/pulumi's gRPC pieces inside) with V8's code cache beside it, and
 * starts it on that port (./start).
 *
 * The build bundles this file too, with ./load-bundle and ./listen inside, so the process loads two files
 * of the package: this one and the bundle.
 *
 * @example
 * ```sh
 * pulumi-resource-dns-account 127.0.0.1:50051   # prints e.g. 40123
 * ```
 */
import path from "node:path";
import { cacheUsed, loadBundle, refreshCache } from "../shared/load-bundle";
import { announce } from "./listen";

const file = path.join(__dirname, "plugin.bundle.js");
// The port first, before the bundle is read: the engine dials it while the plugin loads (./listen).
void announce().then((listener) => {
  const plugin = loadBundle(file) as typeof import("./start");
  // With no code cache this Node accepts, one is written once the server is up (the engine is waiting for it first).
  plugin.start(listener, () => {
    if (!cacheUsed(file)) setImmediate(() => refreshCache(file));
  });
});
