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

/**
 * For a response object whose description lets these properties be missing: a `null` in any of them is
 * read as absent (the service's description says where a value "can be null" without typing it so).
 * Copies the object only when it has such a null.
 *
 * @example
 * ```ts
 * absent(["device_id"])({ ip: "203.0.113.7", device_id: null }); // { ip: "203.0.113.7" }
 * ```
 */
export function absent(optional: readonly string[]): (value: unknown) => unknown {
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const v = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    for (const key of optional) {
      if (v[key] === null && Object.hasOwn(v, key)) {
        copy ??= { ...v };
        delete copy[key];
      }
    }
    return copy ?? value;
  };
}
