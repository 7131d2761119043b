/**
 * What the SDK asks of a validator: zod's `safeParse` shape, as a plain type. zod schemas fit it. Public
 * declarations name this type rather than zod's, so programs compile against the package without
 * `esModuleInterop` or `skipLibCheck` (Pulumi's older TypeScript template).
 *
 * @example
 * ```ts
 * const limits = await client.request({ path: "/account/limits", schema: z.looseObject({ devices: z.any() }) });
 * ```
 */
export interface Validator<T> {
  safeParse(value: unknown): ValidationResult<T>;
}

/** The result of {@link Validator.safeParse}. */
export type ValidationResult<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey> }> } };
