import { lazy, zod } from "../lazy";
import { validate } from "../auth/token-response";
import { isSafePathTemplate } from "./path";

/** One operation of an OpenAPI description, as {@link Client.call} needs it. */
export interface Operation {
  operationId: string;
  method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH" | "HEAD";
  /** Full path with `{param}` placeholders, e.g. `/oapi/v1/devices/{device_id}`. */
  path: string;
  summary?: string;
  pathParams: string[];
  queryParams: { name: string; required: boolean }[];
  bodyRequired: boolean;
}

const schemas = lazy(() => {
  const { z } = zod();
  const parameter = z.looseObject({ name: z.string(), in: z.string(), required: z.boolean().optional() });
  const operation = z.looseObject({
    operationId: z.string().optional(),
    summary: z.string().optional(),
    parameters: z.array(parameter).optional(),
    requestBody: z.looseObject({ required: z.boolean().optional() }).optional(),
  });
  const document = z.looseObject({
    paths: z.record(z.string(), z.looseObject({ parameters: z.array(parameter).optional() })),
  });
  return { operation, document };
});

const METHODS = ["get", "post", "put", "delete", "patch", "head"] as const;

/**
 * Lists the operations of an OpenAPI 3 document (path-level parameters included). Operations without an
 * operationId are left out (they cannot be called by id), and so are paths that are not plain absolute
 * paths (`@host/x`, `//host`, `/../x`): the document never moves a call off the base URL's origin.
 *
 * @example
 * ```ts
 * parseOperations(doc).map((o) => o.operationId); // ["accessToken", "listDevices", …]
 * ```
 */
export function parseOperations(doc: unknown): Operation[] {
  const { operation, document } = schemas();
  const { paths } = validate(document, doc);
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    // A path that is not a plain absolute path could move a call (and its Bearer token) to another host.
    if (!isSafePathTemplate(path)) continue;
    for (const method of METHODS) {
      const parsed = operation.safeParse(item[method]);
      if (!parsed.success || !parsed.data.operationId) continue;
      const op = parsed.data;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      out.push({
        operationId: op.operationId!,
        method: method.toUpperCase() as Operation["method"],
        path,
        ...(op.summary !== undefined ? { summary: op.summary } : {}),
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        queryParams: params.filter((p) => p.in === "query").map((p) => ({ name: p.name, required: p.required ?? false })),
        bodyRequired: op.requestBody?.required ?? false,
      });
    }
  }
  return out;
}
