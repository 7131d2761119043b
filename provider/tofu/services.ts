/**
 * The face's gRPC services (./protocol's descriptor) as grpc-js's `Server.addService` takes them, made
 * with protobuf.js's light build alone (issue 35 §3): what `@grpc/proto-loader`'s `fromJSON` and grpc-js's
 * `loadPackageDefinition` make, without the file descriptors proto-loader also encodes for every message
 * (for gRPC reflection, which this server does not serve). Those cost more than a third of the face's
 * start after its handshake line. Messages are read and written as proto-loader does with
 * {@link LOADER_OPTIONS}: `fromObject` then `encode` out, `decode` then `toObject` in.
 */
import type * as grpc from "@grpc/grpc-js";
import { type IConversionOptions, Root, type Type } from "protobufjs/light";
import { LOADER_OPTIONS, PROTOCOL } from "./protocol";

/**
 * The services the face serves, by their full names.
 *
 * @example
 * ```ts
 * const name: ServiceName = "tfplugin6.Provider";
 * ```
 */
export type ServiceName = "tfplugin6.Provider" | "plugin.GRPCController" | "plugin.GRPCStdio" | "plugin.GRPCBroker" | "grpc.health.v1.Health";

const SERVICES: readonly ServiceName[] = ["tfplugin6.Provider", "plugin.GRPCController", "plugin.GRPCStdio", "plugin.GRPCBroker", "grpc.health.v1.Health"];

/** proto-loader's conversion of a decoded message: LOADER_OPTIONS without what only its .proto parser reads. */
const CONVERSION: IConversionOptions = { longs: LOADER_OPTIONS.longs, enums: LOADER_OPTIONS.enums, defaults: LOADER_OPTIONS.defaults, oneofs: LOADER_OPTIONS.oneofs };

function serializer(type: Type): (value: object) => Buffer {
  return (value) => {
    if (Array.isArray(value)) throw new Error(`Failed to serialize message: expected object with ${type.name} structure, got array instead`);
    return Buffer.from(type.encode(type.fromObject(value)).finish());
  };
}

function deserializer(type: Type): (bytes: Buffer) => object {
  return (bytes) => type.toObject(type.decode(bytes), CONVERSION);
}

/**
 * Each service's definition, as grpc-js's `loadPackageDefinition(protoLoader.fromJSON(PROTOCOL,
 * LOADER_OPTIONS))` gives it under `.<package>.<Service>.service`: method paths, streaming, and the
 * messages' serializers.
 *
 * @example
 * ```ts
 * const services = serviceDefinitions();
 * server.addService(services["grpc.health.v1.Health"], { Check: (_call, callback) => callback(null, { status: "SERVING" }) });
 * ```
 */
export function serviceDefinitions(): Record<ServiceName, grpc.ServiceDefinition> {
  const root = Root.fromJSON(PROTOCOL);
  root.resolveAll();
  const definitions = {} as Record<ServiceName, grpc.ServiceDefinition>;
  for (const name of SERVICES) {
    const service = root.lookupService(name);
    const methods: Record<string, grpc.MethodDefinition<object, object>> = {};
    for (const method of service.methodsArray) {
      // resolveAll() above resolved every method's types.
      const request = method.resolvedRequestType!;
      const response = method.resolvedResponseType!;
      methods[method.name] = {
        path: `/${name}/${method.name}`,
        requestStream: !!method.requestStream,
        responseStream: !!method.responseStream,
        requestSerialize: serializer(request),
        requestDeserialize: deserializer(request),
        responseSerialize: serializer(response),
        responseDeserialize: deserializer(response),
        originalName: method.name.charAt(0).toLowerCase() + method.name.slice(1),
      };
    }
    definitions[name] = methods;
  }
  return definitions;
}
