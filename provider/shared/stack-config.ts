import type * as dynamic from "@pulumi/pulumi/dynamic";
import { allowInsecureHttpFrom, type CredentialFields, fromConfig } from "../credentials";
import { keyWords, unknownKeys } from "./config-keys";
import type { ProviderContext } from "./lifecycle";

/** Stack config read by `configure()` in the provider host; module state, never serialized. */
let fields: CredentialFields = {};
/** `dns-account:allowInsecureHttp` (or DNS_ACCOUNT_ALLOW_INSECURE_HTTP). */
let insecureHttp = false;
/** `dns-account:skipCredentialsValidation`. */
let skipValidation = false;
/** Said after "No credentials" when a misspelled `dns-account:` key would have been the credential. */
let credentialHint: string | undefined;
/** Each resource type's provider is configured: say each warning once. */
const warned = new Set<string>();

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
  skipValidation = /^(1|true|yes)$/i.test(get("dns-account:skipCredentialsValidation") ?? "");
  // The host's Config holds the whole stack config: a `dns-account:` key no setting reads is a warning.
  const raw = (req.config as unknown as { rawConfig?: Record<string, unknown> }).rawConfig ?? {};
  const ours = Object.fromEntries(Object.entries(raw).filter(([k]) => k.startsWith("dns-account:")).map(([k, v]) => [k.slice("dns-account:".length), v]));
  const words = keyWords(unknownKeys(ours), (k) => `dns-account:${k}`);
  for (const message of words.warnings) if (!warned.has(message)) (warned.add(message), warn(message));
  credentialHint = words.credentialHint;
}

function warn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}

/** The dynamic host's provider context: the stack config read by {@link configure} (empty before it). */
export function dynamicContext(): ProviderContext {
  return { config: fields, allowInsecureHttp: insecureHttp, warn, skipCredentialsValidation: skipValidation, ...(credentialHint ? { credentialHint } : {}) };
}
