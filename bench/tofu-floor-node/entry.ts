/**
 * The Node tofu floor's start (`npm run bench -- tofu`, face "tofu node floor"): the handshake line as
 * soon as the port listens, then the provider (./floor, bundled beside this file as `floor.bundle.js`)
 * loaded, with its V8 code cache (`floor.bundle.js.cache`) when there is one that this Node accepts.
 *
 * Before the line it loads `node:net` and `node:crypto` alone: AutoMTLS's certificate is minted by
 * provider/tofu/tls.ts (node:crypto, about a millisecond) when tofu sent `PLUGIN_CLIENT_CERT` and
 * `TF_DISABLE_PLUGIN_TLS` is not set; the listener accepts connections paused, and the gRPC server takes
 * them once loaded (tofu's first bytes wait in the kernel meanwhile). SIGINT is ignored, as go-plugin's
 * servers do. No magic-cookie check: the floor is started by the bench's tofu only.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import { Script } from "node:vm";
import { mintServerCertificate } from "../../provider/tofu/tls";
import type { Opened } from "./floor";

/**
 * Loads a CommonJS bundle through `vm.Script`, with its code cache when present: `file + ".cache"`, or
 * `file + ".ours.cache"` under BENCH_NODE_FLOOR_SCHEMA=ours (warmed with that mode's code, ./build).
 *
 * @example
 * ```ts
 * const { exports } = loadWithCache("/x/floor.bundle.js");
 * ```
 */
export function loadWithCache(file: string): { exports: unknown; script: Script } {
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(`${file}${process.env["BENCH_NODE_FLOOR_SCHEMA"] === "ours" ? ".ours.cache" : ".cache"}`);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${readFileSync(file, "utf8")}\n})`, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const mod = { exports: {} as unknown };
  (script.runInThisContext() as (e: unknown, r: NodeRequire, m: { exports: unknown }, f: string, d: string) => void)(mod.exports, createRequire(file), mod, file, path.dirname(file));
  return { exports: mod.exports, script };
}

function main(): void {
  process.on("SIGINT", () => undefined);
  const clientCert = process.env["TF_DISABLE_PLUGIN_TLS"] ? undefined : process.env["PLUGIN_CLIENT_CERT"];
  const own = clientCert ? mintServerCertificate() : undefined;
  const waiting: net.Socket[] = [];
  let accept: ((socket: net.Socket) => void) | undefined;
  const listener = net.createServer({ pauseOnConnect: true }, (socket) => (accept ? accept(socket) : void waiting.push(socket)));
  listener.listen(0, "127.0.0.1", () => {
    const { port } = listener.address() as net.AddressInfo;
    process.stdout.write(`1|6|tcp|127.0.0.1:${port}|grpc|${own?.derBase64 ?? ""}\n`);
    const bundle = path.join(__dirname, "floor.bundle.js");
    const floor = (process.env["BENCH_NODE_FLOOR_NO_CACHE"] ? require(bundle) : loadWithCache(bundle).exports) as typeof import("./floor");
    const opened: Opened = {
      take(fn) {
        accept = fn;
        for (const socket of waiting.splice(0)) fn(socket);
      },
      close: () => listener.close(),
      ...(clientCert && own ? { mtls: { clientCert, certPem: own.certPem, keyPem: own.keyPem } } : {}),
    };
    floor.serve(opened);
    // As ours does (provider/shared/baseline-wasm.ts, both faces): undici's parser compiled by Liftoff alone, so
    // a process that made its requests does not first finish V8's background optimisation of it to exit.
    setImmediate(() => (require("node:v8") as typeof import("node:v8")).setFlagsFromString("--liftoff-only"));
  });
}

if (require.main === module) main();
