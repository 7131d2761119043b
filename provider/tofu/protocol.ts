/**
 * The messages and services the OpenTofu/Terraform face speaks, as a protobuf.js JSON descriptor written
 * here (issue 34): Terraform's plugin protocol 6 (`tfplugin6.Provider`, the calls a provider of resources
 * and data sources answers), go-plugin's `plugin.GRPCController`, `plugin.GRPCStdio` and
 * `plugin.GRPCBroker`, and `grpc.health.v1.Health`.
 *
 * Written, not copied and not generated: the names, field numbers and types below are the protocol's
 * facts (read from OpenTofu's `docs/plugin-protocol/tfplugin6.10.proto`, which its
 * `internal/tfplugin6/tfplugin6.proto` links to, and go-plugin's `internal/plugin/*.proto`); the text is
 * ours. A descriptor in TypeScript, rather than a `.proto` file parsed at start-up or code generated at
 * build time, costs no file read and no parse when the provider starts, needs no `protoc` and no
 * downloaded module at build time, and bundles into the single executable as plain code. Protobuf
 * decoders skip fields they do not know, so a message may leave out the fields this face never reads
 * or writes (functions, ephemeral resources, list resources, state stores, actions); their calls are
 * not in the service, so grpc-js answers them UNIMPLEMENTED.
 *
 * @example
 * ```ts
 * const definition = protoLoader.fromJSON(PROTOCOL, LOADER_OPTIONS);
 * const loaded = grpc.loadPackageDefinition(definition);
 * ```
 */
import type { INamespace } from "protobufjs";

type Field = { type: string; id: number; rule?: "repeated"; keyType?: string; options?: Record<string, unknown> };
type Message = { fields: Record<string, Field>; nested?: Record<string, unknown>; oneofs?: Record<string, { oneof: string[] }> };

/** A singular field. */
const one = (type: string, id: number): Field => ({ type, id });
/** A repeated field. */
const many = (type: string, id: number): Field => ({ type, id, rule: "repeated" });
/** A `map<string, type>` field. */
const map = (type: string, id: number): Field => ({ keyType: "string", type, id });
/** A message. */
const msg = (fields: Record<string, Field>, nested?: Record<string, unknown>): Message => (nested ? { fields, nested } : { fields });
/** An enum. */
const enumOf = (...names: string[]): { values: Record<string, number> } => ({ values: Object.fromEntries(names.map((n, i) => [n, i])) });
/** A call's `Request`/`Response` pair, nested in a message named after the call. */
const call = (request: Record<string, Field>, response: Record<string, Field>, more?: Record<string, unknown>): Message =>
  msg({}, { Request: msg(request), Response: msg(response), ...more });
/** Diagnostics, at the field number each response gives them. */
const diagnostics = (id: number): Record<string, Field> => ({ diagnostics: many("Diagnostic", id) });
/** A unary method whose types are the call's nested Request/Response. */
const unary = (name: string): { requestType: string; responseType: string } => ({ requestType: `${name}.Request`, responseType: `${name}.Response` });


/** tfplugin6: the values, schemas and calls of Terraform's plugin protocol 6. */
const tfplugin6: Record<string, unknown> = {
  DynamicValue: msg({ msgpack: one("bytes", 1), json: one("bytes", 2) }),
  Diagnostic: msg(
    { severity: one("Severity", 1), summary: one("string", 2), detail: one("string", 3), attribute: one("AttributePath", 4) },
    { Severity: enumOf("INVALID", "ERROR", "WARNING") },
  ),
  AttributePath: msg(
    { steps: many("Step", 1) },
    {
      Step: {
        fields: { attribute_name: one("string", 1), element_key_string: one("string", 2), element_key_int: one("int64", 3) },
        oneofs: { selector: { oneof: ["attribute_name", "element_key_string", "element_key_int"] } },
      },
    },
  ),
  RawState: msg({ json: one("bytes", 1), flatmap: map("string", 2) }),
  StringKind: enumOf("PLAIN", "MARKDOWN"),
  Schema: msg(
    { version: one("int64", 1), block: one("Block", 2) },
    {
      Block: msg({
        version: one("int64", 1),
        attributes: many("Attribute", 2),
        block_types: many("NestedBlock", 3),
        description: one("string", 4),
        description_kind: one("StringKind", 5),
        deprecated: one("bool", 6),
      }),
      Attribute: msg({
        name: one("string", 1),
        type: one("bytes", 2),
        description: one("string", 3),
        required: one("bool", 4),
        optional: one("bool", 5),
        computed: one("bool", 6),
        sensitive: one("bool", 7),
        description_kind: one("StringKind", 8),
        deprecated: one("bool", 9),
        nested_type: one("Object", 10),
        write_only: one("bool", 11),
      }),
      NestedBlock: msg(
        { type_name: one("string", 1), block: one("Block", 2), nesting: one("NestingMode", 3), min_items: one("int64", 4), max_items: one("int64", 5) },
        { NestingMode: enumOf("INVALID", "SINGLE", "LIST", "SET", "MAP", "GROUP") },
      ),
      Object: msg({ attributes: many("Attribute", 1), nesting: one("NestingMode", 3) }, { NestingMode: enumOf("INVALID", "SINGLE", "LIST", "SET", "MAP") }),
    },
  ),
  ResourceIdentitySchema: msg(
    { version: one("int64", 1), identity_attributes: many("IdentityAttribute", 2) },
    {
      IdentityAttribute: msg({
        name: one("string", 1),
        type: one("bytes", 2),
        required_for_import: one("bool", 3),
        optional_for_import: one("bool", 4),
        description: one("string", 5),
      }),
    },
  ),
  ResourceIdentityData: msg({ identity_data: one("DynamicValue", 1) }),
  ServerCapabilities: msg({
    plan_destroy: one("bool", 1),
    get_provider_schema_optional: one("bool", 2),
    move_resource_state: one("bool", 3),
    generate_resource_config: one("bool", 4),
  }),
  ClientCapabilities: msg({ deferral_allowed: one("bool", 1), write_only_attributes_allowed: one("bool", 2) }),
  Deferred: msg({ reason: one("Reason", 1) }, { Reason: enumOf("UNKNOWN", "RESOURCE_CONFIG_UNKNOWN", "PROVIDER_CONFIG_UNKNOWN", "ABSENT_PREREQ") }),

  GetMetadata: call(
    {},
    {
      server_capabilities: one("ServerCapabilities", 1),
      ...diagnostics(2),
      data_sources: many("DataSourceMetadata", 3),
      resources: many("ResourceMetadata", 4),
    },
    { DataSourceMetadata: msg({ type_name: one("string", 1) }), ResourceMetadata: msg({ type_name: one("string", 1) }) },
  ),
  GetProviderSchema: call(
    {},
    {
      provider: one("Schema", 1),
      resource_schemas: map("Schema", 2),
      data_source_schemas: map("Schema", 3),
      ...diagnostics(4),
      provider_meta: one("Schema", 5),
      server_capabilities: one("ServerCapabilities", 6),
    },
  ),
  ValidateProviderConfig: call({ config: one("DynamicValue", 1) }, diagnostics(2)),
  ConfigureProvider: call(
    { terraform_version: one("string", 1), config: one("DynamicValue", 2), client_capabilities: one("ClientCapabilities", 3) },
    diagnostics(1),
  ),
  ValidateResourceConfig: call(
    { type_name: one("string", 1), config: one("DynamicValue", 2), client_capabilities: one("ClientCapabilities", 3) },
    diagnostics(1),
  ),
  ValidateDataResourceConfig: call({ type_name: one("string", 1), config: one("DynamicValue", 2) }, diagnostics(1)),
  UpgradeResourceState: call(
    { type_name: one("string", 1), version: one("int64", 2), raw_state: one("RawState", 3) },
    { upgraded_state: one("DynamicValue", 1), ...diagnostics(2) },
  ),
  GetResourceIdentitySchemas: call({}, { identity_schemas: map("ResourceIdentitySchema", 1), ...diagnostics(2) }),
  ReadResource: call(
    {
      type_name: one("string", 1),
      current_state: one("DynamicValue", 2),
      private: one("bytes", 3),
      provider_meta: one("DynamicValue", 4),
      client_capabilities: one("ClientCapabilities", 5),
      current_identity: one("ResourceIdentityData", 6),
    },
    { new_state: one("DynamicValue", 1), ...diagnostics(2), private: one("bytes", 3), deferred: one("Deferred", 4), new_identity: one("ResourceIdentityData", 5) },
  ),
  PlanResourceChange: call(
    {
      type_name: one("string", 1),
      prior_state: one("DynamicValue", 2),
      proposed_new_state: one("DynamicValue", 3),
      config: one("DynamicValue", 4),
      prior_private: one("bytes", 5),
      provider_meta: one("DynamicValue", 6),
      client_capabilities: one("ClientCapabilities", 7),
      prior_identity: one("ResourceIdentityData", 8),
    },
    {
      planned_state: one("DynamicValue", 1),
      requires_replace: many("AttributePath", 2),
      planned_private: one("bytes", 3),
      ...diagnostics(4),
      legacy_type_system: one("bool", 5),
      deferred: one("Deferred", 6),
      planned_identity: one("ResourceIdentityData", 7),
    },
  ),
  ApplyResourceChange: call(
    {
      type_name: one("string", 1),
      prior_state: one("DynamicValue", 2),
      planned_state: one("DynamicValue", 3),
      config: one("DynamicValue", 4),
      planned_private: one("bytes", 5),
      provider_meta: one("DynamicValue", 6),
      planned_identity: one("ResourceIdentityData", 7),
    },
    { new_state: one("DynamicValue", 1), private: one("bytes", 2), ...diagnostics(3), legacy_type_system: one("bool", 4), new_identity: one("ResourceIdentityData", 5) },
  ),
  ImportResourceState: call(
    { type_name: one("string", 1), id: one("string", 2), client_capabilities: one("ClientCapabilities", 3), identity: one("ResourceIdentityData", 4) },
    { imported_resources: many("ImportedResource", 1), ...diagnostics(2), deferred: one("Deferred", 3) },
    {
      ImportedResource: msg({ type_name: one("string", 1), state: one("DynamicValue", 2), private: one("bytes", 3), identity: one("ResourceIdentityData", 4) }),
    },
  ),
  ReadDataSource: call(
    { type_name: one("string", 1), config: one("DynamicValue", 2), provider_meta: one("DynamicValue", 3), client_capabilities: one("ClientCapabilities", 4) },
    { state: one("DynamicValue", 1), ...diagnostics(2), deferred: one("Deferred", 3) },
  ),
  StopProvider: call({}, { Error: one("string", 1) }),

  Provider: {
    methods: Object.fromEntries(
      [
        "GetMetadata",
        "GetProviderSchema",
        "ValidateProviderConfig",
        "ValidateResourceConfig",
        "ValidateDataResourceConfig",
        "UpgradeResourceState",
        "GetResourceIdentitySchemas",
        "ConfigureProvider",
        "ReadResource",
        "PlanResourceChange",
        "ApplyResourceChange",
        "ImportResourceState",
        "ReadDataSource",
        "StopProvider",
      ].map((name) => [name, unary(name)]),
    ),
  },
};

/** go-plugin's own services (package `plugin`): the controller tofu shuts the provider down through, stdio and the broker. */
const plugin: Record<string, unknown> = {
  Empty: msg({}),
  StdioData: msg({ channel: one("Channel", 1), data: one("bytes", 2) }, { Channel: enumOf("INVALID", "STDOUT", "STDERR") }),
  ConnInfo: msg(
    { service_id: one("uint32", 1), network: one("string", 2), address: one("string", 3), knock: one("Knock", 4) },
    { Knock: msg({ knock: one("bool", 1), ack: one("bool", 2), error: one("string", 3) }) },
  ),
  GRPCController: { methods: { Shutdown: { requestType: "Empty", responseType: "Empty" } } },
  GRPCStdio: { methods: { StreamStdio: { requestType: "google.protobuf.Empty", responseType: "StdioData", responseStream: true } } },
  GRPCBroker: { methods: { StartStream: { requestType: "ConnInfo", responseType: "ConnInfo", requestStream: true, responseStream: true } } },
};

/** gRPC's health service, which go-plugin's client may ask about the service named "plugin". */
const health: Record<string, unknown> = {
  HealthCheckRequest: msg({ service: one("string", 1) }),
  HealthCheckResponse: msg({ status: one("ServingStatus", 1) }, { ServingStatus: enumOf("UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN") }),
  Health: { methods: { Check: { requestType: "HealthCheckRequest", responseType: "HealthCheckResponse" } } },
};

/**
 * The whole descriptor: packages `tfplugin6`, `plugin`, `grpc.health.v1` and the `google.protobuf.Empty`
 * that `plugin.GRPCStdio` takes.
 *
 * @example
 * ```ts
 * const definition = protoLoader.fromJSON(PROTOCOL, LOADER_OPTIONS);
 * ```
 */
export const PROTOCOL: INamespace = {
  nested: {
    tfplugin6: { nested: tfplugin6 },
    plugin: { nested: plugin },
    grpc: { nested: { health: { nested: { v1: { nested: health } } } } },
    google: { nested: { protobuf: { nested: { Empty: msg({}) } } } },
  } as NonNullable<INamespace["nested"]>,
};

/**
 * How messages are decoded: field names as the protocol spells them (snake_case), enums by name, 64-bit
 * integers as numbers (schema versions and list sizes are small), bytes as Buffers, absent fields at
 * their defaults, and the set member of a oneof named.
 *
 * @example
 * ```ts
 * protoLoader.fromJSON(PROTOCOL, LOADER_OPTIONS);
 * ```
 */
export const LOADER_OPTIONS = { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true } as const;
