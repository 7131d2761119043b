/**
 * The OpenTofu/Terraform face's start-up (issue 34), after the handshake line (./announce, which the npm
 * bin and the single executable's entry run before they load this face's bundle: issue 35 §3).
 *
 * 1. AutoMTLS when ./announce minted our certificate: TLS 1.2 or later over HTTP/2, tofu's certificate
 *    required and verified (./tls).
 * 2. The gRPC server takes the connections waiting on the port ./announce opened (./server).
 * 3. SIGINT is ignored (./announce), as go-plugin's servers do: tofu forwards the user's Ctrl-C as
 *    StopProvider, and ends the provider with Shutdown, which makes the process exit (./server).
 * 4. The refresh tokens a password login minted in this process are revoked when it ends: on Shutdown
 *    (within {@link SHUTDOWN_REVOKE_MS}: go-plugin kills a provider 2 s after Shutdown), on SIGTERM
 *    (../shared/exit-revocation; never on SIGINT), and when tofu is gone without a Shutdown (killed):
 *    a connection to the port closed and tofu is no longer there (./parent), the same check every
 *    {@link PARENT_CHECK_MS} as a backstop, or stderr, a pipe only tofu reads, broke. The port is the
 *    face's own listener (./announce): the gRPC server gets each of its connections through grpc-js's
 *    connection injector, and this module sees each end.
 *
 * Nothing here loads the Pulumi plugin's modules, and the Pulumi plugin loads none of these.
 */
import type * as grpcTypes from "@grpc/grpc-js";
import { baselineWasmOnly } from "../shared/baseline-wasm";
import { revokeMintedAtEnd, revokeOnSignals } from "../shared/exit-revocation";
import { type Announced, tlsWanted } from "./announce";
import { log } from "./log";
import { parentGone } from "./parent";

export { tlsWanted };

/**
 * How long a Shutdown may wait for the service to revoke this process's password logins before the
 * process exits: go-plugin's client kills a provider that has not exited 2 s after Shutdown answered.
 */
export const SHUTDOWN_REVOKE_MS = 1_200;

/**
 * How often the face asks whether tofu is gone besides when a connection closes (./parent: two reads
 * of /proc): a provider whose tofu was killed before it connected, or whose connection's close was not
 * seen as tofu's death, exits within this (plus its revocation's bound, 5 s).
 */
export const PARENT_CHECK_MS = 1_000;

/**
 * Serves until Shutdown on what ./announce opened and printed. `started` runs once the server takes the
 * connections (the npm bin refreshes its code cache there). It may do its work at once or in a
 * `setImmediate` queued then, not later: V8's flags change (../shared/baseline-wasm) in the `setImmediate`
 * queued after it, and a code cache written after that is rejected at the next start.
 *
 * @example
 * ```ts
 * start(await announce());
 * ```
 */
export function start({ connections, mtls, parent }: Announced, started?: () => void): void {
  // SIGTERM revokes the password logins, then ends the process by it; SIGINT does neither.
  revokeOnSignals(["SIGTERM"]);
  let ending = false;
  /** Ends the process once: its password logins revoked first (for at most `withinMs`). */
  const end = (withinMs?: number): void => {
    if (ending) return;
    ending = true;
    void revokeMintedAtEnd(withinMs).finally(() => process.exit(0));
  };
  // stderr is a pipe only tofu reads: a write that fails there means tofu is gone (a Go plugin dies of it).
  process.stderr.on("error", () => end());
  const tofuGone = (): void => {
    if (ending || !parentGone(parent)) return;
    log("debug", "tofu is gone: revoking this process's logins and exiting");
    end();
  };
  // tofu's connection closes the moment tofu dies: asked then. The backstop asks every PARENT_CHECK_MS
  // too, for a tofu that died before it connected or when a close was not seen as its death.
  connections.onDisconnect(tofuGone);
  setInterval(tofuGone, PARENT_CHECK_MS).unref();
  try {
    const grpc = require("@grpc/grpc-js") as typeof grpcTypes;
    const { newFace, serve } = require("./server") as typeof import("./server");
    let credentials = grpc.ServerCredentials.createInsecure();
    if (mtls) {
      const { requireTls12 } = require("./tls") as typeof import("./tls");
      requireTls12();
      credentials = grpc.ServerCredentials.createSsl(Buffer.from(mtls.clientCert), [{ private_key: Buffer.from(mtls.own.keyPem), cert_chain: Buffer.from(mtls.own.certPem) }], true);
    }
    const { port } = serve(credentials, newFace(), () => end(SHUTDOWN_REVOKE_MS), connections);
    log("debug", "serving", { address: `127.0.0.1:${port}`, tls: mtls !== undefined });
  } catch (err) {
    process.stderr.write(`terraform-provider-dnsaccount: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  started?.();
  // After `started`'s code cache refresh (a setImmediate too): a cache written after a flag change is one
  // the next start's Node rejects.
  setImmediate(baselineWasmOnly);
}

/**
 * Runs, without serving anything, what a start and tofu's calls run (grpc-js, the services, the server
 * with its handlers and the provider schema, the GetProviderSchema answer's bytes, and every message's
 * functions of the codec once): the build runs it before writing the bundle's code cache, so that the
 * cache holds these functions compiled (the bundle's codec is static code: ./codec-static).
 *
 * @example
 * ```ts
 * warm(); // then script.createCachedData()
 * ```
 */
export function warm(): void {
  const grpc = require("@grpc/grpc-js") as typeof grpcTypes;
  const { newFace, serve } = require("./server") as typeof import("./server");
  const { serviceDefinitions } = require("./services") as typeof import("./services");
  const { codec } = require("./codec") as typeof import("./codec");
  const { schemaAnswerMessage } = require("./schema-answer") as typeof import("./schema-answer");
  require("./tls");
  // zod's code and the validators a working process uses first (../../sdk/client/warm), into the cache too.
  (require("../../sdk/client/warm") as typeof import("../../sdk/client/warm")).warmValidators();
  const idle = { port: 0, take: () => undefined, onDisconnect: () => undefined, close: () => undefined };
  const { server } = serve(grpc.ServerCredentials.createInsecure(), newFace(), () => undefined, idle);
  const getSchema = serviceDefinitions()["tfplugin6.Provider"]["GetProviderSchema"]!;
  getSchema.responseDeserialize(getSchema.responseSerialize(schemaAnswerMessage()));
  const { type, names } = codec();
  for (const name of names()) {
    const t = type(name);
    t.toObject(t.decode(t.encode(t.fromObject({})).finish()), { longs: Number, enums: String, defaults: true, oneofs: true });
  }
  server.forceShutdown();
}
