import { createRequire } from "node:module";
import path from "node:path";
import { _spawnProvider, _stopProvider } from "./provider-host";
import { _closeAll } from "../helpers";
import { _grpcPieces, connectProvider, type ProviderRpc, type RecordedRequest } from "./rpc-client";

/* eslint-disable @typescript-eslint/no-explicit-any -- generated gRPC classes are untyped here */

/** The plugin as the engine runs it: its RPCs, plus what it logged to the engine and printed. */
export interface PluginHost extends ProviderRpc {
  /** Messages the plugin sent to the engine's Log service. */
  logs: { severity: number; message: string }[];
  /** Everything the plugin printed (stderr, and stdout after the port line). */
  output(): string;
  /** What it printed on stdout after the port line (the engine expects nothing). */
  stdout(): string;
  stop(): Promise<void>;
}

/**
 * Starts `pulumi-resource-dns-account` from an installed program's `node_modules/.bin` as Pulumi starts
 * a plugin found on PATH (`pulumi-resource-dns-account <engine-address>`), with a stand-in engine that
 * records the plugin's log messages, and connects to it; `record`, when given, collects every request
 * sent (for test/engine/stand-in-honest.test.ts, which compares them with the real engine's). `bin`
 * starts another executable instead (the plugin's single executable, for bench/).
 *
 * @example
 * ```ts
 * const plugin = await startPlugin({ programDir });
 * await plugin.configureArgs({ apiKey }, ["apiKey"]);
 * ```
 */
export async function startPlugin(options: { programDir: string; env?: NodeJS.ProcessEnv; record?: RecordedRequest[]; bin?: string }): Promise<PluginHost> {
  const programRequire = createRequire(path.join(options.programDir, "package.json"));
  const pulumiDir = path.dirname(programRequire.resolve("@pulumi/pulumi/package.json"));
  const { grpc, engineServices, empty } = _grpcPieces(pulumiDir);
  // The engine's side of logging: the plugin reports warnings through Engine.Log.
  const logs: { severity: number; message: string }[] = [];
  const engine = new grpc.Server();
  engine.addService(engineServices.EngineService, {
    log: (call: any, cb: any) => {
      logs.push({ severity: call.request.getSeverity(), message: call.request.getMessage() });
      cb(null, new empty.Empty());
    },
  });
  const enginePort = await new Promise<number>((resolve, reject) =>
    engine.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err: Error | null, p: number) => (err ? reject(err) : resolve(p))),
  );
  const bin = options.bin ?? path.join(options.programDir, "node_modules", ".bin", "pulumi-resource-dns-account");
  const spawned = await _spawnProvider(bin, [`127.0.0.1:${enginePort}`], { cwd: options.programDir, ...(options.env ? { env: options.env } : {}) });
  const rpc = connectProvider(pulumiDir, spawned.port, options.record);
  return {
    ...rpc,
    logs,
    output: spawned.output,
    stdout: spawned.stdout,
    stop: () => _closeAll(() => rpc.close(), () => _stopProvider(spawned.child), () => new Promise<void>((resolve) => engine.tryShutdown(() => resolve()))),
  };
}
