/**
 * The dynamic-provider face: adapts one resource's engine-agnostic {@link Lifecycle} to the object that
 * `pulumi.dynamic.Resource` serializes. Each resource's `provider.ts` is `dynamicFace(() => lifecycle)`
 * re-exported, so its `__provider` stays a `require()` of that module and holds nothing else.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { Lifecycle, ProviderContext } from "./lifecycle";

// Loaded on the first call, in the provider host: a program that only declares resources never pays for
// the lifecycles, the credential chain or the SDK client (require("pulumi-dns-account") stays cheap).
const stackConfig = (): typeof import("./stack-config") => require("./stack-config") as typeof import("./stack-config");
const partial = (): typeof import("./lifecycle") => require("./lifecycle") as typeof import("./lifecycle");

/** The serialized provider of one resource: the dynamic engine's methods plus `configure`. */
export interface DynamicFace<I, O> extends Required<Pick<dynamic.ResourceProvider<I, O>, "check" | "diff" | "create" | "read" | "update" | "delete">> {
  configure(req: dynamic.ConfigureRequest): Promise<void>;
}

/**
 * The dynamic provider of a resource whose lifecycle `load()` returns (called on first use).
 *
 * @example
 * ```ts
 * const face = dynamicFace<DeviceInputs, DeviceOutputs>(() => require("./lifecycle"));
 * export const { configure, check, diff, create, read, update } = face;
 * ```
 */
export function dynamicFace<I, O>(load: () => Lifecycle<I, O>): DynamicFace<I, O> {
  const ctx = (): ProviderContext => stackConfig().dynamicContext();
  return {
    configure: (req) => stackConfig().configure(req),
    async check(olds, news) {
      const { inputs, failures } = await load().check(ctx(), olds, news);
      // The engine prints the value of the property a failure names: never one that holds a secret.
      return failures && failures.length > 0 ? { inputs, failures: partial().secretSafeFailures(failures) } : { inputs };
    },
    diff: (id, olds, news) => load().diff(ctx(), id, olds, news),
    async create(inputs) {
      try {
        return await load().create(ctx(), inputs);
      } catch (err) {
        // The host's partial-state path: an error with `id`, `properties` and `reasons` is recorded under
        // that id (with this resource's `__provider`, which every state entry of a dynamic resource needs).
        if (err instanceof partial().PartialCreateError) {
          const provider = (inputs as Record<string, unknown>).__provider;
          Object.assign(err, { properties: { ...err.outs, ...(provider !== undefined ? { __provider: provider } : {}) }, reasons: [err.message] });
        }
        throw err;
      }
    },
    read: async (id, props) => {
      const { id: found, props: outs } = await load().read(ctx(), id, props as O);
      return found === undefined ? {} : { id: found, ...(outs !== undefined ? { props: outs } : {}) };
    },
    update: (id, olds, news) => load().update(ctx(), id, olds, news),
    delete: (id, props) => load().remove(ctx(), id, props),
  };
}
