import type * as dynamic from "@pulumi/pulumi/dynamic";
import { allowInsecureHttpFrom, type CredentialFields, fromConfig } from "../credentials";
import type { ProviderContext } from "./lifecycle";

/** Stack config read by `configure()` in the provider host; module state, never serialized. */
let fields: CredentialFields = {};
/** `dns-account:allowInsecureHttp` (or DNS_ACCOUNT_ALLOW_INSECURE_HTTP). */
let insecureHttp = false;

/**
 * Reads the stack config (`dns-account:*`) in the dynamic-provider host. The host calls every resource
 * provider's `configure` once, before any other method; all of them land here. The host serves one
 * stack, so one context serves every dynamic resource of it.
 *
 * @example
 * ```ts
 * await configure(req); // the dynamic face's configure
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
  insecureHttp = allowInsecureHttpFrom(get);
}

const warn = (message: string): void => void process.stderr.write(`warning: ${message}\n`);

/** The dynamic host's provider context: the stack config read by {@link configure} (empty before it). */
export function dynamicContext(): ProviderContext {
  return { config: fields, allowInsecureHttp: insecureHttp, warn };
}
