/**
 * The contract between a resource and the engines that drive it. A resource is its `types.ts` and a
 * `lifecycle.ts` written in these plain terms (inputs in, outputs out, failures as `{ property, reason }`);
 * each engine face (the dynamic provider's serialized module, the native plugin) adapts every resource at
 * once and is the only code that knows its engine's types.
 */
import type { CredentialFields, CredentialWords } from "../credentials";

/** A problem with one input, named by its property path (`settings.userRules.rules[3]`), never its value. */
export interface Failure {
  property: string;
  reason: string;
}

/**
 * What a failure on an id that is not a string adds: YAML reads an unquoted id of digits only (the
 * service's ids are hex, so `12345678` happens) as a number.
 */
export const ID_IN_YAML = " (in YAML, quote an id made only of digits)";

/**
 * The input properties, of any resource or of the provider's configuration, whose value is or holds a
 * secret: the schema's secret inputs and secret configuration keys, and `credentials`, which holds them.
 * test/provider/secret-failures.test.ts holds this set against the schema.
 */
export const SECRET_BEARING: ReadonlySet<string> = new Set(["credentials", "password", "mfaToken", "refreshToken", "apiKey", "accessToken"]);

/**
 * Check failures that the engine can print without a secret. The engine prints the value of the property
 * a failure names (`property credentials value {…} has a problem: …`), in clear unless it happens to be a
 * secret stack config value. A failure that names a property whose value is or holds a secret (one of
 * {@link SECRET_BEARING} or of `secret`, e.g. what arrived secret) names none: its path moves into the
 * reason, and the engine prints `has a problem: credentials.refreshToken: …`. Both engine faces answer
 * Check and CheckConfig through this.
 *
 * @example
 * ```ts
 * secretSafeFailures([{ property: "credentials", reason: "base_url_conflict: …" }]);
 * // [{ property: "", reason: "credentials: base_url_conflict: …" }]
 * ```
 */
export function secretSafeFailures(failures: readonly Failure[] | undefined, secret: Iterable<string> = []): Failure[] {
  const secrets = new Set([...SECRET_BEARING, ...secret]);
  return (failures ?? []).map((f) => {
    const top = f.property.split(/[.[]/, 1)[0] ?? "";
    if (!secrets.has(top)) return f;
    return { property: "", reason: f.reason.startsWith(`${f.property} `) || f.reason.startsWith(`${f.property}:`) ? f.reason : `${f.property}: ${f.reason}` };
  });
}

/** What `check` gives back: the inputs to use and what is wrong with them (empty when nothing is). */
export interface CheckResult<I> {
  inputs: I;
  failures?: Failure[];
}

/** What `diff` decides: whether anything changes, and which properties force a replacement. */
export interface DiffResult {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** A created object: its id and state. */
export interface CreateResult<O> {
  id: string;
  outs: O;
  /**
   * Every setting the new object has at the service, in the program's names, where `outs` hold only the
   * declared ones (a Device): for a face whose state holds them all (tofu's), so that it need not read the
   * object again. Absent when the lifecycle has nothing more than `outs`.
   */
  allSettings?: Record<string, unknown>;
}

/**
 * What `read` found. No `id` means "gone". `inputs`, when present, are inputs that describe the live
 * object (an import: `check` of them passes and `diff` against `props` shows no change).
 */
export interface ReadResult<O, I = unknown> {
  id?: string;
  props?: O;
  inputs?: I;
}

/** An updated object's state. */
export interface UpdateResult<O> {
  outs: O;
}

/**
 * The provider instance's settings, resolved once per configure: its credential fields (stack config of
 * the dynamic provider, or the plugin's provider configuration) and whether plain `http://` to a host other
 * than loopback is allowed. Passed to every lifecycle call, so two provider instances never share them.
 */
export interface ProviderContext {
  /** Credential fields of the provider's configuration (empty when it has none). */
  readonly config: CredentialFields;
  /** `allowInsecureHttp` of the provider's configuration (or `DNS_ACCOUNT_ALLOW_INSECURE_HTTP`). */
  readonly allowInsecureHttp: boolean;
  /** Tells the user something that is not an error (stderr in the dynamic host, the engine's log in the plugin). */
  warn(message: string): void;
  /**
   * `skipCredentialsValidation` of the provider's configuration: when true, `check` does not ask the
   * service whether the credentials work (one cheap call per provider and credential otherwise).
   */
  readonly skipCredentialsValidation?: boolean;
  /**
   * Said after "No credentials" when the configuration holds a key the provider does not read that would
   * have been a credential (`dns-account:apikey is set: did you mean dns-account:apiKey?`).
   */
  readonly credentialHint?: string;
  /**
   * `check` runs its static part only: what the inputs say by themselves, with no credential resolved, no
   * file read and no call to the service (OpenTofu's ValidateResourceConfig, which runs before the provider
   * is configured; its plan runs the whole check).
   */
  readonly offline?: boolean;
  /**
   * The clock of decisions made by time (a Token due for rotation or renewal); `Date.now` when absent. The
   * OpenTofu face sets it to the time of the refresh a plan rests on, so a saved plan and the plan tofu makes
   * again at apply decide alike.
   */
  readonly now?: () => number;
  /**
   * The call's stop signal (OpenTofu's StopProvider): once it aborts, the call's requests to the service
   * give up with `stopped` — reads, waits and idempotent requests at once, a create already sent when it
   * is answered (see `Client.withStop`). Absent: the call runs to its end.
   */
  readonly signal?: AbortSignal;
  /**
   * The words of the user's surface for what the lifecycles say (issue 34): absent, the Pulumi faces'
   * (program properties, stack config); the OpenTofu face passes its own (a credentials block, the
   * provider block, an import block).
   */
  readonly words?: SurfaceWords;
}

/**
 * The sentences of the lifecycles that a face says its own way: where credentials can be given, what
 * brings back a kept object, what to do about a single-use MFA code. Every site falls back to the Pulumi
 * faces' words when the context has none, so those stay exactly as they were. (Names alone — properties,
 * types, functions — a face renames in what it prints.)
 *
 * @example
 * ```ts
 * const ctx: ProviderContext = { config: {}, allowInsecureHttp: false, warn: console.warn, words: TOFU_WORDS };
 * ctx.words?.noCredentials("call"); // "No credentials: give the data source a credentials block …"
 * ```
 */
export interface SurfaceWords {
  /** "No credentials" of an account resource, of a function call (a data source) and of a Token. */
  noCredentials(who: "resource" | "call" | "token"): string;
  /** The warning of a destroy that keeps an object the configuration created, and how to bring it back. */
  kept(type: "DnsServer" | "Device", id: string): string;
  /** What a login with a single-use MFA code must do instead (a Token's create, a password login that the service refused). */
  mfa: string;
  /** What a Token logs in with, after "a Token is a password login": `(username and password, on the Token or …) or adopts a refresh token (…)`. */
  tokenLogins: string;
  /** A Token's words for its credential sources (its own arguments, the provider's, the environment). */
  tokenCredentials: CredentialWords;
  /** An account resource's words for its credential sources (its `credentials`, the provider's, the environment). */
  accountCredentials: CredentialWords;
}

/** The context's clock: {@link ProviderContext.now}, else `Date.now()`. */
export function nowOf(ctx: ProviderContext): number {
  return ctx.now ? ctx.now() : Date.now();
}

/** `{ allowInsecureHttp: true }` when the context allows it, else `{}`: spread into SDK options. */
export function insecureOf(ctx: ProviderContext): { allowInsecureHttp?: true } {
  return ctx.allowInsecureHttp ? { allowInsecureHttp: true } : {};
}

/**
 * One resource's lifecycle, engine-agnostic. `remove` is the engine's delete.
 *
 * @example
 * ```ts
 * const lifecycle: Lifecycle<DeviceInputs, DeviceOutputs> = require("./device/lifecycle");
 * const { id, outs } = await lifecycle.create(ctx, inputs);
 * ```
 */
export interface Lifecycle<I, O> {
  check(ctx: ProviderContext, olds: I, news: I): Promise<CheckResult<I>>;
  diff(ctx: ProviderContext, id: string, olds: O, news: I): Promise<DiffResult>;
  create(ctx: ProviderContext, inputs: I): Promise<CreateResult<O>>;
  read(ctx: ProviderContext, id: string, props: O): Promise<ReadResult<O, I>>;
  update(ctx: ProviderContext, id: string, olds: O, news: I): Promise<UpdateResult<O>>;
  remove(ctx: ProviderContext, id: string, props: O): Promise<void>;
}

/**
 * A create that made an object but could not finish. An engine face records `outs` under `id` (the
 * engine's partial-state path, `ErrorResourceInitFailed`), so nothing the service holds is left outside
 * every state, and the next `up` finishes the job with an update.
 *
 * @example
 * ```ts
 * throw new PartialCreateError("Linking the address failed: …", ip, { ip });
 * ```
 */
export class PartialCreateError extends Error {
  override name = "PartialCreateError";
  constructor(
    message: string,
    /** The id of the object that exists. */
    readonly id: string,
    /** The state to record for it. */
    readonly outs: object,
  ) {
    super(message);
  }
}
