import { inspect } from "node:util";
import { documentedWord, isDocumentedField } from "./server-words";

/**
 * Brand shared by every error class of this package. `instanceof` checks it rather than the prototype
 * chain, so an error thrown by one copy of the package (the Pulumi provider host) is recognised by another
 * copy (the program).
 */
const BRAND = Symbol.for("pulumi-dns-account.error");

/** Stable machine-readable codes carried by {@link DnsAccountError.code}. */
export type ErrorCode =
  | "mfa_required"
  | "invalid_credentials"
  | "invalid_grant"
  | "authorization_failed"
  | "protocol"
  | "invalid_config"
  | "timeout"
  | "network"
  | "no_credentials"
  | "credential_process"
  | "store_corrupt"
  | "store_permissions"
  | "store_foreign_owner"
  | "store_locked"
  | "limit_reached"
  | "invalid_api_key"
  | "state_kept"
  | "revocation_unproven"
  | "base_url_conflict"
  | "stopped"
  | `http_${number}`;

/** What the server said about an error, when it said anything in the documented shape. */
export interface ServerErrorDetails {
  /** `error` of the body, e.g. `unauthorized`. */
  error?: string;
  /** `error_code` of the body, e.g. `2fa_required`. */
  errorCode?: string;
}

/** One field's complaint in an API validation error (`fields[]` of the error body). */
export interface FieldProblem {
  field: string;
  errorCode: string;
}

interface ErrorInit {
  status?: number;
  fields?: FieldProblem[];
  field?: string;
  server?: ServerErrorDetails;
  retryAfterMs?: number;
  cause?: unknown;
}

// A server's words are shown only when they are documented codes (see server-words.ts): any other string
// could echo a credential back, and no shape rule can tell a lowercase token from a code.
function safeWord(value: unknown): string | undefined {
  return documentedWord(value);
}

/**
 * Base class of every error this package throws. Branch on {@link DnsAccountError.code}, which is stable
 * across releases. Messages name fields, never their values; no secret is ever part of the message,
 * `toJSON()` or `util.inspect` output.
 *
 * @example
 * ```ts
 * try { await issueToken({ username, password }); }
 * catch (e) { if (e instanceof DnsAccountError && e.code === "mfa_required") promptForCode(); }
 * ```
 */
export class DnsAccountError extends Error {
  /** Stable code, e.g. `invalid_grant`, `http_503`, `timeout`. */
  readonly code: ErrorCode;
  /** HTTP status of the response that caused the error, when there was one. */
  readonly status?: number;
  /** Name of the offending field (of a body, a config object or a fragment), when one is to blame. */
  readonly field?: string;
  /** Server-provided `error` / `error_code`, when they are documented words (anything else is dropped). */
  readonly server?: ServerErrorDetails;
  /** Delay the server asked for (Retry-After), in milliseconds. */
  readonly retryAfterMs?: number;
  /** Field complaints of an API validation error (400 with `error_code` and `fields[]`). */
  readonly fields?: FieldProblem[];

  constructor(code: ErrorCode, message: string, init: ErrorInit = {}) {
    super(message);
    this.code = code;
    if (init.status !== undefined) this.status = init.status;
    if (init.field !== undefined) this.field = init.field;
    if (init.server !== undefined) this.server = init.server;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.fields !== undefined) this.fields = init.fields;
    // The cause may be a low-level error carrying a request; keep it reachable but out of logs.
    if (init.cause !== undefined) Object.defineProperty(this, "cause", { value: init.cause, enumerable: false });
    Object.defineProperty(this, BRAND, { value: true, enumerable: false });
    Object.defineProperty(this, "name", { value: new.target.name, enumerable: false, configurable: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null || !(value as Record<symbol, unknown>)[BRAND]) return false;
    if (this === DnsAccountError) return true;
    // Subclass check: compare by name along the value's own constructor chain (copies differ by identity).
    for (let c = (value as object).constructor; c && c !== Object; c = Object.getPrototypeOf(c)) {
      if (c.name === this.name) return true;
    }
    return false;
  }

  /** A plain object for structured logs: name, code, message and the non-secret details. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, code: this.code, message: this.message };
    if (this.status !== undefined) out.status = this.status;
    if (this.field !== undefined) out.field = this.field;
    if (this.server !== undefined) out.server = this.server;
    if (this.retryAfterMs !== undefined) out.retryAfterMs = this.retryAfterMs;
    if (this.fields !== undefined) out.fields = this.fields;
    return out;
  }

  [inspect.custom](): string {
    const details = JSON.stringify(this.toJSON());
    const stack = (this.stack ?? "").split("\n").slice(1).join("\n");
    return `${this.name} [${this.code}]: ${this.message} ${details}${stack ? `\n${stack}` : ""}`;
  }
}

/**
 * The account has two-factor authentication on and no MFA code was sent (401 with `error_code`
 * `2fa_required`). Retry the password grant with `mfaToken`.
 */
export class MfaRequiredError extends DnsAccountError {
  constructor(init: ErrorInit = {}) {
    super(
      "mfa_required",
      "Two-factor authentication is enabled for this account: pass the current MFA code as mfaToken",
      init,
    );
  }
}

/** Username, password or MFA code were rejected by the token endpoint. */
export class InvalidCredentialsError extends DnsAccountError {
  constructor(message = "The token endpoint rejected the username, password or MFA code", init: ErrorInit = {}) {
    super("invalid_credentials", message, init);
  }
}

/** The refresh token is revoked, expired or unknown; log in again. */
export class InvalidGrantError extends DnsAccountError {
  constructor(message = "The refresh token was rejected (revoked or unknown): log in again", init: ErrorInit = {}) {
    super("invalid_grant", message, init);
  }
}

/** The authorization endpoint redirected back with an `error=` fragment. */
export class AuthorizationError extends DnsAccountError {
  constructor(error: unknown, init: ErrorInit = {}) {
    const word = safeWord(error);
    super("authorization_failed", `Authorization failed${word ? `: ${word}` : ""}`, {
      ...init,
      ...(word ? { server: { error: word } } : {}),
    });
  }
}

/** A response (or redirect) broke the protocol: wrong shape, wrong type, not JSON, too large. */
export class ProtocolError extends DnsAccountError {
  constructor(message: string, init: ErrorInit = {}) {
    super("protocol", message, init);
  }
}

/** Options or configuration are wrong; `field` names the option. */
export class ConfigError extends DnsAccountError {
  constructor(message: string, init: ErrorInit = {}) {
    super("invalid_config", message, init);
  }
}

/** The server answered with an HTTP status this call does not treat as success (`code` is `http_<status>`). */
export class HttpError extends DnsAccountError {
  constructor(status: number, message = `The server answered HTTP ${status}`, init: ErrorInit = {}) {
    super(`http_${status}`, message, { ...init, status });
  }
}

/**
 * A create was refused with 429 because an account quota is used up (`code` `limit_reached`, `status`
 * 429). `limit` is the quota's key in `account.limits()` (`devices`, `dns_servers`, `dedicated_ipv4`…),
 * so the user knows which limit to raise.
 *
 * @example
 * ```ts
 * try { await client.devices.create(body); } catch (e) { if (e instanceof QuotaError) console.log(`raise ${e.limit}`); }
 * ```
 */
export class QuotaError extends DnsAccountError {
  /** Key of the exhausted quota in `account.limits()`, e.g. `devices`. */
  readonly limit: string;
  constructor(limit: string, init: ErrorInit = {}) {
    super("limit_reached", `The account's "${limit}" quota is used up (see account.limits()): remove some or raise the limit`, { ...init, status: 429 });
    this.limit = limit;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), limit: this.limit };
  }
}

/**
 * The API refused the API key (401): deleted in the dashboard, or never valid. Terminal: an API key
 * cannot be refreshed, so the client makes no further call with it.
 *
 * @example
 * ```ts
 * try { await client.account.limits(); } catch (e) { if (e instanceof InvalidApiKeyError) console.error("issue a new API key"); }
 * ```
 */
export class InvalidApiKeyError extends DnsAccountError {
  constructor(init: ErrorInit = {}) {
    super("invalid_api_key", "The API refused the API key (deleted or unknown): issue a new one in the dashboard", init);
  }
}

/**
 * A refresh token is not provably revoked (`code` `revocation_unproven`): after the revoke endpoint
 * answered, the token still worked (and still did after a second revoke with the token in the query), or
 * checking it failed. Treat the token as live: nothing was forgotten, and the message says what to do.
 *
 * @example
 * ```ts
 * try { await revokeToken({ refreshToken }); } catch (e) { if (e instanceof RevocationError) console.error(e.message); }
 * ```
 */
export class RevocationError extends DnsAccountError {
  constructor(message: string, init: ErrorInit = {}) {
    super("revocation_unproven", message, init);
  }
}

/** No usable response: the request timed out (`timeout`) or the connection failed (`network`). */
export class TransportError extends DnsAccountError {
  constructor(code: "timeout" | "network", message: string, init: ErrorInit = {}) {
    super(code, message, init);
  }
}

/** Stands in for a field name the API's description does not have (it could be an echoed value). */
export const UNDOCUMENTED_FIELD = "(undocumented field)";

/**
 * A call given up because its stop signal was aborted (`code` `stopped`): OpenTofu's StopProvider (the
 * user's Ctrl-C), or a client's `withStop` signal. What was not sent was not sent; a read or an
 * idempotent request in flight was cut off; a non-idempotent request already sent was let finish.
 *
 * @example
 * ```ts
 * try { await client.devices.list(); } catch (e) { if (e instanceof StoppedError) console.log("stopped"); }
 * ```
 */
export class StoppedError extends DnsAccountError {
  constructor(message = "Stopped before the call could finish (the provider was asked to stop)", init: ErrorInit = {}) {
    super("stopped", message, init);
  }
}

/**
 * Field problems from a validation-error body (`{error_code, fields: [{field, error_code}]}`), keeping
 * only documented field names and codes: anything else could quote a value, a token or a password.
 *
 * @example
 * ```ts
 * fieldProblems([{ field: "name", error_code: "FIELD_REQUIRED" }]); // [{ field: "name", errorCode: "FIELD_REQUIRED" }]
 * ```
 */
export function fieldProblems(fields: readonly { field: string; error_code: string }[]): FieldProblem[] {
  return fields.slice(0, 50).map((f) => ({
    field: isDocumentedField(f.field) ? f.field : UNDOCUMENTED_FIELD,
    errorCode: safeWord(f.error_code) ?? "UNKNOWN",
  }));
}

/** No credential source had anything: nothing to log in or refresh with. */
export class NoCredentialsError extends DnsAccountError {
  constructor(message: string, init: ErrorInit = {}) {
    super("no_credentials", message, init);
  }
}

/**
 * A secret and the base URL it would be sent to come from different places that name different
 * origins (`code` `base_url_conflict`): a profile logged in at one service and `DNS_ACCOUNT_BASE_URL`
 * naming another, say. The message names both places; nothing is sent anywhere.
 */
export class BaseUrlConflictError extends DnsAccountError {
  constructor(message: string, init: ErrorInit = {}) {
    super("base_url_conflict", message, init);
  }
}

/** The configured credential command failed: non-zero exit, timeout, or output that is not a token set. */
export class CredentialProcessError extends DnsAccountError {
  constructor(message: string, init: ErrorInit = {}) {
    super("credential_process", message, init);
  }
}

/**
 * The token store cannot be used: corrupt (`store_corrupt`); open to other users, in a folder others
 * can write, or a symbolic link (`store_permissions`); it or its folder owned by another user
 * (`store_foreign_owner`); or locked too long (`store_locked`). It is never overwritten silently, and
 * the message names the path and the fix.
 */
export class StoreError extends DnsAccountError {
  constructor(code: "store_corrupt" | "store_permissions" | "store_foreign_owner" | "store_locked", message: string, init: ErrorInit = {}) {
    super(code, message, init);
  }
}

/**
 * Details from a `{error, error_code, error_description}` body, keeping only documented words.
 *
 * @example
 * ```ts
 * serverDetails({ error: "unauthorized", error_code: "2fa_required" }); // { error: "unauthorized", errorCode: "2fa_required" }
 * ```
 */
export function serverDetails(body: unknown): ServerErrorDetails | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const error = safeWord(b.error);
  const errorCode = safeWord(b.error_code);
  if (!error && !errorCode) return undefined;
  return { ...(error ? { error } : {}), ...(errorCode ? { errorCode } : {}) };
}
