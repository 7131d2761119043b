#!/usr/bin/env node
/**
 * `terraform-provider-dnsaccount`, the npm bin: the OpenTofu/Terraform face as tofu starts it. It prints
 * the handshake line first (./announce: the cookie checked, our certificate minted with node:crypto, the
 * port open), then loads the face in one step, from one minified bundle (`tofu.bundle.js`, built by
 * scripts/bundle.mjs, its gRPC pieces inside) with V8's code cache beside it, as the Pulumi plugin's bin
 * does, and starts it on that port (./main). tofu dials while the face loads; its connection waits.
 *
 * The build bundles this file too, with ./announce and ../shared/load-bundle inside, so the process loads
 * two files of the package: this one and the bundle. The two faces share no bundle.
 *
 * @example
 * ```sh
 * TF_PLUGIN_MAGIC_COOKIE=d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2 terraform-provider-dnsaccount
 * # 1|6|tcp|127.0.0.1:40123|grpc|MIIB...
 * ```
 */
import path from "node:path";
import { cacheUsed, loadBundle, refreshCache } from "../shared/load-bundle";
import { announce, cannotStart } from "./announce";

const file = path.join(__dirname, "tofu.bundle.js");
void announce().then((announced) => {
  const face = loadBundle(file) as typeof import("./main");
  // With no code cache this Node accepts, one is written once the server is up (tofu is waiting for it first).
  face.start(announced, () => {
    if (!cacheUsed(file)) setImmediate(() => refreshCache(file));
  });
}).catch(cannotStart);
