import type * as dynamic from "@pulumi/pulumi/dynamic";
import { allowInsecureHttpFrom, type CredentialFields, fromConfig } from "../credentials";

/** Stack config read by `configure()` in the provider host; module state, never serialized. */
let fields: CredentialFields = {};
/** `dns-account:allowInsecureHttp` (or DNS_ACCOUNT_ALLOW_INSECURE_HTTP), spread into every call. */
let insecureHttp: { allowInsecureHttp?: true } = {};

/**
 * Reads the stack config (`dns-account:*`) in the provider host. The host calls every resource
 * provider's `configure` once, before any other method; all of them land here.
 *
 * @example
 * ```ts
 * export { configure } from "../shared/stack-config"; // in a resource's provider.ts
 * ```
 */
export async function configure(req: dynamic.ConfigureRequest): Promise<void> {
  const get = (key: string): string | undefined => {
    try {
      return req.config.get(key);
    } catch {
      return undefined;
    }
  };
  fields = fromConfig(get);
  insecureHttp = allowInsecureHttpFrom(get) ? { allowInsecureHttp: true } : {};
}

/** The credential fields of the stack config (empty before `configure`). */
export function stackConfig(): CredentialFields {
  return fields;
}

/** `{ allowInsecureHttp: true }` when the stack config (or environment) opts in, else `{}`. */
export function insecure(): { allowInsecureHttp?: true } {
  return insecureHttp;
}
