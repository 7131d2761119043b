import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { _closeAll } from "../helpers";
import { connectProvider, type HostCheckResult, type HostDiffResult, type RecordedRequest } from "./rpc-client";

export type { HostCheckResult, HostDiffResult } from "./rpc-client";

/** Options of {@link startProviderHost}. */
export interface ProviderHostOptions {
  /** A Pulumi program folder with `@pulumi/pulumi` (and the providers' packages) installed. */
  programDir: string;
  /** Environment of the host process; default this process's. */
  env?: NodeJS.ProcessEnv;
  /** When given, every request sent to the host is appended here (to compare with the real engine's). */
  record?: RecordedRequest[];
}

/**
 * A running `@pulumi/pulumi/cmd/dynamic-provider` host (what `pulumi up` launches for dynamic providers),
 * driven over gRPC the way the engine drives it.
 */
export interface ProviderHost {
  /** Sends the stack config; keys listed in `secretKeys` go as secrets, as `pulumi config set --secret` does. */
  configure(config: Record<string, string>, secretKeys?: readonly string[]): Promise<void>;
  check(urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<HostCheckResult>;
  diff(id: string, urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<Omit<HostDiffResult, "diffs">>;
  /** Creates; a failure that left an object behind has `partial: { id, properties, reasons }` (the engine records it). */
  create(urn: string, properties: Record<string, unknown>): Promise<{ id: string; properties: Record<string, unknown> }>;
  read(id: string, urn: string, properties: Record<string, unknown>): Promise<{ id: string; properties: Record<string, unknown> }>;
  update(id: string, urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ properties: Record<string, unknown> }>;
  delete(id: string, urn: string, properties: Record<string, unknown>): Promise<void>;
  /** Everything the host printed on stdout and stderr so far. */
  output(): string;
  close(): Promise<void>;
}

/**
 * Spawns a provider process as the engine does and resolves the port it prints on its first stdout line;
 * everything else it prints is collected by `output()`.
 */
export async function _spawnProvider(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{ child: ChildProcess; port: number; output(): string; stdout(): string }> {
  const child: ChildProcess = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let stdout = "";
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let first = "";
    const onData = (d: Buffer): void => {
      first += d.toString();
      const m = /^(\d+)\s*\n/.exec(first);
      if (m) {
        child.stdout!.off("data", onData);
        child.stdout!.on("data", (more: Buffer) => {
          out += more.toString();
          stdout += more.toString();
        });
        out += first.slice(m[0].length);
        stdout += first.slice(m[0].length);
        resolve(Number(m[1]));
      } else if (first.includes("\n")) {
        reject(new Error(`the first line on stdout is not a port: ${JSON.stringify(first.split("\n")[0])}`));
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`the provider exited (${code}) before printing its port: ${out}`)));
  });
  return { child, port, output: () => out, stdout: () => stdout };
}

/** Stops a spawned provider (SIGTERM) and waits for it. */
export async function _stopProvider(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

/**
 * Starts the dynamic-provider host of an installed program and connects to it.
 *
 * @example
 * ```ts
 * const host = await startProviderHost({ programDir });
 * await host.configure({ "dns-account:password": "…" }, ["dns-account:password"]);
 * const { id, properties } = await host.create(urn, { __provider, username: "me@example.com" });
 * ```
 */
export async function startProviderHost(options: ProviderHostOptions): Promise<ProviderHost> {
  const programRequire = createRequire(path.join(options.programDir, "package.json"));
  const pulumiDir = path.dirname(programRequire.resolve("@pulumi/pulumi/package.json"));
  const spawned = await _spawnProvider(process.execPath, [path.join(pulumiDir, "cmd", "dynamic-provider", "index.js"), "127.0.0.1:0"], {
    cwd: options.programDir,
    ...(options.env ? { env: options.env } : {}),
  });
  const rpc = connectProvider(pulumiDir, spawned.port, options.record);
  return {
    async configure(config, secretKeys = []) {
      await rpc.configureArgs(config, secretKeys);
    },
    check: (urn, olds, news) => rpc.check(urn, olds, news),
    diff: async (id, urn, olds, news) => {
      const { changes, replaces, deleteBeforeReplace } = await rpc.diff(id, urn, olds, news);
      return { changes, replaces, deleteBeforeReplace };
    },
    create: (urn, properties) => rpc.create(urn, properties),
    read: async (id, urn, properties) => {
      const r = await rpc.read(id, urn, properties);
      return { id: r.id, properties: r.properties };
    },
    update: (id, urn, olds, news) => rpc.update(id, urn, olds, news),
    delete: (id, urn, properties) => rpc.delete(id, urn, properties),
    output: spawned.output,
    close: () => _closeAll(() => rpc.close(), () => _stopProvider(spawned.child)),
  };
}
