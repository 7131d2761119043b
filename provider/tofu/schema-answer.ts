/**
 * tofu's first call to every provider process is GetProviderSchema, whose answer (the whole schema, about
 * 24 KB) never changes for a build. It is encoded once, when the face's bundle is built
 * (scripts/bundle.mjs embeds {@link encodeSchemaAnswer}'s bytes as ./schema-embedded), and each process
 * sends those bytes as they are ({@link schemaAnswerBytes}, through ./services' `preEncoded`) rather
 * than encoding the schema again (issue 35 §3). The schema the handlers read ({@link providerSchema}) is
 * the build's too, as JSON, rather than made again from the package schema in every process. Outside the
 * bundle (tsc's dist, the tests) both are made at run time, once per process.
 */
import { codec } from "./codec";
import { terraformSchema, type TfProviderSchema } from "./schema";
import { EMBEDDED_SCHEMA, EMBEDDED_SCHEMA_ANSWER } from "./schema-embedded";
import { preEncoded } from "./services";

/**
 * What the face serves: no destroy plans, no optional GetProviderSchema, no state moves, no generated
 * configuration.
 *
 * @example
 * ```ts
 * callback(null, { server_capabilities: SERVER_CAPABILITIES, diagnostics: [] });
 * ```
 */
export const SERVER_CAPABILITIES = { plan_destroy: false, get_provider_schema_optional: false, move_resource_state: false, generate_resource_config: false };

/** The response message's full name. */
const RESPONSE = "tfplugin6.GetProviderSchema.Response";

/**
 * The GetProviderSchema answer, as the loader's plain object.
 *
 * @example
 * ```ts
 * schemaAnswer().resource_schemas["dnsaccount_device"];
 * ```
 */
export function schemaAnswer(schema: TfProviderSchema = terraformSchema()): Record<string, unknown> {
  return { provider: schema.provider, resource_schemas: schema.resources, data_source_schemas: schema.dataSources, diagnostics: [], server_capabilities: SERVER_CAPABILITIES };
}

/**
 * The GetProviderSchema answer encoded now, with this process's codec: what the build embeds.
 *
 * @example
 * ```ts
 * const base64 = encodeSchemaAnswer().toString("base64");
 * ```
 */
export function encodeSchemaAnswer(): Buffer {
  const type = codec().type(RESPONSE);
  return Buffer.from(type.encode(type.fromObject(schemaAnswer())).finish());
}

let bytes: Buffer | undefined;

/**
 * The GetProviderSchema answer's bytes: the build's (embedded in the bundle) when there are some, else
 * encoded on the first call; the same Buffer afterwards.
 *
 * @example
 * ```ts
 * callback(null, preEncoded("tfplugin6.GetProviderSchema.Response", schemaAnswerBytes()));
 * ```
 */
export function schemaAnswerBytes(): Buffer {
  bytes ??= EMBEDDED_SCHEMA_ANSWER === undefined ? encodeSchemaAnswer() : Buffer.from(EMBEDDED_SCHEMA_ANSWER, "base64");
  return bytes;
}

/**
 * The GetProviderSchema answer as its handler gives it: {@link schemaAnswerBytes} marked as that message
 * (./services' `preEncoded`), so that its serializer sends the bytes unchanged.
 *
 * @example
 * ```ts
 * GetProviderSchema: (_call, callback) => callback(null, schemaAnswerMessage()),
 * ```
 */
export function schemaAnswerMessage(): object {
  return preEncoded(RESPONSE, schemaAnswerBytes());
}

/**
 * Whether {@link schemaAnswerBytes} are the build's (the bundle) rather than encoded at run time.
 *
 * @example
 * ```ts
 * log("debug", "schema", { embedded: schemaAnswerEmbedded() });
 * ```
 */
export function schemaAnswerEmbedded(): boolean {
  return EMBEDDED_SCHEMA_ANSWER !== undefined;
}

/**
 * `schema` as JSON text, its Buffers (attribute types) as `{ "$bytes": base64 }`: what the build embeds.
 *
 * @example
 * ```ts
 * parseSchema(schemaJson(terraformSchema())); // deep-equal to terraformSchema()
 * ```
 */
export function schemaJson(schema: TfProviderSchema = terraformSchema()): string {
  return JSON.stringify(schema, (_key, value: unknown) =>
    value !== null && typeof value === "object" && (value as { type?: unknown }).type === "Buffer" && Array.isArray((value as { data?: unknown }).data)
      ? { $bytes: Buffer.from((value as { data: number[] }).data).toString("base64") }
      : value,
  );
}

/**
 * The schema {@link schemaJson} wrote.
 *
 * @example
 * ```ts
 * const schema = parseSchema(Buffer.from(EMBEDDED_SCHEMA!, "base64").toString("utf8"));
 * ```
 */
export function parseSchema(text: string): TfProviderSchema {
  return JSON.parse(text, (_key, value: unknown) =>
    value !== null && typeof value === "object" && typeof (value as { $bytes?: unknown }).$bytes === "string" ? Buffer.from((value as { $bytes: string }).$bytes, "base64") : value,
  ) as TfProviderSchema;
}

let schema: TfProviderSchema | undefined;

/**
 * The provider's tofu schema as the handlers read it: the build's (embedded in the bundle) when there is
 * one, else ./schema's `terraformSchema()`; made once per process.
 *
 * @example
 * ```ts
 * const kinds = servedKinds(providerSchema());
 * ```
 */
export function providerSchema(): TfProviderSchema {
  schema ??= EMBEDDED_SCHEMA === undefined ? terraformSchema() : parseSchema(Buffer.from(EMBEDDED_SCHEMA, "base64").toString("utf8"));
  return schema;
}
