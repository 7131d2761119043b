import type { z } from "zod";
import { lazy, zod } from "../lazy";
import type { Validator } from "../schema";

// The one module whose declarations name zod's types: no public declaration imports it, so programs
// compiled without esModuleInterop or skipLibCheck never load zod's .d.ts files.

/**
 * A lazily built, precompiled validator for `T` (see the pattern above).
 *
 * @example
 * ```ts
 * interface Limit { limit: number; used: number }
 * const limitSchema = compiled<Limit>((z) => z.looseObject({ limit: z.number().int(), used: z.number().int() }));
 * limitSchema().safeParse({ limit: 1, used: 0 }).success; // true
 * ```
 */
export function compiled<T>(build: (zod: typeof z, use: <U>(child: () => Validator<U>) => z.ZodType<U>) => z.ZodType<T>): () => Validator<T> {
  return lazy(() => {
    const { z } = zod();
    // Every Validator made here is a zod schema underneath: `use` only restores its static type.
    const use = <U>(child: () => Validator<U>): z.ZodType<U> => child() as unknown as z.ZodType<U>;
    return z.compile(build(z, use)) as Validator<T>;
  });
}
