/**
 * Memoizes a value built on first use. The SDK builds its zod schemas (and loads zod and the token
 * store's file libraries) this way, so that `require("pulumi-dns-account/sdk")` costs little more than
 * `require("undici")`; `bench/` measures it.
 */
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}

/** zod, loaded on first use. */
export const zod = lazy(() => require("zod") as typeof import("zod"));
