/**
 * The OpenTofu/Terraform face's gRPC server (issue 34, first step: the protocol layer, no resources yet):
 * `tfplugin6.Provider`, go-plugin's `plugin.GRPCController` (Shutdown ends the process, or go-plugin
 * kills it after 2 s), `plugin.GRPCStdio` and `plugin.GRPCBroker` answered UNIMPLEMENTED (go-plugin's
 * client tolerates both), and `grpc.health.v1.Health` answering SERVING.
 *
 * At this step the provider serves an empty but valid schema: no provider attributes, no resources, no
 * data sources; a call naming a resource or data source type answers a diagnostic saying it is not one
 * of this provider's. StopProvider aborts the calls in flight through the {@link Face.signal} each call
 * takes when it starts (the lifecycles will pass it on), then arms a fresh one for later calls.
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { log } from "./log";
import { LOADER_OPTIONS, PROTOCOL } from "./protocol";

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

/** The empty block: a schema with no attributes (the provider's, at this step). */
function emptySchema(): any {
  return { version: 0, block: { version: 0, attributes: [], block_types: [], description: "", description_kind: "PLAIN", deprecated: false } };
}

const SERVER_CAPABILITIES = { plan_destroy: false, get_provider_schema_optional: false, move_resource_state: false, generate_resource_config: false };

/** An error diagnostic for a type this provider does not have. */
function unknownType(kind: "resource" | "data source", typeName: string): any {
  return {
    severity: "ERROR",
    summary: `Unknown ${kind} type`,
    detail: `The provider dnsaccount has no ${kind} type "${typeName}".`,
  };
}

/** The tfplugin6.Provider handlers. */
function providerHandlers(face: Face): Record<string, Unary> {
  const resourceCall =
    (diagnosticsOnly: Record<string, unknown> = {}): Unary =>
    (call, callback) => {
      face.signal();
      callback(null, { ...diagnosticsOnly, diagnostics: [unknownType("resource", String(call.request.type_name))] });
    };
  const dataCall: Unary = (call, callback) => callback(null, { diagnostics: [unknownType("data source", String(call.request.type_name))] });
  return {
    GetMetadata: (_call, callback) => callback(null, { server_capabilities: SERVER_CAPABILITIES, diagnostics: [], data_sources: [], resources: [] }),
    GetProviderSchema: (_call, callback) =>
      callback(null, {
        provider: emptySchema(),
        resource_schemas: {},
        data_source_schemas: {},
        diagnostics: [],
        server_capabilities: SERVER_CAPABILITIES,
      }),
    GetResourceIdentitySchemas: (_call, callback) => callback(null, { identity_schemas: {}, diagnostics: [] }),
    ValidateProviderConfig: (_call, callback) => callback(null, { diagnostics: [] }),
    ConfigureProvider: (call, callback) => {
      log("debug", "ConfigureProvider", { terraform_version: String(call.request.terraform_version) });
      callback(null, { diagnostics: [] });
    },
    ValidateResourceConfig: resourceCall(),
    UpgradeResourceState: resourceCall(),
    ReadResource: resourceCall(),
    PlanResourceChange: resourceCall(),
    ApplyResourceChange: resourceCall(),
    ImportResourceState: resourceCall({ imported_resources: [] }),
    ValidateDataResourceConfig: dataCall,
    ReadDataSource: dataCall,
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
  const server = new grpc.Server();
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
