/**
 * The OpenTofu/Terraform face's start-up (issue 34): what `terraform-provider-dnsaccount` does when tofu
 * (through go-plugin) starts it.
 *
 * 1. Without `TF_PLUGIN_MAGIC_COOKIE` it says on stderr that it is a plugin, and exits 1 (./handshake).
 * 2. `console.*` goes to stderr as hclog lines (./log); stdout carries the handshake line and nothing else.
 * 3. AutoMTLS unless `TF_DISABLE_PLUGIN_TLS` is set or tofu sent no `PLUGIN_CLIENT_CERT` (as go-plugin's
 *    servers decide): TLS 1.2 or later over HTTP/2, tofu's certificate required and verified, our own
 *    self-signed certificate in the handshake line (./tls).
 * 4. The handshake line `1|6|tcp|127.0.0.1:<port>|grpc|<cert>` once the server listens.
 * 5. SIGINT is ignored, as go-plugin's servers do: tofu forwards the user's Ctrl-C as StopProvider, and
 *    ends the provider with Shutdown, which makes the process exit (./server).
 *
 * Nothing here loads the Pulumi plugin's modules, and the Pulumi plugin loads none of these.
 */
import type * as grpcTypes from "@grpc/grpc-js";
import { checkHandshake, handshakeLine, HandshakeError } from "./handshake";
import { keepStdoutClean, log } from "./log";

function fail(message: string): never {
  process.stderr.write(message.endsWith("\n") ? message : `${message}\n`);
  process.exit(1);
}

/**
 * Whether AutoMTLS is on: `PLUGIN_CLIENT_CERT` set and `TF_DISABLE_PLUGIN_TLS` not.
 *
 * @example
 * ```ts
 * tlsWanted({ PLUGIN_CLIENT_CERT: pem }); // true
 * ```
 */
export function tlsWanted(env: NodeJS.ProcessEnv): boolean {
  return !env["TF_DISABLE_PLUGIN_TLS"] && !!env["PLUGIN_CLIENT_CERT"];
}

/**
 * Starts the provider as go-plugin expects, and serves until Shutdown. `started` runs once the handshake
 * line is out (the npm bin refreshes its code cache there).
 *
 * @example
 * ```ts
 * start();
 * ```
 */
export function start(started?: () => void): void {
  try {
    checkHandshake(process.env);
  } catch (err) {
    if (err instanceof HandshakeError) fail(err.message);
    throw err;
  }
  const announce = keepStdoutClean();
  process.on("SIGINT", () => log("debug", "SIGINT ignored: tofu stops the provider through StopProvider and Shutdown"));
  const run = async (): Promise<void> => {
    const grpc = require("@grpc/grpc-js") as typeof grpcTypes;
    const { newFace, serve } = require("./server") as typeof import("./server");
    let credentials = grpc.ServerCredentials.createInsecure();
    let cert: string | undefined;
    if (tlsWanted(process.env)) {
      const { clientCertificate, mintServerCertificate, requireTls12 } = require("./tls") as typeof import("./tls");
      const clientCert = clientCertificate(process.env["PLUGIN_CLIENT_CERT"]);
      const own = await mintServerCertificate();
      requireTls12();
      credentials = grpc.ServerCredentials.createSsl(Buffer.from(clientCert), [{ private_key: Buffer.from(own.keyPem), cert_chain: Buffer.from(own.certPem) }], true);
      cert = own.derBase64;
    } else {
      log("warn", "serving without TLS (TF_DISABLE_PLUGIN_TLS is set, or no PLUGIN_CLIENT_CERT)");
    }
    const { port } = await serve(credentials, newFace(), () => process.exit(0));
    announce(handshakeLine(port, cert));
    log("debug", "serving", { address: `127.0.0.1:${port}`, tls: cert !== undefined });
    started?.();
  };
  run().catch((err: unknown) => fail(`terraform-provider-dnsaccount: ${err instanceof Error ? err.message : String(err)}`));
}

/**
 * Loads, without starting anything, what a start loads (grpc-js, the protocol's descriptor, the server,
 * the X.509 library): the build runs it before writing the bundle's code cache.
 *
 * @example
 * ```ts
 * warm(); // then script.createCachedData()
 * ```
 */
export function warm(): void {
  const grpc = require("@grpc/grpc-js") as typeof grpcTypes;
  void grpc.ServerCredentials;
  require("./server");
  require("./tls");
  require("reflect-metadata");
  require("@peculiar/x509");
}
