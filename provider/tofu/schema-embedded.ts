/**
 * The GetProviderSchema answer's bytes, base64, as the build embeds them in the face's bundle
 * (scripts/bundle.mjs's `tofuInside` gives the bundle this module with the bytes ./schema-answer encodes
 * from the built schema). Here, outside the bundle (tsc's dist, the tests), there are none: ./schema-answer
 * encodes the answer at run time.
 *
 * @example
 * ```ts
 * const bytes = EMBEDDED_SCHEMA_ANSWER === undefined ? encodeSchemaAnswer() : Buffer.from(EMBEDDED_SCHEMA_ANSWER, "base64");
 * ```
 */
export const EMBEDDED_SCHEMA_ANSWER: string | undefined = undefined;

/**
 * The provider's tofu schema (./schema's `terraformSchema()`) as the build embeds it, in
 * ./schema-answer's JSON form (Buffers as `{ "$bytes": base64 }`), that text base64 (UTF-8); none outside the
 * bundle.
 *
 * @example
 * ```ts
 * const schema = EMBEDDED_SCHEMA === undefined ? terraformSchema() : parseSchema(Buffer.from(EMBEDDED_SCHEMA, "base64").toString("utf8"));
 * ```
 */
export const EMBEDDED_SCHEMA: string | undefined = undefined;
