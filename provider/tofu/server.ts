/**
 * The OpenTofu/Terraform face's gRPC server (issue 34, first step: the protocol layer, no resources yet):
 * `tfplugin6.Provider`, go-plugin's `plugin.GRPCController` (Shutdown ends the process, or go-plugin
 * kills it after 2 s), `plugin.GRPCStdio` and `plugin.GRPCBroker` answered UNIMPLEMENTED (go-plugin's
 * client tolerates both), and `grpc.health.v1.Health` answering SERVING.
 *
 * The schema is the package schema's, for tofu (./schema): the provider block, four resources and four
 * data sources. At this step validation accepts their configurations (tofu checks them against the
 * schema); a plan, apply, read or import of one answers a diagnostic saying it is not served yet, and
 * a type that is not the provider's one saying so. StopProvider aborts the calls in flight through the {@link Face.signal} each call
 * takes when it starts (the lifecycles will pass it on), then arms a fresh one for later calls.
 */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { log } from "./log";
import { LOADER_OPTIONS, PROTOCOL } from "./protocol";
import { terraformSchema } from "./schema";

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
function unknownType(kind: "resource" | "data source", typeName: string): any {
  return {
    severity: "ERROR",
    summary: `Unknown ${kind} type`,
    detail: `The provider dnsaccount has no ${kind} type "${typeName}".`,
  };
}

/** An error diagnostic for a call this step of the face does not serve yet, on a type it has. */
function notServedYet(call: string, typeName: string): any {
  return { severity: "ERROR", summary: "Not served yet", detail: `The provider dnsaccount does not serve ${call} of "${typeName}" yet.` };
}

/** The tfplugin6.Provider handlers. */
function providerHandlers(face: Face): Record<string, Unary> {
  const schema = terraformSchema();
  const resourceCall =
    (name: string, diagnosticsOnly: Record<string, unknown> = {}): Unary =>
    (call, callback) => {
      face.signal();
      const type = String(call.request.type_name);
      callback(null, { ...diagnosticsOnly, diagnostics: [type in schema.resources ? notServedYet(name, type) : unknownType("resource", type)] });
    };
  const validate =
    (kind: "resource" | "data source", known: Record<string, unknown>): Unary =>
    (call, callback) => {
      const type = String(call.request.type_name);
      callback(null, { diagnostics: type in known ? [] : [unknownType(kind, type)] });
    };
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
    ValidateProviderConfig: (_call, callback) => callback(null, { diagnostics: [] }),
    ConfigureProvider: (call, callback) => {
      log("debug", "ConfigureProvider", { terraform_version: String(call.request.terraform_version) });
      callback(null, { diagnostics: [] });
    },
    ValidateResourceConfig: validate("resource", schema.resources),
    UpgradeResourceState: resourceCall("UpgradeResourceState"),
    ReadResource: resourceCall("ReadResource"),
    PlanResourceChange: resourceCall("PlanResourceChange"),
    ApplyResourceChange: resourceCall("ApplyResourceChange"),
    ImportResourceState: resourceCall("ImportResourceState", { imported_resources: [] }),
    ValidateDataResourceConfig: validate("data source", schema.dataSources),
    ReadDataSource: (call, callback) => {
      const type = String(call.request.type_name);
      callback(null, { diagnostics: [type in schema.dataSources ? notServedYet("ReadDataSource", type) : unknownType("data source", type)] });
    },
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
