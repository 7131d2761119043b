/**
 * The native plugin's face: Pulumi's ResourceProvider gRPC service, built from the pieces `@pulumi/pulumi`
 * ships (its service definition and message classes, its `@grpc/grpc-js` and `google-protobuf`), that
 * dispatches every resource call to the same engine-agnostic lifecycles as the dynamic provider.
 *
 * Why not the SDK's `provider.main()`: its server answers CheckConfig and DiffConfig with UNIMPLEMENTED
 * and its Configure hands no configuration to the provider, while accepting secrets (so inputs arrive
 * wrapped); a provider whose configuration is its account needs all three. The start-up contract is
 * main()'s: listen on 127.0.0.1:0, print the port as the first line of stdout, nothing before it; here
 * the port is open and printed before this module and its gRPC pieces load (./listen, ./start).
 *
 * The protocol as the real engine (Pulumi 3.248.0, recorded with PULUMI_DEBUG_GRPC by
 * test/engine/plugin-yaml.test.ts and test/engine/stand-in-honest.test.ts) speaks it, and our answers:
 * - Each command (the preview of `up`, its update, `destroy`'s preview, `destroy`) starts the plugin
 *   afresh. Handshake comes first (engineAddress, root/program directory, configureWithUrn,
 *   supportsViews, supportsRefreshBeforeUpdate, invokeWithPreview): we answer UNIMPLEMENTED, as
 *   `@pulumi/pulumi`'s own `provider.main()` does, and the engine falls back to the old start-up
 *   (Configure carries the provider's urn anyway). GetPluginInfo follows (the package version).
 * - In a YAML program's commands the engine sends no GetSchema; `pulumi-language-yaml` does, on a plugin
 *   process it starts itself once per command (Handshake, GetPluginInfo, GetSchema, nothing else;
 *   PULUMI_DEBUG_GRPC does not log it: test/engine/check-create-wire.test.ts). Only version 0 is served.
 * - Check and the Create that follows it reach the same process, and Create's `properties` are Check's
 *   answered `inputs` in value but not in bytes: the engine marshals them again, with Go's random map
 *   order (test/engine/check-create-wire.test.ts), so Create decodes them afresh.
 * - CheckConfig gets the stack config as plain strings, the secret apiKey unwrapped; we answer it with
 *   the secret keys wrapped. Configure gets both `variables` (`dns-account:config:<key>`, secrets in
 *   clear) and `args` (as CheckConfig answered), with acceptSecrets, acceptResources, sendsOldInputs,
 *   sendsOldInputsToDelete and the provider's id/urn/name/type; we read `args` (the `variables` only from
 *   an engine that sends nothing else) and answer acceptSecrets and supportsPreview, not
 *   acceptResources/acceptOutputs. DiffConfig runs once a provider is in the state.
 * - Check runs in the preview and again in the update, with randomSeed, name and type (we read `type`,
 *   else the URN; we make nothing random). A value not yet known (a preview's output) arrives as the
 *   sentinel string 04da6b54-80e4-46f7-96ec-b56ff0331ba9, even in number and boolean fields, in Check
 *   and in Create/Update with `preview: true`, which create nothing and echo the inputs, secrets wrapped.
 * - Create and Delete also carry resourceStatusAddress/Token (views; we report none); Diff, Update and
 *   Delete carry oldInputs (we work from the state's properties, but Read and Delete take the inputs'
 *   credentials and Delete their declared `deleteOnDestroy`); Read (refresh) carries the stored
 *   inputs; Invoke carries `preview: true` in previews (our functions only read, so they answer alike).
 * - Cancel is called as every command ends: we answer at once (no call of ours outlives the command).
 *   Parameterize, GetMapping(s), Construct and Call are never sent for this package, and answer
 *   UNIMPLEMENTED like the SDK's providers (no parameterized or bridged package, no components).
 */
import { ConfigError, DnsAccountError } from "../../sdk/errors";
import { VERSION } from "../../sdk/version";
import { type Lifecycle, PartialCreateError, type ProviderContext, secretSafeFailures } from "../shared/lifecycle";
import { fromEnvironment } from "../credentials";
import { withDeclaredRule } from "../shared/retain";
import { containsUnknown } from "../shared/unknown";
import { fromVariables, knownKey, type PluginConfig, providerName, readConfig, unknownKeyWords } from "./config";
import { invoke, isFunction } from "./functions";
import { type GrpcPieces, grpcPieces } from "./grpc-installed";
import { type Listener, listen } from "./listen";
import { schemaText, secretConfig, secretInputs, secretOutputs } from "./schema";
import { unwrap, wire } from "./values";

/* eslint-disable @typescript-eslint/no-explicit-any -- the generated gRPC and protobuf classes are untyped here */

type Json = Record<string, unknown>;
type Callback = (err: unknown, value?: unknown, trailer?: unknown) => void;
type Call = { request: any };

const LIFECYCLES: Record<string, () => Lifecycle<any, any>> = {
  "dns-account:index:Token": () => require("../token/lifecycle") as Lifecycle<any, any>,
  "dns-account:index:DnsServer": () => require("../dns-server/lifecycle") as Lifecycle<any, any>,
  "dns-account:index:Device": () => require("../device/lifecycle") as Lifecycle<any, any>,
  "dns-account:index:DedicatedIpv4": () => require("../dedicated-ipv4/lifecycle") as Lifecycle<any, any>,
};

/** The resource type of a request: its `type` field, else the URN's last type segment. */
function typeOf(req: any): string {
  const type = typeof req.getType === "function" ? req.getType() : "";
  if (type) return type;
  const parts = String(req.getUrn()).split("::");
  return (parts[2] ?? "").split("$").pop() ?? "";
}

/**
 * Starts the plugin's gRPC server on `listener`'s port (./listen; a new one on 127.0.0.1 when not given)
 * and resolves that port. The server takes over the port's connections, those that waited for it first,
 * through grpc-js's connection injector, with the same HTTP/2 settings as a port it bound itself.
 *
 * @example
 * ```ts
 * const { port } = await serve(process.argv[2]);
 * console.log(port);
 * ```
 */
export async function serve(engineAddress: string | undefined, listener?: Listener): Promise<{ port: number; close(): Promise<void> }> {
  const p = grpcPieces();
  const { grpc, messages, struct } = p;
  let config: PluginConfig = { fields: {}, allowInsecureHttp: false };
  let engine: any;

  // Warnings go to the engine's log (shown by `pulumi up`), else to stderr. Resolves once the engine has
  // the message, so a configuration warning is logged before the answer that follows it.
  const log = (message: string): Promise<void> => {
    if (!engineAddress) return void process.stderr.write(`warning: ${message}\n`), Promise.resolve();
    engine ??= new p.engineServices.EngineClient(engineAddress, grpc.credentials.createInsecure());
    const r = new p.engine.LogRequest();
    r.setSeverity(p.engine.LogSeverity.WARNING);
    r.setMessage(message);
    return new Promise<void>((resolve) => engine.log(r, () => resolve()));
  };
  const warn = (message: string): void => void log(message);
  let credentialHint: string | undefined;
  const ctx = (): ProviderContext => ({
    config: config.fields,
    allowInsecureHttp: config.allowInsecureHttp,
    warn,
    skipCredentialsValidation: config.skipCredentialsValidation === true,
    ...(credentialHint ? { credentialHint } : {}),
  });
  // Each unknown configuration key is reported once per process (CheckConfig and Configure both see it).
  const warned = new Set<string>();
  const toStruct = (v: Json): any => struct.Struct.fromJavaScript(v);
  const fromStruct = (s: any): Json => (s ? (s.toJavaScript() as Json) : {});
  const failure = (f: { property: string; reason: string }): any => {
    const m = new messages.CheckFailure();
    m.setProperty(f.property);
    m.setReason(f.reason);
    return m;
  };
  const lifecycle = (type: string): Lifecycle<any, any> => {
    const load = LIFECYCLES[type];
    if (!load) throw new ConfigError(`unknown resource type ${type}`, { field: "type" });
    return load();
  };
  /** Runs a handler; a thrown error becomes the gRPC error (a partial create carries its state). */
  const handle =
    (fn: (req: any) => Promise<unknown>) =>
    (call: Call, callback: Callback): void => {
      fn(call.request).then(
        (res) => callback(null, res),
        (err: unknown) => callback(grpcError(p, err)),
      );
    };

  const implementation = {
    getPluginInfo: handle(async () => {
      const info = new p.plugin.PluginInfo();
      info.setVersion(VERSION);
      return info;
    }),
    getSchema: handle(async (req) => {
      if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
      const res = new messages.GetSchemaResponse();
      res.setSchema(schemaText(VERSION));
      return res;
    }),
    checkConfig: handle(async (req) => {
      const { value, secretKeys } = unwrap(fromStruct(req.getNews()));
      // The provider's own credentials beside the environment's: a conflict of origins fails here, once,
      // in the provider's words (the apiKey of provider kids / dns-account:apiKey), not on every resource.
      const provider = providerName(req.getUrn?.(), req.getName?.());
      const { config: read, failures } = await readConfig(value, { provider, env: fromEnvironment() });
      for (const message of unknownKeyWords(read.unknownKeys ?? [], provider).warnings) {
        if (!warned.has(message)) (warned.add(message), await log(message));
      }
      const res = new messages.CheckResponse();
      const secrets = new Set([...secretConfig(), ...secretKeys]);
      res.setInputs(toStruct(wire(value, secrets)));
      // The engine prints the value of the property a failure names: never one that holds a secret.
      res.setFailuresList(secretSafeFailures(failures, secrets).map(failure));
      return res;
    }),
    diffConfig: handle(async (req) => {
      const olds = unwrap(fromStruct(req.getOlds())).value;
      const news = unwrap(fromStruct(req.getNews())).value;
      const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(knownKey);
      const changed = keys.filter((k) => JSON.stringify(olds[k] ?? null) !== JSON.stringify(news[k] ?? null));
      const res = new messages.DiffResponse();
      res.setChanges(changed.length ? messages.DiffResponse.DiffChanges.DIFF_SOME : messages.DiffResponse.DiffChanges.DIFF_NONE);
      res.setDiffsList(changed);
      return res;
    }),
    configure: handle(async (req) => {
      const args = req.getArgs() ? fromStruct(req.getArgs()) : fromVariables(req.getVariablesMap().toArray());
      const provider = providerName(req.getUrn?.(), req.getName?.());
      const { config: read, failures } = await readConfig(unwrap(args).value, { provider });
      if (failures.length > 0) {
        throw new ConfigError(`The provider's configuration is wrong: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`, { field: failures[0]!.property });
      }
      config = read;
      const words = unknownKeyWords(read.unknownKeys ?? [], provider);
      credentialHint = words.credentialHint;
      for (const message of words.warnings) {
        if (!warned.has(message)) (warned.add(message), await log(message));
      }
      const res = new messages.ConfigureResponse();
      res.setAcceptsecrets(true);
      res.setSupportspreview(true);
      res.setAcceptresources(false);
      res.setAcceptoutputs(false);
      return res;
    }),
    check: handle(async (req) => {
      const type = typeOf(req);
      const olds = unwrap(fromStruct(req.getOlds())).value;
      const { value: news, secretKeys } = unwrap(fromStruct(req.getNews()));
      const result = await lifecycle(type).check(ctx(), olds, news);
      const res = new messages.CheckResponse();
      const secrets = new Set([...secretInputs(type), ...secretKeys]);
      res.setInputs(toStruct(wire(result.inputs as object, secrets)));
      // The engine prints the value of the property a failure names: never one that holds a secret.
      res.setFailuresList(secretSafeFailures(result.failures, secrets).map(failure));
      return res;
    }),
    diff: handle(async (req) => {
      const type = typeOf(req);
      const olds = unwrap(fromStruct(req.getOlds())).value;
      const news = unwrap(fromStruct(req.getNews())).value;
      const result = await lifecycle(type).diff(ctx(), req.getId(), olds, news);
      const res = new messages.DiffResponse();
      const D = messages.DiffResponse.DiffChanges;
      res.setChanges(result.changes ? D.DIFF_SOME : D.DIFF_NONE);
      res.setReplacesList(result.replaces);
      res.setDeletebeforereplace(result.deleteBeforeReplace);
      if (result.changes) {
        const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => Object.hasOwn(news, k) && JSON.stringify(olds[k] ?? null) !== JSON.stringify(news[k] ?? null));
        res.setDiffsList(keys);
      }
      return res;
    }),
    create: handle(async (req) => {
      const type = typeOf(req);
      const { value: news, secretKeys } = unwrap(fromStruct(req.getProperties()));
      const secrets = new Set([...secretProperties(type), ...secretKeys]);
      const res = new messages.CreateResponse();
      // A preview creates nothing: the outputs are the inputs (the rest unknown to the engine).
      if (req.getPreview()) {
        res.setProperties(toStruct(wire(news, secrets)));
        return res;
      }
      try {
        const { id, outs } = await lifecycle(type).create(ctx(), news);
        res.setId(id);
        res.setProperties(toStruct(wire(outs as object, secrets)));
        return res;
      } catch (err) {
        if (err instanceof PartialCreateError) Object.assign(err, { partialProperties: wire(err.outs, secrets) });
        throw err;
      }
    }),
    read: handle(async (req) => {
      const type = typeOf(req);
      const props = unwrap(fromStruct(req.getProperties()));
      const oldInputs = fromStruct(req.getInputs());
      const res = new messages.ReadResponse();
      if (type === "dns-account:index:Token" && Object.keys(props.value).length === 0) {
        throw new ConfigError(
          "A Token cannot be imported: the service cannot show an existing token. Declare a Token with refreshToken, profile or credentialCommand to adopt one",
          { field: "id" },
        );
      }
      // The stored inputs' credentials, when they hold some: a state written before credentials changes
      // were recorded (0.3.0) keeps a rotated Token's revoked refresh token in its outputs only.
      const result = await lifecycle(type).read(ctx(), req.getId(), withInputCredentials(props.value, unwrap(oldInputs).value));
      if (result.id === undefined) return res; // gone: no id
      const secrets = new Set([...secretProperties(type), ...props.secretKeys]);
      res.setId(result.id);
      res.setProperties(toStruct(wire((result.props ?? {}) as object, secrets)));
      const inputs = result.inputs !== undefined ? { value: result.inputs as Json, secretKeys: props.secretKeys } : unwrap(oldInputs);
      if (result.inputs !== undefined || Object.keys(oldInputs).length > 0) {
        res.setInputs(toStruct(wire(inputs.value, new Set([...secretInputs(type), ...inputs.secretKeys]))));
      }
      return res;
    }),
    update: handle(async (req) => {
      const type = typeOf(req);
      const olds = unwrap(fromStruct(req.getOlds()));
      const news = unwrap(fromStruct(req.getNews()));
      const secrets = new Set([...secretProperties(type), ...olds.secretKeys, ...news.secretKeys]);
      const res = new messages.UpdateResponse();
      if (req.getPreview()) {
        res.setProperties(toStruct(wire({ ...olds.value, ...news.value }, secrets)));
        return res;
      }
      const { outs } = await lifecycle(type).update(ctx(), req.getId(), olds.value, news.value);
      res.setProperties(toStruct(wire(outs as object, secrets)));
      return res;
    }),
    delete: handle(async (req) => {
      const type = typeOf(req);
      const oldInputs = typeof req.getOldInputs === "function" ? unwrap(fromStruct(req.getOldInputs())).value : {};
      // The last inputs' `deleteOnDestroy`, when declared, decides what destroy does (provider/shared/retain.ts).
      await lifecycle(type).remove(ctx(), req.getId(), withDeclaredRule(withInputCredentials(unwrap(fromStruct(req.getProperties())).value, oldInputs), oldInputs));
      return new p.empty.Empty();
    }),
    invoke: handle(async (req) => {
      const token = req.getTok();
      if (!isFunction(token)) throw new ConfigError(`unknown function ${token}`, { field: "tok" });
      const args = unwrap(fromStruct(req.getArgs())).value;
      const outputs = await invoke(ctx(), token, args);
      const res = new messages.InvokeResponse();
      res.setReturn(toStruct(wire(outputs, new Set())));
      return res;
    }),
    cancel: handle(async () => new p.empty.Empty()),
    attach: handle(async () => new p.empty.Empty()),
  };

  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(p.services.ResourceProviderService, implementation);
  const port = listener ?? (await listen());
  const injector = server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  port.take((socket) => {
    injector.injectConnection(socket);
    // The HTTP/2 session now owns the connection, which arrived paused: let it read.
    socket.resume();
  });
  return {
    port: port.port,
    close: async () => {
      engine?.close();
      await Promise.all([port.close(), new Promise<void>((resolve) => server.tryShutdown(() => resolve()))]);
    },
  };
}

/**
 * The state's properties with the credentials its inputs declare, when they declare known ones: Read and
 * Delete then use what the program gave last (a rotated Token's refresh token), not what an older
 * version of this plugin left in the outputs. Since 0.4.0 an update records new credentials in the
 * outputs too (the lifecycles' `credentialsChanged`), so both agree.
 */
function withInputCredentials(props: Json, inputs: Json): Json {
  const declared = inputs.credentials;
  if (declared === undefined || declared === null || typeof declared !== "object" || containsUnknown(declared)) return props;
  return { ...props, credentials: declared };
}

/**
 * The properties of `type` that go back as secrets whatever the engine sent: its secret outputs, and its
 * secret inputs too, which a preview (and a state carrying inputs) echoes as properties. An engine that
 * sends a secret input unwrapped (an older engine, a program that forgot `pulumi.secret`) gets it back
 * wrapped, never in plain.
 */
function secretProperties(type: string): Set<string> {
  return new Set([...secretOutputs(type), ...secretInputs(type)]);
}

/** A gRPC error for `err`: its message (never a secret: the package's errors name fields, not values); a partial create's state in ErrorResourceInitFailed. */
function grpcError(p: GrpcPieces, err: unknown): object {
  // Our errors show their stable code (as explain() does for the resources'), e.g. for a function's base_url_conflict.
  const message = err instanceof DnsAccountError && !err.message.includes(err.code) ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);
  const metadata = new p.grpc.Metadata();
  const status = new p.status.Status();
  status.setCode(p.grpc.status.UNKNOWN);
  status.setMessage(message);
  if (err instanceof PartialCreateError) {
    const detail = new p.messages.ErrorResourceInitFailed();
    detail.setId(err.id);
    detail.setProperties(p.struct.Struct.fromJavaScript((err as unknown as { partialProperties: Json }).partialProperties));
    detail.setReasonsList([message]);
    const any = new p.any.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: p.grpc.status.UNKNOWN, details: message, metadata };
}
