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
 * one. The calls in flight are let finish, each within the client's deadlines, rather than cut off: a
 * create cut off after the service made the object would leave it outside every state, and these calls
 * are short. tofu starts no new call on a provider it stopped, and ends it with Shutdown.
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { fromEnvironment } from "../credentials";
import { type PluginConfig, readConfig } from "../shared/provider-config";
import { containsUnknown } from "../shared/unknown";
import { log } from "./log";
import { LOADER_OPTIONS, PROTOCOL } from "./protocol";
import { applyResource, type ContextFor, importResource, planResource, privateAt, readDataSource, readResource, servedKinds, validateResource } from "./resources";
import { type Diagnostic, errorDiagnostic, failureDiagnostics, tofuWords } from "./words";
import { terraformSchema } from "./schema";
import { blockShape, dynamic, readDynamic, type Shape, type TfValue, toProgram } from "./values";

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

const SERVER_CAPABILITIES = { plan_destroy: false, get_provider_schema_optional: false, move_resource_state: false, generate_resource_config: false };

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
  const program = (toProgram(config, shape) ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(program).filter(([, v]) => !containsUnknown(v)));
}

/** The tfplugin6.Provider handlers. */
function providerHandlers(face: Face): Record<string, Unary> {
  const schema = terraformSchema();
  const kinds = servedKinds(schema);
  const providerShape = blockShape(schema.provider.block);
  let config: PluginConfig = { fields: {}, allowInsecureHttp: false };
  const contextFor: ContextFor = (warnings) => ({
    config: config.fields,
    allowInsecureHttp: config.allowInsecureHttp,
    skipCredentialsValidation: config.skipCredentialsValidation === true,
    warn: (message) => {
      log("warn", message);
      warnings.push({ severity: "WARNING", summary: tofuWords(message), detail: "" });
    },
  });
  /** Runs a handler; what it throws becomes an error diagnostic (the package's errors name fields, never values). */
  const handle =
    (name: string, fn: (request: any) => Promise<Record<string, unknown>>): Unary =>
    (call, callback) => {
      face.signal();
      fn(call.request).then(
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
    GetProviderSchema: (_call, callback) =>
      callback(null, {
        provider: schema.provider,
        resource_schemas: schema.resources,
        data_source_schemas: schema.dataSources,
        diagnostics: [],
        server_capabilities: SERVER_CAPABILITIES,
      }),
    GetResourceIdentitySchemas: (_call, callback) => callback(null, { identity_schemas: {}, diagnostics: [] }),
    // Values not known yet (another resource's output) are skipped here, not refused; ConfigureProvider sees them all.
    ValidateProviderConfig: handle("Validating the provider block", async (request) => {
      const { failures } = await readConfig(providerValues(providerShape, readDynamic(request.config)));
      return { diagnostics: failureDiagnostics(failures) };
    }),
    ConfigureProvider: handle("Configuring the provider", async (request) => {
      log("debug", "ConfigureProvider", { terraform_version: String(request.terraform_version) });
      const { config: read, failures } = await readConfig(providerValues(providerShape, readDynamic(request.config)), { env: fromEnvironment() });
      if (failures.length > 0) return { diagnostics: failureDiagnostics(failures) };
      config = read;
      return { diagnostics: [] };
    }),
    ValidateResourceConfig: handle("Validating the resource", async (request) => {
      const kind = resource(String(request.type_name));
      if (!kind) return { diagnostics: [unknownType("resource", String(request.type_name))] };
      return { diagnostics: await validateResource(kind, readDynamic(request.config), contextFor) };
    }),
    UpgradeResourceState: handle("Upgrading the state", async (request) => {
      const kind = resource(String(request.type_name));
      if (!kind) return { diagnostics: [unknownType("resource", String(request.type_name))] };
      // Schema version 0 is the only one so far: the state is re-encoded as it is.
      const raw = request.raw_state?.json as Buffer | undefined;
      const state = raw && raw.length > 0 ? (JSON.parse(raw.toString("utf8")) as TfValue) : null;
      return { upgraded_state: dynamic(state, kind.shape), diagnostics: [] };
    }),
    ReadResource: handle("Reading the resource", async (request) => {
      const kind = resource(String(request.type_name));
      if (!kind) return { diagnostics: [unknownType("resource", String(request.type_name))] };
      const at = Date.now();
      const { state, diagnostics } = await readResource(kind, readDynamic(request.current_state), contextFor, at);
      return { new_state: dynamic(state, kind.shape), diagnostics, private: privateAt(at) };
    }),
    PlanResourceChange: handle("Planning the change", async (request) => {
      const kind = resource(String(request.type_name));
      if (!kind) return { diagnostics: [unknownType("resource", String(request.type_name))] };
      const plan = await planResource(kind, readDynamic(request.prior_state), readDynamic(request.proposed_new_state), readDynamic(request.config), contextFor, request.prior_private);
      return { planned_state: dynamic(plan.planned, kind.shape), requires_replace: plan.requiresReplace, diagnostics: plan.diagnostics, planned_private: request.prior_private };
    }),
    ApplyResourceChange: handle("Applying the change", async (request) => {
      const kind = resource(String(request.type_name));
      if (!kind) return { diagnostics: [unknownType("resource", String(request.type_name))] };
      const { state, diagnostics } = await applyResource(kind, readDynamic(request.prior_state), readDynamic(request.planned_state), readDynamic(request.config), contextFor, request.planned_private);
      return { new_state: dynamic(state, kind.shape), diagnostics, private: privateAt(Date.now()) };
    }),
    ImportResourceState: handle("Importing the resource", async (request) => {
      const type = String(request.type_name);
      const kind = resource(type);
      if (!kind) return { imported_resources: [], diagnostics: [unknownType("resource", type)] };
      const { state, diagnostics } = await importResource(kind, String(request.id), contextFor);
      return { imported_resources: state === null ? [] : [{ type_name: type, state: dynamic(state, kind.shape), private: privateAt(Date.now()) }], diagnostics };
    }),
    ValidateDataResourceConfig: (call, callback) => {
      const type = String(call.request.type_name);
      callback(null, { diagnostics: dataSource(type) ? [] : [unknownType("data source", type)] });
    },
    ReadDataSource: handle("Reading the data source", async (request) => {
      const kind = dataSource(String(request.type_name));
      if (!kind) return { diagnostics: [unknownType("data source", String(request.type_name))] };
      const { state, diagnostics } = await readDataSource(kind, readDynamic(request.config), contextFor);
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
 * const { port, server }: Served = await serve(credentials, newFace(), () => process.exit(0));
 * ```
 */
export interface Served {
  port: number;
  server: grpc.Server;
}

/**
 * Starts the gRPC server on 127.0.0.1, on a port the system picks, with `credentials` (mTLS, or plain
 * when TLS is off); `onShutdown` runs once go-plugin's Shutdown has been answered and the connections
 * have closed.
 *
 * @example
 * ```ts
 * const { port } = await serve(grpc.ServerCredentials.createInsecure(), newFace(), () => process.exit(0));
 * ```
 */
export function serve(credentials: grpc.ServerCredentials, face: Face, onShutdown: () => void): Promise<Served> {
  const loaded = grpc.loadPackageDefinition(protoLoader.fromJSON(PROTOCOL, LOADER_OPTIONS)) as any;
  // As the Pulumi plugin: a DNS server's rules come in several times in one plan (prior, proposed, config).
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(loaded.tfplugin6.Provider.service, providerHandlers(face));
  server.addService(loaded.plugin.GRPCController.service, {
    Shutdown: (_call: unknown, callback: grpc.sendUnaryData<any>) => {
      log("debug", "Shutdown: the client is done with the provider");
      face.stop("tofu shut the provider down");
      callback(null, {});
      server.tryShutdown(() => onShutdown());
    },
  });
  server.addService(loaded.plugin.GRPCStdio.service, { StreamStdio: unimplementedStream("GRPCStdio (its logs are on stderr)") });
  server.addService(loaded.plugin.GRPCBroker.service, { StartStream: unimplementedStream("GRPCBroker") });
  server.addService(loaded.grpc.health.v1.Health.service, {
    Check: (_call: unknown, callback: grpc.sendUnaryData<any>) => callback(null, { status: "SERVING" }),
  });
  return new Promise((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", credentials, (err, port) => (err ? reject(err) : resolve({ port, server })));
  });
}
