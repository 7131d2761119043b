import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import path from "node:path";
import { serve } from "../../provider/plugin/server";
import { _closeAll } from "./helpers";
import { _grpcPieces, connectProvider, type ProviderRpc } from "./engine/rpc-client";

/* eslint-disable @typescript-eslint/no-explicit-any -- generated gRPC classes are untyped here */

/** The native plugin's gRPC server running in the test process, with the calls the engine makes. */
export interface InProcessPlugin extends ProviderRpc {
  /** The server's port on 127.0.0.1. */
  port: number;
  /** Messages the plugin sent to the stand-in engine's Log service (empty without an engine). */
  logs: { severity: number; message: string }[];
  /** Resolves once the engine's log holds at least `count` messages (a lifecycle's warning is sent without waiting for it). */
  waitForLogs(count: number): Promise<void>;
  /** `@pulumi/pulumi`'s gRPC pieces (`grpc`, `messages`, `plugin`, `engine`, `empty`, `Struct`, …), for requests the RPC helpers do not build. */
  pieces: Record<string, any>;
  /** Sends `request` to the ResourceProvider method `method` (e.g. `"delete"`) and resolves its raw answer. */
  raw(method: string, request: unknown): Promise<any>;
  /** A protobuf Struct of a plain object. */
  struct(value: Record<string, unknown>): any;
  /** Closes the client, the server and the stand-in engine. */
  stop(): Promise<void>;
}

/** The folder of the `@pulumi/pulumi` the plugin's server loads its gRPC pieces from (./provider/plugin/grpc-installed). */
export function _pulumiDir(): string {
  return path.dirname(require.resolve("@pulumi/pulumi/package.json"));
}

/**
 * Starts the plugin's server (`serve()` of the compiled `dist/provider/plugin/server.js`) in the test
 * process on 127.0.0.1, with a stand-in engine that records the plugin's log messages (none with
 * `engine: false`: warnings then go to stderr), and connects to it as the engine does. The plugin's
 * tests through `npm pack` and a child process (test/provider/plugin/server.test.ts) stay the proof of
 * the start-up; this one is for what the server answers, quickly enough to run once per mutant.
 *
 * The server reads the process's environment as the plugin reads its own (DNS_ACCOUNT_*): a suite sets
 * and restores it around its tests.
 *
 * @example
 * ```ts
 * const plugin = await _startInProcessPlugin();
 * await plugin.configureArgs({ baseUrl: emu.url, apiKey }, ["apiKey"]);
 * const { id } = await plugin.create("urn:pulumi:dev::home::dns-account:index:DnsServer::home", { name: "Home" });
 * await plugin.stop();
 * ```
 */
export async function _startInProcessPlugin(options: { engine?: boolean } = {}): Promise<InProcessPlugin> {
  const pulumiDir = _pulumiDir();
  const pieces: Record<string, any> = { ..._grpcPieces(pulumiDir), plugin: createRequire(path.join(pulumiDir, "package.json"))("./proto/plugin_pb.js") };
  const { grpc, engineServices, empty, services, Struct } = pieces;
  const logs: { severity: number; message: string }[] = [];
  const arrived = new EventEmitter();
  let engine: any;
  let engineAddress: string | undefined;
  if (options.engine !== false) {
    engine = new grpc.Server();
    engine.addService(engineServices.EngineService, {
      log: (call: any, cb: any) => {
        logs.push({ severity: call.request.getSeverity(), message: call.request.getMessage() });
        cb(null, new empty.Empty());
        arrived.emit("log");
      },
    });
    const enginePort = await new Promise<number>((resolve, reject) =>
      engine.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err: Error | null, p: number) => (err ? reject(err) : resolve(p))),
    );
    engineAddress = `127.0.0.1:${enginePort}`;
  }
  const server = await serve(engineAddress);
  const rpc = connectProvider(pulumiDir, server.port);
  // A second client for requests the helpers do not build, with a receive limit above grpc-js's 4 MB.
  const client = new services.ResourceProviderClient(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure(), { "grpc.max_receive_message_length": -1 });
  return {
    ...rpc,
    port: server.port,
    logs,
    waitForLogs: (count) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (logs.length < count) return;
          arrived.off("log", check);
          resolve();
        };
        arrived.on("log", check);
        check();
      }),
    pieces,
    raw: (method, request) =>
      new Promise((resolve, reject) => {
        client[method](request, (err: Error | null, res: unknown) => (err ? reject(err) : resolve(res)));
      }),
    struct: (value) => Struct.fromJavaScript(JSON.parse(JSON.stringify(value))),
    stop: () =>
      _closeAll(
        () => rpc.close(),
        () => client.close(),
        () => server.close(),
        () => engine && new Promise<void>((resolve) => engine.tryShutdown(() => resolve())),
      ),
  };
}

/**
 * Sets the DNS_ACCOUNT_* variables of this process to `env` alone (every other DNS_ACCOUNT_* removed)
 * and returns a function that puts the previous ones back.
 *
 * @example
 * ```ts
 * const restore = _setDnsAccountEnv({ DNS_ACCOUNT_CONFIG_DIR: dir });
 * restore();
 * ```
 */
export function _setDnsAccountEnv(env: Record<string, string>): () => void {
  const saved = Object.entries(process.env).filter(([k]) => k.startsWith("DNS_ACCOUNT_"));
  for (const [k] of saved) delete process.env[k];
  Object.assign(process.env, env);
  return () => {
    for (const k of Object.keys(process.env)) if (k.startsWith("DNS_ACCOUNT_")) delete process.env[k];
    for (const [k, v] of saved) process.env[k] = v;
  };
}
