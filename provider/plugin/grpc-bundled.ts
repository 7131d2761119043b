/**
 * The plugin's single executable's `./grpc-installed`: the same modules, named by literal path so that
 * the bundler (esbuild, scripts/package-plugin.mjs) embeds them. Inside a single executable `require`
 * loads only Node's built-ins, so nothing may be left to a `createRequire` at run time. The bundler
 * resolves `@grpc/grpc-js` and `google-protobuf` from `@pulumi/pulumi`'s folder, as its proto files do.
 */
import type { GrpcPieces } from "./grpc-installed";

/** Nothing is missing: `@pulumi/pulumi`'s pieces are inside the executable. */
export function pulumiMissing(): string | undefined {
  return undefined;
}

/**
 * The pieces, as the bundle embeds them.
 *
 * @example
 * ```ts
 * const { grpc, services } = grpcPieces();
 * ```
 */
export function grpcPieces(): GrpcPieces {
  return {
    grpc: require("@grpc/grpc-js"),
    services: require("@pulumi/pulumi/proto/provider_grpc_pb.js"),
    messages: require("@pulumi/pulumi/proto/provider_pb.js"),
    plugin: require("@pulumi/pulumi/proto/plugin_pb.js"),
    engine: require("@pulumi/pulumi/proto/engine_pb.js"),
    engineServices: require("@pulumi/pulumi/proto/engine_grpc_pb.js"),
    status: require("@pulumi/pulumi/proto/status_pb.js"),
    any: require("google-protobuf/google/protobuf/any_pb.js"),
    empty: require("google-protobuf/google/protobuf/empty_pb.js"),
    struct: require("google-protobuf/google/protobuf/struct_pb.js"),
  };
}
