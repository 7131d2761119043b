/**
 * A Token's arguments, inputs and state: generated from the package schema
 * (`provider/schema/schema.json`), which the plugin serves, so both faces agree.
 *
 * @example
 * ```ts
 * const args: TokenArgs = { keepers: { rotation: "2026-Q4" }, rotationPeriodSeconds: 30 * 86400 };
 * ```
 */
export type { TokenArgs, TokenInputs, TokenMode, TokenOutputs } from "../schema/types.generated";
