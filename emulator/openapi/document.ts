import { REFERENCE } from "./reference.generated";
import type { OpenApiFacts } from "./schema";

/** What shapes the emulator's document besides its address. */
export interface DocumentOptions {
  /** `false`: the 1.11 token endpoint, where `grant_type` is optional. Default `true` (1.15). */
  requireGrantType?: boolean;
}

/**
 * The emulator's own OpenAPI description, served at `/swagger/openapi.json` and
 * `/static/swagger/openapi.json`. The emulator serves every operation of API 1.15, so the document is
 * the service's facts (`reference.generated.ts`, no prose) with the emulator's address; in the
 * 1.11-compatible mode it says that `grant_type` is optional.
 *
 * @example
 * ```ts
 * const doc = openApiDocument("http://127.0.0.1:8787");
 * Object.keys(doc.paths).length; // 30
 * ```
 */
export function openApiDocument(serverUrl: string, options: DocumentOptions = {}): OpenApiFacts & Record<string, unknown> {
  const doc = structuredClone(REFERENCE) as OpenApiFacts & Record<string, unknown>;
  doc.info = { title: "Account API emulator", version: REFERENCE.info.version } as OpenApiFacts["info"];
  doc.servers = [{ url: serverUrl }];
  if (options.requireGrantType === false) {
    const credentials = doc.components.schemas.AccessTokenCredentials!;
    delete (credentials as { required?: unknown }).required;
  }
  return doc;
}
