/**
 * The face's gRPC services (./protocol's descriptor) as grpc-js's `Server.addService` takes them, made
 * with protobuf.js alone (issue 35 §3): what `@grpc/proto-loader`'s `fromJSON` and grpc-js's
 * `loadPackageDefinition` make, without the file descriptors proto-loader also encodes for every message
 * (for gRPC reflection, which this server does not serve). Those cost more than a third of the face's
 * start after its handshake line. Messages are read and written as proto-loader does with
 * {@link LOADER_OPTIONS}: `fromObject` then `encode` out, `decode` then `toObject` in, by ./codec (the
 * run-time codec, or in the face's bundle the build's static code). An answer made at build time
 * ({@link preEncoded}: the GetProviderSchema answer) goes out as its bytes.
 */
import type * as grpc from "@grpc/grpc-js";
import { codec, type MessageType } from "./codec";
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
const CONVERSION = { longs: LOADER_OPTIONS.longs, enums: LOADER_OPTIONS.enums, defaults: LOADER_OPTIONS.defaults, oneofs: LOADER_OPTIONS.oneofs };

/** A message already encoded, with the full name of its message type: that type's serializer sends the bytes as they are. */
class PreEncoded {
  constructor(
    readonly message: string,
    readonly bytes: Buffer,
  ) {}
}

/**
 * An answer given as its bytes, encoded beforehand (at build time) as the message type `message` (its full
 * name): a handler passes it to its callback in place of the message, and the method's serializer sends the
 * bytes unchanged, if that method's message is `message`; any other serializer throws.
 *
 * @example
 * ```ts
 * GetProviderSchema: (_call, callback) => callback(null, preEncoded("tfplugin6.GetProviderSchema.Response", schemaAnswerBytes())),
 * ```
 */
export function preEncoded(message: string, bytes: Buffer): object {
  return new PreEncoded(message, bytes);
}

function serializer(name: string, type: MessageType): (value: object) => Buffer {
  const short = name.slice(name.lastIndexOf(".") + 1);
  return (value) => {
    if (value instanceof PreEncoded) {
      if (value.message !== name) throw new Error(`Failed to serialize message: ${value.message} given encoded where ${name} is sent`);
      return value.bytes;
    }
    if (Array.isArray(value)) throw new Error(`Failed to serialize message: expected object with ${short} structure, got array instead`);
    return Buffer.from(type.encode(type.fromObject(value as Record<string, unknown>)).finish());
  };
}

function deserializer(type: MessageType): (bytes: Buffer) => object {
  return (bytes) => type.toObject(type.decode(bytes), CONVERSION);
}

type Namespace = { nested?: Record<string, Namespace>; methods?: Record<string, { requestType: string; responseType: string; requestStream?: boolean; responseStream?: boolean }> };

/** The descriptor at a full name (`tfplugin6.Provider`), or undefined. */
function at(name: string): Namespace | undefined {
  let ns: Namespace | undefined = PROTOCOL as Namespace;
  for (const part of name.split(".")) ns = ns?.nested?.[part];
  return ns;
}

/** The full name of the message `type` names inside `scope` (protobuf's lookup: the innermost scope first). */
function resolve(type: string, scope: string): string {
  const parts = scope.split(".");
  for (let n = parts.length; n >= 0; n--) {
    const full = [...parts.slice(0, n), type].join(".");
    if (at(full)) return full;
  }
  throw new Error(`${scope}: no message ${type} in the protocol`);
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
  const { type } = codec();
  const definitions = {} as Record<ServiceName, grpc.ServiceDefinition>;
  for (const name of SERVICES) {
    const scope = name.slice(0, name.lastIndexOf("."));
    const methods: Record<string, grpc.MethodDefinition<object, object>> = {};
    for (const [method, m] of Object.entries(at(name)?.methods ?? {})) {
      const requestName = resolve(m.requestType, scope);
      const responseName = resolve(m.responseType, scope);
      const request = type(requestName);
      const response = type(responseName);
      methods[method] = {
        path: `/${name}/${method}`,
        requestStream: !!m.requestStream,
        responseStream: !!m.responseStream,
        requestSerialize: serializer(requestName, request),
        requestDeserialize: deserializer(request),
        responseSerialize: serializer(responseName, response),
        responseDeserialize: deserializer(response),
        originalName: method.charAt(0).toLowerCase() + method.slice(1),
      };
    }
    definitions[name] = methods;
  }
  return definitions;
}
