/**
 * The entry of the OpenTofu/Terraform provider's single executable, `terraform-provider-dnsaccount_v<version>`
 * in the release zips (scripts/package-tofu.mjs). As the npm bin (./bin) does, it prints the handshake line
 * first (./announce: nothing on stdout before it, exit 1 without tofu's cookie), then compiles the face
 * (./main and everything it runs: grpc-js, the messages' static code and the build's schema answer) from the executable's asset
 * `tofu.js`, with V8's code cache from the asset `tofu.js.cache` when the build made one for this very Node
 * binary (the platform it was built on; a cross-built executable has none and compiles without), and
 * starts it on the port the line named.
 *
 * @example
 * ```sh
 * TF_PLUGIN_MAGIC_COOKIE=d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2 PLUGIN_PROTOCOL_VERSIONS=6 ./terraform-provider-dnsaccount_v0.2.0
 * # 1|6|tcp|127.0.0.1:40123|grpc|
 * ```
 */
import { getAsset } from "node:sea";
import { runBundle } from "../shared/load-bundle";
import { seaAsset } from "../shared/sea-asset";
import { announce, cannotStart } from "./announce";

void announce().then((announced) => {
  const face = runBundle("terraform-provider-dnsaccount/tofu.js", getAsset("tofu.js", "utf8"), seaAsset("tofu.js.cache"), require).exports as typeof import("./main");
  face.start(announced);
}).catch(cannotStart);
