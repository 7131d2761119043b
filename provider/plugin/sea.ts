/**
 * The entry of the plugin's single executable (scripts/package-plugin.mjs): as the npm bin (./bin), it
 * opens and prints its port first (./listen), then compiles the plugin (./start and everything it runs,
 * @pulumi/pulumi's gRPC pieces and the rules parser inside) from the executable's asset `plugin.js`, with
 * V8's code cache from the asset `plugin.js.cache` when the build made one for this very Node binary (the
 * platform it was built on; a cross-built executable has none and compiles without).
 *
 * @example
 * ```sh
 * pulumi-resource-dns-account 127.0.0.1:50051   # prints e.g. 40123
 * ```
 */
import { getAsset } from "node:sea";
import { runBundle } from "../shared/load-bundle";
import { seaAsset } from "../shared/sea-asset";
import { announce } from "./listen";

void announce().then((listener) => {
  const text = getAsset("plugin.js", "utf8");
  const plugin = runBundle("pulumi-resource-dns-account/plugin.js", text, seaAsset("plugin.js.cache"), require).exports as typeof import("./start");
  plugin.start(listener);
});
