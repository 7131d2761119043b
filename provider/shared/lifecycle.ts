/**
 * The contract between a resource and the engines that drive it. A resource is its `types.ts` and a
 * `lifecycle.ts` written in these plain terms (inputs in, outputs out, failures as `{ property, reason }`);
 * each engine face (the dynamic provider's serialized module, the native plugin) adapts every resource at
 * once and is the only code that knows its engine's types.
 */
import type { CredentialFields } from "../credentials";

/** A problem with one input, named by its property path (`settings.userRules.rules[3]`), never its value. */
export interface Failure {
  property: string;
  reason: string;
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
