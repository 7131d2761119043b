/**
 * The plugin's start-up, as every face of it runs it: the npm bin (./bin, which loads the bundle of this
 * module), the single executable and `node dist/provider/plugin/main.js` (./main). It prints the port on
 * the first line of stdout and serves until the engine stops it; nothing else is ever written to stdout.
 *
 * The order is the engine's (issue 25): the port first (./listen), then the gRPC server and what it
 * loads (grpc-js, node:http2, the generated message classes), while the engine dials; the npm bin opens
 * and prints the port before it even reads the bundle.
 *
 * The arguments are read as the engine writes them (./args: `--tracing <endpoint>`, `--logtostderr`,
 * `-v=<level>`, then the engine's address). Once serving, the plugin watches its engine (./engine-watch)
 * and, when it is gone (a SIGKILL of `pulumi up` never stops its plugins), stops listening, revokes the
 * refresh tokens its password logins minted and exits: within 20 s.
 */
import { baselineWasmOnly } from "../shared/baseline-wasm";
import { revokeMintedAtEnd } from "../shared/exit-revocation";
import { parsePluginArgs } from "./args";
import { grpcHealthCheck, watchEngine } from "./engine-watch";
import { grpcPieces, pulumiMissing } from "./grpc-installed";
import { announce, type Listener } from "./listen";

function fail(message: string): never {
  process.stderr.write(`pulumi-resource-dns-account: ${message}\n`);
  process.exit(1);
}

/**
 * Starts the plugin (`pulumi-resource-dns-account [flags] <engine-address>`): prints the port (unless
 * `listener` is one already printed, as the npm bin's), then serves on it until the engine stops it or
 * is gone. `started` runs once the server takes the port's connections (the npm bin refreshes its code
 * cache there). It may do its work at once or in a `setImmediate` queued then, not later: V8's flags change
 * (../shared/baseline-wasm) in the `setImmediate` queued after it, and a code cache written after that is
 * rejected at the next start. Wrong arguments end the process (status 1, the flag named on stderr).
 *
 * @example
 * ```ts
 * start();
 * ```
 */
export function start(listener?: Listener, started?: () => void): void {
  const run = async (): Promise<void> => {
    const missing = pulumiMissing();
    if (missing) fail(missing);
    const args = parsePluginArgs(process.argv.slice(2));
    const port = listener ?? (await announce());
    const { serve } = require("./server") as typeof import("./server");
    const server = await serve(args.engineAddress, port);
    const watch = watchEngine({
      ...(args.engineAddress !== undefined ? { engineAddress: args.engineAddress } : {}),
      engineAlive: grpcHealthCheck(grpcPieces().grpc),
      parentPid: port.parentPid,
      // Nothing is written then: stdout and stderr are pipes to the engine, which may be gone.
      onGone: () => void stopAlone(server.close),
    });
    port.onDisconnect(() => watch.check());
    started?.();
    // After `started`'s code cache refresh (a setImmediate too): a cache written after a flag change is one
    // the next start's Node rejects.
    setImmediate(baselineWasmOnly);
  };
  run().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)));
}

/**
 * Ends the plugin whose engine is gone: no new connection or call is taken, the refresh tokens its
 * password logins minted are revoked (for at most 5 s), then the process exits.
 */
async function stopAlone(close: () => Promise<void>): Promise<void> {
  close().catch(() => undefined);
  await revokeMintedAtEnd();
  process.exit(0);
}

/**
 * Loads, without starting anything, what a start and the first operation load (the server, the gRPC
 * pieces, every resource's lifecycle and the SDK client under them), and runs the validators a working
 * process uses first (zod's code with them: ../../sdk/client/warm): the build runs it before writing the
 * bundle's code cache, so that the cache holds their compiled code.
 *
 * @example
 * ```ts
 * warm(); // then script.createCachedData()
 * ```
 */
export function warm(): void {
  (require("./grpc-installed") as typeof import("./grpc-installed")).grpcPieces();
  require("./server");
  require("../token/lifecycle");
  require("../dns-server/lifecycle");
  require("../device/lifecycle");
  require("../dedicated-ipv4/lifecycle");
  (require("../../sdk/client/warm") as typeof import("../../sdk/client/warm")).warmValidators();
}
