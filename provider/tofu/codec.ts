/**
 * The face's protobuf messages, by full name (`tfplugin6.GetProviderSchema.Response`): how ./services
 * encodes and decodes them. This module is the run-time codec: protobuf.js's light build reads
 * ./protocol's descriptor (`Root.fromJSON`) and generates each message's functions with `new Function`
 * on its first use. The face's bundle (scripts/bundle.mjs, and package-tofu's single executable) replaces
 * this module with ./codec-static over code generated from the same descriptor at build time (protobuf.js's
 * `pbjs -t static-module`): plain functions that V8's code cache holds, and no descriptor to read at start
 * (issue 35 §3: the run-time generation cost every provider process 60–80 ms of CPU). Both give the same
 * bytes and the same objects (test/provider/tofu/codec.test.ts).
 */
import { Root } from "protobufjs/light";
import { PROTOCOL } from "./protocol";

/**
 * One message's functions, as protobuf.js's reflected `Type` and its static code both have them.
 *
 * @example
 * ```ts
 * const bytes = type.encode(type.fromObject({ status: "SERVING" })).finish();
 * ```
 */
export interface MessageType {
  /** The message from a plain object (enums by name, bytes as Buffers). */
  fromObject(value: Record<string, unknown>): object;
  /** The message's bytes. */
  encode(message: object): { finish(): Uint8Array };
  /** The message from its bytes. */
  decode(bytes: Uint8Array): object;
  /** The plain object of a decoded message, converted as `options` say. */
  toObject(message: object, options: { longs?: unknown; enums?: unknown; defaults?: boolean; oneofs?: boolean }): Record<string, unknown>;
}

/**
 * The messages of ./protocol: each by its full name, and how they were made.
 *
 * @example
 * ```ts
 * const { type } = codec();
 * type("grpc.health.v1.HealthCheckResponse");
 * ```
 */
export interface Codec {
  /** `reflection` (this module) or `static` (./codec-static, in the face's bundle). */
  kind: "reflection" | "static";
  /** The message named `name` (its full name, without a leading dot); throws when there is none. */
  type(name: string): MessageType;
  /** Every message's full name. */
  names(): string[];
}

let made: Codec | undefined;

/**
 * The run-time codec: ./protocol's descriptor read by protobuf.js's light build (once per process).
 *
 * @example
 * ```ts
 * const health = codec().type("grpc.health.v1.HealthCheckResponse");
 * ```
 */
export function codec(): Codec {
  if (made) return made;
  const root = Root.fromJSON(PROTOCOL);
  root.resolveAll();
  const names: string[] = [];
  const walk = (ns: { nestedArray: unknown[] }, prefix: string) => {
    for (const item of ns.nestedArray as { name: string; nestedArray?: unknown[]; fields?: unknown }[]) {
      const full = prefix ? `${prefix}.${item.name}` : item.name;
      if (item.fields) names.push(full);
      if (item.nestedArray) walk(item as { nestedArray: unknown[] }, full);
    }
  };
  walk(root, "");
  made = { kind: "reflection", type: (name) => root.lookupType(name) as unknown as MessageType, names: () => [...names] };
  return made;
}
