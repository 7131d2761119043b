import type { Client } from "../../sdk/client/client";
import { DnsAccountError, QuotaError } from "../../sdk/errors";
import { PartialCreateError } from "./lifecycle";

/**
 * An error as the engine shows it: what failed, the stable code, the message and the service's field
 * complaints by name. Messages of this package carry no secret, so nothing here can leak one; anything
 * that is not ours keeps only its message. `hint` says what to do next.
 *
 * @example
 * ```ts
 * try { await client.dnsServers.create(body); } catch (err) { throw explain("Creating the DNS server failed", err); }
 * ```
 */
export function explain(action: string, err: unknown, hint?: string, rename?: (serviceField: string) => string | undefined): Error {
  if (err instanceof DnsAccountError) {
    // The service's field complaints in the program's names (`settings.blockingMode.ipv4`), said once.
    const fields = (err.fields ?? []).map((f) => `${rename?.(f.field) ?? f.field} (${f.errorCode})`);
    // The SDK's words (`account.limits()`) mean nothing in a program of another language: the engine
    // surface names the provider's function and the CLI command that show the quotas.
    const own = err instanceof QuotaError ? `The account's "${err.limit}" quota is used up: remove some or raise the limit (the getAccountLimits function or \`dns-account status\` shows the quotas)` : err.message;
    const message = fields.length === 0 ? own : /^The API rejected the request/.test(own) ? `The API rejected ${fields.join(", ")}` : `${own} [${fields.join(", ")}]`;
    const field = err.field !== undefined ? (rename?.(err.field) ?? err.field) : undefined;
    const e = new Error(`${action}: ${err.code}: ${message}${field && !message.includes(field) ? ` (${field})` : ""}${hint ? `; ${hint}` : ""}`);
    Object.defineProperty(e, "code", { value: err.code, enumerable: false });
    return e;
  }
  return err instanceof Error ? err : new Error(`${action} failed`);
}

/** True for the service's "no such object" answer. */
export function isNotFound(err: unknown): boolean {
  return err instanceof DnsAccountError && err.status === 404;
}

/**
 * A create that made an object but could not finish, as a {@link PartialCreateError}: the engine face
 * records `outs` under `id`, so nothing the service holds is left outside every state, and the next `up`
 * finishes the job with an update.
 */
export function initFailed(action: string, err: unknown, id: string, outs: object, rename?: (serviceField: string) => string | undefined): PartialCreateError {
  const e = explain(action, err, undefined, rename);
  const partial = new PartialCreateError(e.message, id, outs);
  const code = (e as { code?: unknown }).code;
  if (code !== undefined) Object.defineProperty(partial, "code", { value: code, enumerable: false });
  return partial;
}

/**
 * Like {@link explain}, and for a used-up quota also says how much of it is used, from the account's
 * limits (best effort: the error stands without it).
 */
export async function explainWithQuota(action: string, err: unknown, client: Client, rename?: (serviceField: string) => string | undefined): Promise<Error> {
  const e = explain(action, err, undefined, rename);
  if (!(err instanceof QuotaError)) return e;
  try {
    const limits = (await client.account.limits()) as unknown as Record<string, { used?: unknown; limit?: unknown } | undefined>;
    const q = limits[err.limit];
    if (q && typeof q.used === "number" && typeof q.limit === "number") e.message += ` (${err.limit}: ${q.used} used of ${q.limit})`;
  } catch {
    // the quota's name is in the message already
  }
  return e;
}
