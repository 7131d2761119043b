#!/usr/bin/env node
/**
 * `terraform-provider-dnsaccount`, the npm bin: the OpenTofu/Terraform face as tofu starts it (./main).
 * It loads the face in one step, from one minified bundle (`tofu.bundle.js`, built by scripts/bundle.mjs,
 * its gRPC and X.509 pieces inside) with V8's code cache beside it, as the Pulumi plugin's bin does; the
 * two faces share no bundle.
 *
 * @example
 * ```sh
 * TF_PLUGIN_MAGIC_COOKIE=d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2 terraform-provider-dnsaccount
 * # 1|6|tcp|127.0.0.1:40123|grpc|MIIB...
 * ```
 */
import path from "node:path";
import { cacheUsed, loadBundle, refreshCache } from "../shared/load-bundle";

const file = path.join(__dirname, "tofu.bundle.js");
const face = loadBundle(file) as typeof import("./main");
// With no code cache this Node accepts, one is written once the handshake is out (tofu is waiting for it first).
face.start(() => {
  if (!cacheUsed(file)) setImmediate(() => refreshCache(file));
});
