/**
 * What the SDK asks of a validator: a `safeParse` that returns the data or issues with a path. zod
 * schemas fit it. Public declarations name this type rather than zod's, so programs compile against the
 * package without `esModuleInterop` or `skipLibCheck` (Pulumi's older TypeScript template).
 *
 * @example
 * ```ts
 * const limits = await client.request({ path: "/account/limits", schema: z.looseObject({ devices: z.any() }) });
 * ```
 */
export interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey> }> } };
}
