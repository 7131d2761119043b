import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

/* eslint-disable @typescript-eslint/no-explicit-any -- generated gRPC and protobuf classes are untyped here */

/** The engine's marker for a secret value on the wire. */
const SECRET_SIG = { key: "4dabf18193072939515e22adb298388d", value: "1b47061264138c4ac30d75fd1eb44270" };

/** Options of {@link startProviderHost}. */
export interface ProviderHostOptions {
  /** A Pulumi program folder with `@pulumi/pulumi` (and the providers' packages) installed. */
  programDir: string;
  /** Environment of the host process; default this process's. */
  env?: NodeJS.ProcessEnv;
}

/** A check result: the inputs to use and the failures found. */
export interface HostCheckResult {
  inputs: Record<string, unknown>;
  failures: { property: string; reason: string }[];
}

/** A diff result. */
export interface HostDiffResult {
  changes: "unknown" | "none" | "some";
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/**
 * A running `@pulumi/pulumi/cmd/dynamic-provider` host (what `pulumi up` launches for dynamic providers),
 * driven over gRPC the way the engine drives it.
 */
export interface ProviderHost {
  /** Sends the stack config; keys listed in `secretKeys` go as secrets, as `pulumi config set --secret` does. */
  configure(config: Record<string, string>, secretKeys?: readonly string[]): Promise<void>;
  check(urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<HostCheckResult>;
  diff(id: string, urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<HostDiffResult>;
  /** Creates; a failure that left an object behind has `partial: { id, properties, reasons }` (the engine records it). */
  create(urn: string, properties: Record<string, unknown>): Promise<{ id: string; properties: Record<string, unknown> }>;
  read(id: string, urn: string, properties: Record<string, unknown>): Promise<{ id: string; properties: Record<string, unknown> }>;
  update(id: string, urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ properties: Record<string, unknown> }>;
  delete(id: string, urn: string, properties: Record<string, unknown>): Promise<void>;
  /** Everything the host printed on stdout and stderr so far. */
  output(): string;
  close(): Promise<void>;
}

/** Drops undefined values, which protobuf Structs cannot carry. */
function plain(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
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
  const req = createRequire(path.join(pulumiDir, "package.json"));
  const grpc = req("@grpc/grpc-js") as any;
  const services = req("./proto/provider_grpc_pb.js") as any;
  const messages = req("./proto/provider_pb.js") as any;
  const { Struct } = req("google-protobuf/google/protobuf/struct_pb.js") as any;
  const status = req("./proto/status_pb.js") as any;

  const child: ChildProcess = spawn(process.execPath, [path.join(pulumiDir, "cmd", "dynamic-provider", "index.js"), "127.0.0.1:0"], {
    cwd: options.programDir,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let first = "";
    const onData = (d: Buffer): void => {
      first += d.toString();
      const m = /^(\d+)\s*\n/.exec(first);
      if (m) {
        child.stdout!.off("data", onData);
        child.stdout!.on("data", (more: Buffer) => (out += more.toString()));
        out += first.slice(m[0].length);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`the provider host exited (${code}) before printing its port: ${out}`)));
  });
  const client = new services.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());

  const call = <T>(method: string, request: unknown): Promise<T> =>
    new Promise((resolve, reject) => {
      client[method](request, (err: Error | null, res: T) => (err ? reject(err) : resolve(res)));
    });
  const struct = (v: Record<string, unknown>): unknown => Struct.fromJavaScript(plain(v));

  return {
    async configure(config, secretKeys = []) {
      const args: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(config)) {
        args[k] = secretKeys.includes(k) ? { [SECRET_SIG.key]: SECRET_SIG.value, value: v } : v;
      }
      const r = new messages.ConfigureRequest();
      r.setArgs(struct(args));
      r.setAcceptsecrets(true);
      await call("configure", r);
    },
    async check(urn, olds, news) {
      const r = new messages.CheckRequest();
      r.setUrn(urn);
      r.setOlds(struct(olds));
      r.setNews(struct(news));
      const res = await call<any>("check", r);
      return {
        inputs: res.getInputs()?.toJavaScript() ?? {},
        failures: res.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(id, urn, olds, news) {
      const r = new messages.DiffRequest();
      r.setId(id);
      r.setUrn(urn);
      r.setOlds(struct(olds));
      r.setNews(struct(news));
      const res = await call<any>("diff", r);
      const changes = (["unknown", "none", "some"] as const)[res.getChanges()] ?? "unknown";
      return { changes, replaces: res.getReplacesList(), deleteBeforeReplace: res.getDeletebeforereplace() };
    },
    async create(urn, properties) {
      const r = new messages.CreateRequest();
      r.setUrn(urn);
      r.setProperties(struct(properties));
      let res: any;
      try {
        res = await call<any>("create", r);
      } catch (err) {
        // The engine's partial-state path: an object was made but not finished (ErrorResourceInitFailed).
        const bin = (err as { metadata?: { get(key: string): (string | Buffer)[] } }).metadata?.get("grpc-status-details-bin")?.[0];
        if (Buffer.isBuffer(bin)) {
          for (const detail of status.Status.deserializeBinary(bin).getDetailsList()) {
            if (detail.getTypeName() !== "pulumirpc.ErrorResourceInitFailed") continue;
            const failed = messages.ErrorResourceInitFailed.deserializeBinary(detail.getValue());
            Object.assign(err as object, { partial: { id: failed.getId(), properties: failed.getProperties()?.toJavaScript() ?? {}, reasons: failed.getReasonsList() } });
          }
        }
        throw err;
      }
      return { id: res.getId(), properties: res.getProperties()?.toJavaScript() ?? {} };
    },
    async read(id, urn, properties) {
      const r = new messages.ReadRequest();
      r.setId(id);
      r.setUrn(urn);
      r.setProperties(struct(properties));
      const res = await call<any>("read", r);
      return { id: res.getId(), properties: res.getProperties()?.toJavaScript() ?? {} };
    },
    async update(id, urn, olds, news) {
      const r = new messages.UpdateRequest();
      r.setId(id);
      r.setUrn(urn);
      r.setOlds(struct(olds));
      r.setNews(struct(news));
      const res = await call<any>("update", r);
      return { properties: res.getProperties()?.toJavaScript() ?? {} };
    },
    async delete(id, urn, properties) {
      const r = new messages.DeleteRequest();
      r.setId(id);
      r.setUrn(urn);
      r.setProperties(struct(properties));
      await call("delete", r);
    },
    output: () => out,
    async close() {
      client.close();
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
    },
  };
}
