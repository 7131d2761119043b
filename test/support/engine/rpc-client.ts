import { createRequire } from "node:module";
import path from "node:path";

/* eslint-disable @typescript-eslint/no-explicit-any -- generated gRPC and protobuf classes are untyped here */

/** The engine's marker for a secret value on the wire. */
export const SECRET_SIG = { key: "4dabf18193072939515e22adb298388d", value: "1b47061264138c4ac30d75fd1eb44270" };

/** Wraps a value as the engine sends a secret. */
export function _secret(value: unknown): Record<string, unknown> {
  return { [SECRET_SIG.key]: SECRET_SIG.value, value };
}

/** True when the value is wrapped as a secret. */
export function _isSecret(value: unknown): boolean {
  return typeof value === "object" && value !== null && (value as Record<string, unknown>)[SECRET_SIG.key] === SECRET_SIG.value;
}

/** The value without its secret wrappers, at any depth. */
export function _reveal(value: unknown): any {
  if (_isSecret(value)) return _reveal((value as { value: unknown }).value);
  if (Array.isArray(value)) return value.map(_reveal);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, _reveal(v)]));
  return value;
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
  diffs: string[];
}

/** The ResourceProvider calls the engine makes, as plain objects (secrets stay wrapped as on the wire). */
export interface ProviderRpc {
  /** Configure with `args` (plain keys); keys in `secretKeys` go as secrets. */
  configureArgs(args: Record<string, unknown>, secretKeys?: readonly string[]): Promise<{ acceptSecrets: boolean; supportsPreview: boolean }>;
  /** Configure with the older `variables` map only. */
  configureVariables(variables: Record<string, string>): Promise<void>;
  checkConfig(urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<HostCheckResult>;
  diffConfig(urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<HostDiffResult>;
  getSchema(): Promise<string>;
  getPluginInfo(): Promise<string>;
  check(urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<HostCheckResult>;
  diff(id: string, urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<HostDiffResult>;
  /** Creates; a failure that left an object behind has `partial: { id, properties, reasons }` (the engine records it). */
  create(urn: string, properties: Record<string, unknown>, options?: { preview?: boolean }): Promise<{ id: string; properties: Record<string, unknown> }>;
  read(id: string, urn: string, properties: Record<string, unknown>, inputs?: Record<string, unknown>): Promise<{ id: string; properties: Record<string, unknown>; inputs?: Record<string, unknown> }>;
  update(id: string, urn: string, olds: Record<string, unknown>, news: Record<string, unknown>, options?: { preview?: boolean }): Promise<{ properties: Record<string, unknown> }>;
  /** Deletes; `oldInputs` are the state's inputs, which the real engine sends too (sendsOldInputsToDelete). */
  delete(id: string, urn: string, properties: Record<string, unknown>, oldInputs?: Record<string, unknown>): Promise<void>;
  invoke(token: string, args: Record<string, unknown>): Promise<{ outputs: Record<string, unknown>; failures: { property: string; reason: string }[] }>;
  close(): void;
}

/** A request the stand-in sent: its gRPC path and its fields (see {@link _messageJson}). */
export interface RecordedRequest {
  method: string;
  request: Record<string, any>;
}

/**
 * A protobuf message's set fields by their JSON names (camelCase, Structs as plain objects, maps as
 * objects), as protobuf's JSON form (and so PULUMI_DEBUG_GRPC) shows them: default values are left out.
 */
export function _messageJson(message: any): Record<string, any> {
  const out: Record<string, any> = {};
  for (const key of Object.keys(message.toObject())) {
    const name = key.replace(/(List|Map)$/, "");
    const getter = message[`get${key.charAt(0).toUpperCase()}${key.slice(1)}`];
    if (typeof getter !== "function") continue;
    let value = getter.call(message);
    if (value && typeof value.toJavaScript === "function") value = value.toJavaScript();
    else if (value && typeof value.toArray === "function" && typeof value.getLength === "function") value = Object.fromEntries(value.toArray());
    else if (value && typeof value.toObject === "function") value = _messageJson(value);
    if (value === undefined || value === "" || value === false || value === 0 || (Array.isArray(value) && value.length === 0) || (value instanceof Uint8Array && value.length === 0)) continue;
    if (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0 && !message[`has${key.charAt(0).toUpperCase()}${key.slice(1)}`]) continue;
    out[name] = value;
  }
  return out;
}

/** Drops undefined values, which protobuf Structs cannot carry. */
function plain(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

/** `@pulumi/pulumi`'s gRPC pieces, from the installed copy in `pulumiDir`. */
export function _grpcPieces(pulumiDir: string): Record<string, any> {
  const req = createRequire(path.join(pulumiDir, "package.json"));
  return {
    grpc: req("@grpc/grpc-js"),
    services: req("./proto/provider_grpc_pb.js"),
    messages: req("./proto/provider_pb.js"),
    engine: req("./proto/engine_pb.js"),
    engineServices: req("./proto/engine_grpc_pb.js"),
    status: req("./proto/status_pb.js"),
    empty: req("google-protobuf/google/protobuf/empty_pb.js"),
    Struct: req("google-protobuf/google/protobuf/struct_pb.js").Struct,
  };
}

/**
 * Connects to a ResourceProvider server on 127.0.0.1:`port` the way the engine does.
 *
 * @example
 * ```ts
 * const rpc = connectProvider(pulumiDir, port);
 * const { id } = await rpc.create(urn, { name: "Home" });
 * ```
 */
export function connectProvider(pulumiDir: string, port: number, record?: RecordedRequest[]): ProviderRpc {
  const { grpc, services, messages, status, empty, Struct } = _grpcPieces(pulumiDir);
  // Every request as it goes on the wire, in the shape PULUMI_DEBUG_GRPC logs the real engine's.
  const recorder = (options: any, nextCall: any): any =>
    new grpc.InterceptingCall(nextCall(options), {
      sendMessage: (message: any, next: (m: any) => void) => {
        record!.push({ method: options.method_definition.path, request: _messageJson(message) });
        next(message);
      },
    });
  const client = new services.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), record ? { interceptors: [recorder] } : {});
  const call = <T>(method: string, request: unknown): Promise<T> =>
    new Promise((resolve, reject) => {
      client[method](request, (err: Error | null, res: T) => (err ? reject(err) : resolve(res)));
    });
  const struct = (v: Record<string, unknown>): unknown => Struct.fromJavaScript(plain(v));
  // As the real engine does, every request about a resource names it three ways: urn, name and type.
  const named = (r: any, urn: string): void => {
    const parts = urn.split("::");
    r.setUrn(urn);
    if (typeof r.setName === "function") r.setName(parts[3] ?? "");
    if (typeof r.setType === "function") r.setType((parts[2] ?? "").split("$").pop() ?? "");
  };
  const failures = (res: any) => res.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() }));
  const checkRequest = (urn: string, olds: Record<string, unknown>, news: Record<string, unknown>) => {
    const r = new messages.CheckRequest();
    named(r, urn);
    r.setOlds(struct(olds));
    r.setNews(struct(news));
    return r;
  };
  const diffRequest = (id: string, urn: string, olds: Record<string, unknown>, news: Record<string, unknown>) => {
    const r = new messages.DiffRequest();
    r.setId(id);
    named(r, urn);
    r.setOlds(struct(olds));
    r.setNews(struct(news));
    return r;
  };
  const diffResult = (res: any): HostDiffResult => ({
    changes: (["unknown", "none", "some"] as const)[res.getChanges()] ?? "unknown",
    replaces: res.getReplacesList(),
    deleteBeforeReplace: res.getDeletebeforereplace(),
    diffs: res.getDiffsList(),
  });

  return {
    async configureArgs(args, secretKeys = []) {
      const wrapped: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(args)) wrapped[k] = secretKeys.includes(k) ? _secret(v) : v;
      const r = new messages.ConfigureRequest();
      r.setArgs(struct(wrapped));
      // What the real engine (3.248.0) promises in every Configure.
      r.setAcceptsecrets(true);
      r.setAcceptresources(true);
      r.setSendsOldInputs(true);
      r.setSendsOldInputsToDelete(true);
      const res = await call<any>("configure", r);
      return { acceptSecrets: res.getAcceptsecrets(), supportsPreview: res.getSupportspreview() };
    },
    async configureVariables(variables) {
      const r = new messages.ConfigureRequest();
      for (const [k, v] of Object.entries(variables)) r.getVariablesMap().set(k, v);
      r.setAcceptsecrets(true);
      await call("configure", r);
    },
    async checkConfig(urn, olds, news) {
      const res = await call<any>("checkConfig", checkRequest(urn, olds, news));
      return { inputs: res.getInputs()?.toJavaScript() ?? {}, failures: failures(res) };
    },
    async diffConfig(urn, olds, news) {
      return diffResult(await call<any>("diffConfig", diffRequest("", urn, olds, news)));
    },
    async getSchema() {
      const r = new messages.GetSchemaRequest();
      r.setVersion(0);
      return (await call<any>("getSchema", r)).getSchema();
    },
    async getPluginInfo() {
      return (await call<any>("getPluginInfo", new empty.Empty())).getVersion();
    },
    async check(urn, olds, news) {
      const res = await call<any>("check", checkRequest(urn, olds, news));
      return { inputs: res.getInputs()?.toJavaScript() ?? {}, failures: failures(res) };
    },
    async diff(id, urn, olds, news) {
      return diffResult(await call<any>("diff", diffRequest(id, urn, olds, news)));
    },
    async create(urn, properties, options = {}) {
      const r = new messages.CreateRequest();
      named(r, urn);
      r.setProperties(struct(properties));
      r.setPreview(options.preview === true);
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
    async read(id, urn, properties, inputs) {
      const r = new messages.ReadRequest();
      r.setId(id);
      named(r, urn);
      r.setProperties(struct(properties));
      if (inputs) r.setInputs(struct(inputs));
      const res = await call<any>("read", r);
      const read = res.getInputs()?.toJavaScript();
      return { id: res.getId(), properties: res.getProperties()?.toJavaScript() ?? {}, ...(read ? { inputs: read } : {}) };
    },
    async update(id, urn, olds, news, options = {}) {
      const r = new messages.UpdateRequest();
      r.setId(id);
      named(r, urn);
      r.setOlds(struct(olds));
      r.setNews(struct(news));
      r.setPreview(options.preview === true);
      const res = await call<any>("update", r);
      return { properties: res.getProperties()?.toJavaScript() ?? {} };
    },
    async delete(id, urn, properties, oldInputs) {
      const r = new messages.DeleteRequest();
      r.setId(id);
      named(r, urn);
      r.setProperties(struct(properties));
      if (oldInputs) r.setOldInputs(struct(oldInputs));
      await call("delete", r);
    },
    async invoke(token, args) {
      const r = new messages.InvokeRequest();
      r.setTok(token);
      r.setArgs(struct(args));
      const res = await call<any>("invoke", r);
      return { outputs: res.getReturn()?.toJavaScript() ?? {}, failures: failures(res) };
    },
    close: () => client.close(),
  };
}
