/** The subset of JSON Schema the service's description uses (and the emulator's validator reads). */
export interface Schema {
  type?: string;
  $ref?: string;
  properties?: Record<string, Schema>;
  required?: readonly string[];
  items?: Schema;
  enum?: readonly unknown[];
  oneOf?: readonly Schema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  format?: string;
  default?: unknown;
  uniqueItems?: boolean;
  deprecated?: boolean;
}

/** One parameter of an operation. */
export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

/** One operation: the facts the emulator serves and the contract test compares. */
export interface Operation {
  operationId: string;
  tags?: readonly string[];
  parameters?: readonly Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: readonly Record<string, readonly string[]>[];
  deprecated?: boolean;
}

/**
 * An OpenAPI 3 document reduced to facts (see `generate.ts`).
 *
 * @example
 * ```ts
 * const op: Operation | undefined = REFERENCE.paths["/oapi/v1/devices"]?.get;
 * ```
 */
export interface OpenApiFacts {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes?: Record<string, unknown> };
  security?: readonly Record<string, readonly string[]>[];
}
