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
 * 6. The refresh tokens a password login minted in this process are revoked when it ends: on Shutdown
 *    (within {@link SHUTDOWN_REVOKE_MS}: go-plugin kills a provider 2 s after Shutdown), on SIGTERM
 *    (../shared/exit-revocation; never on SIGINT), and when tofu is gone without a Shutdown (killed):
 *    a connection to the port closed and tofu is no longer there (./parent), or stderr, a pipe only tofu
 *    reads, broke. The port is the face's own listener, which serve() (./server) takes: the gRPC server
 *    gets each of its connections through grpc-js's connection injector, and this module sees each end.
 *
 * Nothing here loads the Pulumi plugin's modules, and the Pulumi plugin loads none of these.
 */
import type * as grpcTypes from "@grpc/grpc-js";
import net from "node:net";
import { revokeMintedAtEnd, revokeOnSignals } from "../shared/exit-revocation";
import { checkHandshake, handshakeLine, HandshakeError } from "./handshake";
import { keepStdoutClean, log } from "./log";
import { parentGone } from "./parent";

/**
 * How long a Shutdown may wait for the service to revoke this process's password logins before the
 * process exits: go-plugin's client kills a provider that has not exited 2 s after Shutdown answered.
 */
export const SHUTDOWN_REVOKE_MS = 1_200;

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
  // SIGTERM revokes the password logins, then ends the process by it; SIGINT does neither.
  revokeOnSignals(["SIGTERM"]);
  process.on("SIGINT", () => log("debug", "SIGINT ignored: tofu stops the provider through StopProvider and Shutdown"));
  const parent = process.ppid;
  let ending = false;
  /** Ends the process once: its password logins revoked first (for at most `withinMs`). */
  const end = (withinMs?: number): void => {
    if (ending) return;
    ending = true;
    void revokeMintedAtEnd(withinMs).finally(() => process.exit(0));
  };
  // stderr is a pipe only tofu reads: a write that fails there means tofu is gone (a Go plugin dies of it).
  process.stderr.on("error", () => end());
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
    // The face's own listener, whose connections' ends it sees; the gRPC server takes each connection from it.
    const listener = await listen((socket) => {
      // A reset from a killed tofu must not end the process unrevoked; the close below follows it.
      socket.on("error", () => undefined);
      socket.once("close", () => {
        if (ending || !parentGone(parent)) return;
        log("debug", "tofu is gone: revoking this process's logins and exiting");
        end();
      });
    });
    const { port } = serve(credentials, newFace(), () => end(SHUTDOWN_REVOKE_MS), listener);
    announce(handshakeLine(port, cert));
    log("debug", "serving", { address: `127.0.0.1:${port}`, tls: cert !== undefined });
    started?.();
  };
  run().catch((err: unknown) => fail(`terraform-provider-dnsaccount: ${err instanceof Error ? err.message : String(err)}`));
}

/** Listens on 127.0.0.1, on a port the system picks, showing each connection to `watch` first (the gRPC server takes it next). */
function listen(watch: (socket: net.Socket) => void): Promise<net.Server> {
  const server = net.createServer(watch);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
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
