/**
 * The OpenTofu/Terraform face's gRPC server (issue 34): `tfplugin6.Provider`, go-plugin's
 * `plugin.GRPCController` (Shutdown ends the process, or go-plugin kills it after 2 s), `plugin.GRPCStdio`
 * and `plugin.GRPCBroker` answered UNIMPLEMENTED (go-plugin's client tolerates both), and
 * `grpc.health.v1.Health` answering SERVING.
 *
 * The schema is the package schema's, for tofu (./schema): the provider block, four resources and four
 * data sources; their calls run on the lifecycles (./resources). The provider block is read by the same
 * {@link readConfig} as the Pulumi plugin's configuration: at ValidateProviderConfig with the values
 * known so far (those not known yet are skipped, not refused), at ConfigureProvider in full, beside the
 * environment (a conflict of origins is the provider block's, once). Every answer carries diagnostics,
 * never a gRPC error: what a call throws is an error diagnostic in tofu's words.
 *
 * StopProvider (tofu's Ctrl-C) aborts the {@link Face.signal} of the calls in flight, then arms a fresh
 * one, as terraform-plugin-go cancels every request's context. Each call takes the signal when it starts
 * (its context's `signal`) and its requests give up with `stopped` once it aborts: reads, plans, logins,
 * retry and Retry-After waits and idempotent requests at once; a create (POST) already sent is let finish,
 * so the object it made is recorded (state, or a partial create's tainted state) and never left outside
 * every state. Its later steps are not sent: a stopped multi-step create ends as a partial create.
 *
 * A provider block with values not known yet (an attribute of a resource not created yet) configures the
 * provider "deferred": its service checks at plan are skipped, as with `skip_credentials_validation`, with
 * a warning that says why; a refresh keeps the state as it is; an apply, a data source or an import
 * with values still unknown fails naming them, rather than calling the service with other credentials.
 */
import * as grpc from "@grpc/grpc-js";
import { fromEnvironment } from "../credentials";
import { type PluginConfig, readConfig } from "../shared/provider-config";
import { containsUnknown } from "../shared/unknown";
import { log } from "./log";
import { applyResource, type ContextFor, importResource, planResource, privateAt, readDataSource, readResource, servedKinds, validateResource } from "./resources";
import { type Diagnostic, errorDiagnostic, failureDiagnostics, TOFU_WORDS, tofuWords } from "./words";
import { providerSchema, schemaAnswerMessage, SERVER_CAPABILITIES } from "./schema-answer";
import { serviceDefinitions } from "./services";
import { blockShape, dynamic, readDynamic, type Shape, type TfValue, tfName, toProgram } from "./values";
import type net from "node:net";
import type { Connections } from "./announce";

/* eslint-disable @typescript-eslint/no-explicit-any -- messages are the loader's plain objects */

type Unary = (call: grpc.ServerUnaryCall<any, any>, callback: grpc.sendUnaryData<any>) => void;

/**
 * What the server's handlers share: the abort signal of the calls in flight.
 *
 * @example
 * ```ts
 * const face: Face = newFace();
 * face.stop("StopProvider");
 * ```
 */
export interface Face {
  /** The signal a call takes when it starts; StopProvider aborts it. */
  signal(): AbortSignal;
  /** Aborts the calls in flight (StopProvider) and arms a fresh signal for the calls after. */
  stop(reason: string): void;
}

/**
 * A {@link Face} whose signal StopProvider aborts.
 *
 * @example
 * ```ts
 * const face = newFace();
 * await lifecycle.read(inputs, { signal: face.signal() });
 * ```
 */
export function newFace(): Face {
  let controller = new AbortController();
  return {
    signal: () => controller.signal,
    stop(reason) {
      const stopping = controller;
      controller = new AbortController();
      stopping.abort(new Error(reason));
    },
  };
}

/** An error diagnostic for a type this provider does not have. */
function unknownType(kind: "resource" | "data source", typeName: string): Diagnostic {
  return {
    severity: "ERROR",
    summary: `Unknown ${kind} type`,
    detail: `The provider dnsaccount has no ${kind} type "${typeName}".`,
  };
}

/** The provider block's values (known ones only) as the Pulumi faces' configuration keys. */
function providerValues(shape: Shape, config: TfValue): Record<string, unknown> {
  return knownValues(shape, config).known;
}

/** The provider block's known values (the Pulumi faces' keys), and the attributes not known yet (tofu's names). */
function knownValues(shape: Shape, config: TfValue): { known: Record<string, unknown>; unknown: string[] } {
  const program = (toProgram(config, shape) ?? {}) as Record<string, unknown>;
  const known: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [k, v] of Object.entries(program)) {
    if (containsUnknown(v)) unknown.push(tfName(k));
    else known[k] = v;
  }
  return { known, unknown: unknown.sort() };
}

/** The provider block's attributes in words: `api_key`, `api_key and username`. */
function attributeList(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * The error diagnostic of a call that needs the service while the provider block still holds values not
 * known yet (`deferred`): it names them, and does not call the service with other credentials.
 */
function deferredError(summary: string, deferred: readonly string[]): Diagnostic {
  const which = attributeList(deferred);
  return {
    severity: "ERROR",
    summary,
    detail:
      `The provider block's ${which} ${deferred.length === 1 ? "is" : "are"} not known yet (${deferred.length === 1 ? "it comes" : "they come"} from a resource not applied yet), ` +
      "so the provider cannot call the service with the credentials it was given. Apply the resource it comes from first (tofu apply -target=…), or give the provider known values.",
  };
}

/** The tfplugin6.Provider handlers. */
function providerHandlers(face: Face): Record<string, Unary> {
  // The build's schema in the bundle (./schema-answer), not made again from the package schema.
  const schema = providerSchema();
  const kinds = servedKinds(schema);
  const providerShape = blockShape(schema.provider.block);
  let config: PluginConfig = { fields: {}, allowInsecureHttp: false };
  /** The provider block's attributes not known yet at ConfigureProvider (tofu's names): empty when none. */
  let deferred: string[] = [];
  /** The contexts of one call: the provider's configuration and the call's stop signal (`offline` too when the service must not be asked). */
  const contextFor =
    (signal: AbortSignal, offline = false): ContextFor =>
    (warnings) => ({
      config: config.fields,
      allowInsecureHttp: config.allowInsecureHttp,
      skipCredentialsValidation: config.skipCredentialsValidation === true,
      words: TOFU_WORDS,
      signal,
      ...(offline ? { offline: true } : {}),
      warn: (message) => {
        log("warn", message);
        warnings.push({ severity: "WARNING", summary: tofuWords(message), detail: "" });
      },
    });
  /** Runs a handler with the call's stop signal; what it throws becomes an error diagnostic (the package's errors name fields, never values). */
  const handle =
    (name: string, fn: (request: any, signal: AbortSignal) => Promise<Record<string, unknown>>): Unary =>
    (call, callback) => {
      fn(call.request, face.signal()).then(
        (response) => callback(null, response),
        (err: unknown) => callback(null, { diagnostics: [errorDiagnostic(`${name} failed`, err)] }),
      );
    };
  const resource = (type: string) => kinds.resources.get(type);
  const dataSource = (type: string) => kinds.dataSources.get(type);
  return {
    GetMetadata: (_call, callback) =>
      callback(null, {
        server_capabilities: SERVER_CAPABILITIES,
        diagnostics: [],
        data_sources: Object.keys(schema.dataSources).map((type_name) => ({ type_name })),
        resources: Object.keys(schema.resources).map((type_name) => ({ type_name })),
      }),
    // The answer never changes for a build: its bytes are the build's (./schema-answer), not encoded again here.
    GetProviderSchema: (_call, callback) => callback(null, schemaAnswerMessage()),
    GetResourceIdentitySchemas: (_call, callback) => callback(null, { identity_schemas: {}, diagnostics: [] }),
    // Values not known yet (another resource's output) are skipped here, not refused; ConfigureProvider sees them all.
    ValidateProviderConfig: handle("Validating the provider block", async (request) => {
      const { failures } = await readConfig(providerValues(providerShape, readDynamic(request.config)));
      return { diagnostics: failureDiagnostics(failures) };
    }),
    ConfigureProvider: handle("Configuring the provider", async (request) => {
      log("debug", "ConfigureProvider", { terraform_version: String(request.terraform_version) });
      const { known, unknown } = knownValues(providerShape, readDynamic(request.config));
      // Deferred, the environment's credentials are not held against the block's (a base_url conflict):
      // the block's own, once known, decide; the apply's ConfigureProvider checks them all.
      const { config: read, failures } = await readConfig(known, unknown.length > 0 ? {} : { env: fromEnvironment() });
      if (failures.length > 0) return { diagnostics: failureDiagnostics(failures) };
      config = read;
      deferred = unknown;
      if (unknown.length === 0) return { diagnostics: [] };
      const which = attributeList(unknown);
      log("info", "ConfigureProvider: deferred", { unknown: which });
      return {
        diagnostics: [
          {
            severity: "WARNING",
            summary: "Provider configured with values not known yet",
            detail:
              `The provider block's ${which} ${unknown.length === 1 ? "is" : "are"} not known until the resource ${unknown.length === 1 ? "it comes" : "they come"} from is applied: ` +
              "this plan does not check the credentials against the service (as with skip_credentials_validation) and does not refresh what the provider manages. " +
              `An apply that still finds ${which} unknown fails.`,
          },
        ],
      };
    }),
    ValidateResourceConfig: handle("Validating the resource", async (request, signal) => {
      const kind = resource(String(request.type_name));
      if (!kind) return { diagnostics: [unknownType("resource", String(request.type_name))] };
      return { diagnostics: await validateResource(kind, readDynamic(request.config), contextFor(signal)) };
    }),
    UpgradeResourceState: handle("Upgrading the state", async (request) => {
      const kind = resource(String(request.type_name));
      if (!kind) return { diagnostics: [unknownType("resource", String(request.type_name))] };
      // Schema version 0 is the only one so far: the state is re-encoded as it is.
      const raw = request.raw_state?.json as Buffer | undefined;
      const state = raw && raw.length > 0 ? (JSON.parse(raw.toString("utf8")) as TfValue) : null;
      return { upgraded_state: dynamic(state, kind.shape), diagnostics: [] };
    }),
    ReadResource: handle("Reading the resource", async (request, signal) => {
      const kind = resource(String(request.type_name));
      if (!kind) return { diagnostics: [unknownType("resource", String(request.type_name))] };
      // Deferred: the state stays as it is (ConfigureProvider's warning said the plan does not refresh).
      if (deferred.length > 0) return { new_state: request.current_state, diagnostics: [], private: request.private };
      const at = Date.now();
      const { state, diagnostics } = await readResource(kind, readDynamic(request.current_state), contextFor(signal), at);
      return { new_state: dynamic(state, kind.shape), diagnostics, private: privateAt(at) };
    }),
    PlanResourceChange: handle("Planning the change", async (request, signal) => {
      const kind = resource(String(request.type_name));
      if (!kind) return { diagnostics: [unknownType("resource", String(request.type_name))] };
      // Deferred: no service check (the credentials are not known yet), as skip_credentials_validation.
      const plan = await planResource(kind, readDynamic(request.prior_state), readDynamic(request.proposed_new_state), readDynamic(request.config), contextFor(signal, deferred.length > 0), request.prior_private);
      return { planned_state: dynamic(plan.planned, kind.shape), requires_replace: plan.requiresReplace, diagnostics: plan.diagnostics, planned_private: request.prior_private };
    }),
    ApplyResourceChange: handle("Applying the change", async (request, signal) => {
      const kind = resource(String(request.type_name));
      if (!kind) return { diagnostics: [unknownType("resource", String(request.type_name))] };
      if (deferred.length > 0) return { new_state: request.prior_state, diagnostics: [deferredError(`Applying ${kind.tfType} failed`, deferred)], private: request.planned_private };
      const { state, diagnostics } = await applyResource(kind, readDynamic(request.prior_state), readDynamic(request.planned_state), readDynamic(request.config), contextFor(signal), request.planned_private);
      return { new_state: dynamic(state, kind.shape), diagnostics, private: privateAt(Date.now()) };
    }),
    ImportResourceState: handle("Importing the resource", async (request, signal) => {
      const type = String(request.type_name);
      const kind = resource(type);
      if (!kind) return { imported_resources: [], diagnostics: [unknownType("resource", type)] };
      if (deferred.length > 0) return { imported_resources: [], diagnostics: [deferredError(`Importing ${type} failed`, deferred)] };
      const { state, diagnostics } = await importResource(kind, String(request.id), contextFor(signal));
      return { imported_resources: state === null ? [] : [{ type_name: type, state: dynamic(state, kind.shape), private: privateAt(Date.now()) }], diagnostics };
    }),
    ValidateDataResourceConfig: (call, callback) => {
      const type = String(call.request.type_name);
      callback(null, { diagnostics: dataSource(type) ? [] : [unknownType("data source", type)] });
    },
    ReadDataSource: handle("Reading the data source", async (request, signal) => {
      const type = String(request.type_name);
      const kind = dataSource(type);
      if (!kind) return { diagnostics: [unknownType("data source", type)] };
      if (deferred.length > 0) return { diagnostics: [deferredError(`Reading data source ${type} failed`, deferred)] };
      const { state, diagnostics } = await readDataSource(kind, readDynamic(request.config), contextFor(signal));
      return { state: dynamic(state, kind.shape), diagnostics };
    }),
    StopProvider: (_call, callback) => {
      log("info", "StopProvider: aborting the calls in flight");
      face.stop("tofu stopped the provider (StopProvider)");
      callback(null, { Error: "" });
    },
  };
}

/** A streaming handler that answers UNIMPLEMENTED. */
function unimplementedStream(what: string): (call: grpc.ServerWritableStream<any, any> | grpc.ServerDuplexStream<any, any>) => void {
  return (call) => call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: `terraform-provider-dnsaccount does not serve ${what}` });
}

/**
 * A started server: its port, and the server (to stop it).
 *
 * @example
 * ```ts
 * const { port, server }: Served = serve(credentials, newFace(), () => process.exit(0), listener);
 * ```
 */
export interface Served {
  port: number;
  server: grpc.Server;
}

/**
 * The connections of a `net.Server` already listening on 127.0.0.1, as {@link serve} takes them.
 *
 * @example
 * ```ts
 * const connections = serverConnections(net.createServer().listen(0, "127.0.0.1"));
 * ```
 */
export function serverConnections(listener: net.Server): Connections {
  const address = listener.address();
  if (address === null || typeof address === "string") throw new Error("serve() takes a TCP listener that is already listening");
  return {
    port: address.port,
    take: (accept) => void listener.on("connection", accept),
    onDisconnect: (fn) => void listener.on("connection", (socket: net.Socket) => socket.once("close", fn)),
    close: () => void listener.close(),
  };
}

/**
 * Serves the gRPC server on `listener`: the connections ./announce opened (or a `net.Server` already
 * listening on 127.0.0.1), each handed to the server through grpc-js's connection injector, with
 * `credentials` (mTLS, or plain when TLS is off), so the listener's owner sees every connection and its
 * end (tofu's death, ./parent). `onShutdown` runs once go-plugin's Shutdown has been answered and the
 * connections have closed; the listener is closed then.
 *
 * @example
 * ```ts
 * const listener = net.createServer().listen(0, "127.0.0.1");
 * const { port } = serve(grpc.ServerCredentials.createInsecure(), newFace(), () => process.exit(0), listener);
 * ```
 */
export function serve(credentials: grpc.ServerCredentials, face: Face, onShutdown: () => void, listener: Connections | net.Server): Served {
  const connections = "take" in listener ? listener : serverConnections(listener);
  const services = serviceDefinitions();
  // As the Pulumi plugin: a DNS server's rules come in several times in one plan (prior, proposed, config).
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(services["tfplugin6.Provider"], providerHandlers(face));
  server.addService(services["plugin.GRPCController"], {
    Shutdown: (_call: unknown, callback: grpc.sendUnaryData<any>) => {
      log("debug", "Shutdown: the client is done with the provider");
      face.stop("tofu shut the provider down");
      callback(null, {});
      connections.close();
      server.tryShutdown(() => onShutdown());
    },
  });
  server.addService(services["plugin.GRPCStdio"], { StreamStdio: unimplementedStream("GRPCStdio (its logs are on stderr)") });
  server.addService(services["plugin.GRPCBroker"], { StartStream: unimplementedStream("GRPCBroker") });
  server.addService(services["grpc.health.v1.Health"], {
    Check: (_call: unknown, callback: grpc.sendUnaryData<any>) => callback(null, { status: "SERVING" }),
  });
  const injector = server.createConnectionInjector(credentials);
  connections.take((socket) => {
    injector.injectConnection(socket);
    // A connection accepted paused (pauseOnConnect) is the HTTP/2 session's now: let it read.
    socket.resume();
  });
  return { port: connections.port, server };
}
