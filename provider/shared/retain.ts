/**
 * What destroy does at the service to a DnsServer or Device, one rule for both engine faces (issue 33 §4).
 * `deleteOnDestroy`, when the program declares it, decides whoever made the object: `false` keeps it (the
 * program forgets it, as Pulumi's `retainOnDelete` does), `true` deletes it. Undeclared, an object the
 * program created is deleted and an adopted one is kept.
 *
 * The state records the rule in `retainOnDestroy`, because the dynamic provider's delete sees the state
 * alone. A state written before that output existed holds `deleteOnDestroy: false` for an undeclared
 * value as for a declared one; the native plugin's Delete also gets the last inputs, whose declared value
 * ({@link withDeclaredRule}) settles it.
 */
import type { SurfaceWords } from "./lifecycle";
import { isUnknown } from "./unknown";

/** The fields of a DnsServer's or Device's inputs that decide what destroy does. */
export interface DestroyInputs {
  adopt?: unknown;
  deleteOnDestroy?: unknown;
}

/** The fields of a DnsServer's or Device's state that record what destroy does. */
export interface DestroyState {
  adopt?: unknown;
  deleteOnDestroy?: unknown;
  retainOnDestroy?: unknown;
}

/**
 * Whether destroy keeps the object that these inputs declare: `deleteOnDestroy` when declared, else
 * whether it is adopted. An unknown value (a preview) counts as undeclared: the check after it sees it.
 *
 * @example
 * ```ts
 * retainFor({ deleteOnDestroy: false });  // true: kept although the program created it
 * retainFor({ adopt: "default" });        // true
 * retainFor({ name: "Home" });            // false: created, so deleted
 * ```
 */
export function retainFor(inputs: DestroyInputs): boolean {
  const declared = inputs.deleteOnDestroy;
  if (typeof declared === "boolean") return !declared;
  return inputs.adopt !== undefined && inputs.adopt !== null;
}

/**
 * Whether destroy keeps the object this state describes. `deleteOnDestroy: true` always deletes; then the
 * recorded `retainOnDestroy`; a state without it (written before it existed) keeps only an adopted object.
 *
 * @example
 * ```ts
 * retainedBy({ deleteOnDestroy: false, retainOnDestroy: true }); // true
 * retainedBy({ deleteOnDestroy: false });                        // false: an older state of a created object
 * ```
 */
export function retainedBy(state: DestroyState): boolean {
  if (state.deleteOnDestroy === true) return false;
  if (typeof state.retainOnDestroy === "boolean") return state.retainOnDestroy;
  return state.adopt !== undefined && state.adopt !== null;
}

/**
 * The state's destroy fields for these inputs: `deleteOnDestroy` as declared (false when not) and the
 * rule in `retainOnDestroy`.
 *
 * @example
 * ```ts
 * destroyFields({ deleteOnDestroy: false }); // { deleteOnDestroy: false, retainOnDestroy: true }
 * ```
 */
export function destroyFields(inputs: DestroyInputs): { deleteOnDestroy: boolean; retainOnDestroy: boolean } {
  return { deleteOnDestroy: inputs.deleteOnDestroy === true, retainOnDestroy: retainFor(inputs) };
}

/**
 * The destroy fields a state keeps when it is written again from itself (a refresh): its `deleteOnDestroy`
 * and its rule, which for a state written before `retainOnDestroy` existed is the rule of then.
 *
 * @example
 * ```ts
 * destroyFieldsOf({ adopt: "default", deleteOnDestroy: false }); // { deleteOnDestroy: false, retainOnDestroy: true }
 * ```
 */
export function destroyFieldsOf(state: DestroyState): { deleteOnDestroy: boolean; retainOnDestroy: boolean } {
  return { deleteOnDestroy: state.deleteOnDestroy === true, retainOnDestroy: retainedBy(state) };
}

/**
 * Whether the destroy rule these inputs declare differs from the one the state records (including a
 * `deleteOnDestroy` that is not known yet): `diff` reports it as a change of `deleteOnDestroy`, so the
 * state records the rule before the object is ever removed from the program.
 *
 * @example
 * ```ts
 * destroyRuleChanged({ deleteOnDestroy: false }, { deleteOnDestroy: false }); // true: an older state deletes it
 * ```
 */
export function destroyRuleChanged(state: DestroyState, inputs: DestroyInputs): boolean {
  if (isUnknown(inputs.deleteOnDestroy)) return true;
  return (inputs.deleteOnDestroy === true) !== (state.deleteOnDestroy === true) || retainFor(inputs) !== retainedBy(state);
}

/**
 * The state with the destroy rule its last inputs declare, when they declare `deleteOnDestroy`: the
 * native plugin's Delete passes the engine's old inputs, which settle a state written before
 * `retainOnDestroy` existed. Inputs without a declared value leave the state as it is.
 *
 * @example
 * ```ts
 * withDeclaredRule({ serverId: "s1", deleteOnDestroy: false }, { name: "Home", deleteOnDestroy: false });
 * // { serverId: "s1", deleteOnDestroy: false, retainOnDestroy: true }
 * ```
 */
export function withDeclaredRule<S extends object>(state: S, inputs: DestroyInputs): S {
  if (typeof inputs.deleteOnDestroy !== "boolean") return state;
  return { ...state, deleteOnDestroy: inputs.deleteOnDestroy, retainOnDestroy: !inputs.deleteOnDestroy };
}

/**
 * The warning of a delete that keeps an object the program created: never silent (issue 33 §4). `words`
 * (the context's) say it for another surface (OpenTofu: an import block brings it back).
 *
 * @example
 * ```ts
 * ctx.warn(keptWords("DnsServer", id, ctx.words));
 * ```
 */
export function keptWords(type: "DnsServer" | "Device", id: string, words?: SurfaceWords): string {
  if (words) return words.kept(type, id);
  return (
    `${type} ${id} is kept at the service (deleteOnDestroy: false, declared by the program or, in a stack last updated before 0.4.0, filled in by its SDK): ` +
    `the program forgets it. Adopt it again with adopt: "${id}" (add deleteOnDestroy: true to delete it then)`
  );
}
