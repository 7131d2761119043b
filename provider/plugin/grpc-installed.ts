/**
 * `@pulumi/pulumi`'s gRPC pieces (its ResourceProvider service definition and message classes, and the
 * `@grpc/grpc-js` and `google-protobuf` copies it uses), loaded from the `@pulumi/pulumi` installed beside
 * the plugin. The plugin's single executable swaps this module for `./grpc-bundled`, which names the same
 * files by literal path so that the bundler can follow them (scripts/package-plugin.mjs).
 */
import { createRequire } from "node:module";
import path from "node:path";

/* eslint-disable @typescript-eslint/no-explicit-any -- the generated gRPC and protobuf modules are untyped here */

/** The gRPC and protobuf modules the plugin's server is built from, by role. */
export interface GrpcPieces {
  grpc: any;
  services: any;
  messages: any;
  plugin: any;
  engine: any;
  engineServices: any;
  status: any;
  any: any;
  empty: any;
  struct: any;
}

/** Why the plugin cannot start here (no `@pulumi/pulumi` beside it), or undefined when it can. */
export function pulumiMissing(): string | undefined {
  try {
    require.resolve("@pulumi/pulumi/package.json");
    return undefined;
  } catch {
    return 'needs @pulumi/pulumi beside it: run "npm install -g pulumi-dns-account @pulumi/pulumi" (or install both in the plugin folder)';
  }
}

/**
 * The pieces, from `@pulumi/pulumi`'s folder.
 *
 * @example
 * ```ts
 * const { grpc, services } = grpcPieces();
 * ```
 */
export function grpcPieces(): GrpcPieces {
  const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  const req = createRequire(path.join(pulumiDir, "package.json"));
  return {
    grpc: req("@grpc/grpc-js"),
    services: req("./proto/provider_grpc_pb.js"),
    messages: req("./proto/provider_pb.js"),
    plugin: req("./proto/plugin_pb.js"),
    engine: req("./proto/engine_pb.js"),
    engineServices: req("./proto/engine_grpc_pb.js"),
    status: req("./proto/status_pb.js"),
    any: req("google-protobuf/google/protobuf/any_pb.js"),
    empty: req("google-protobuf/google/protobuf/empty_pb.js"),
    struct: req("google-protobuf/google/protobuf/struct_pb.js"),
  };
}
