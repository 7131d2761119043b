/**
 * The entry of the OpenTofu/Terraform provider's single executable, `terraform-provider-dnsaccount_v<version>`
 * in the release zips (scripts/package-tofu.mjs): it compiles the face (./main and everything it runs:
 * grpc-js, the protocol's descriptor, the X.509 library) from the executable's asset `tofu.js`, with V8's
 * code cache from the asset `tofu.js.cache` when the build made one for this very Node binary (the
 * platform it was built on; a cross-built executable has none and compiles without), and starts it as
 * the npm bin (./bin) does: nothing on stdout before the handshake line, exit 1 without tofu's cookie.
 *
 * Unlike the Pulumi plugin's entry, it does not print before the face is loaded: the handshake line
 * carries the gRPC server's port and the certificate ./tls mints with the X.509 library, both made
 * inside the face.
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

const face = runBundle("terraform-provider-dnsaccount/tofu.js", getAsset("tofu.js", "utf8"), seaAsset("tofu.js.cache"), require).exports as typeof import("./main");
face.start();
