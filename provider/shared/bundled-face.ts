/**
 * A resource's dynamic face as its serialized `provider.ts` exports it: each method loads the dynamic
 * bundle (`dist/provider/dynamic.bundle.js`, scripts/bundle.mjs: every face, lifecycle and the SDK client
 * in one minified file, with V8's code cache) on its first call, in the provider host, and calls the
 * bundle's face. Nothing is captured but the face's name: the serialized provider stays a `require()`
 * of `provider.js`, and a program that only declares resources never loads the bundle.
 */
import path from "node:path";
import type { DynamicFace } from "./dynamic-face";
import { cacheUsed, loadBundle, refreshCache } from "./load-bundle";

type Faces = typeof import("../dynamic");
type FaceName = "token" | "dnsServer" | "device" | "dedicatedIpv4";

/** The dynamic bundle's path (this module is inlined into each `provider.js`, one folder below). */
const BUNDLE = path.join(__dirname, "..", "dynamic.bundle.js");

let checked = false;
/** Once the first call has run: a fresh code cache when this Node had none it accepts. */
function afterFirstCall(): void {
  if (checked) return;
  checked = true;
  if (!cacheUsed(BUNDLE)) setImmediate(() => refreshCache(BUNDLE));
}

/**
 * The face `name` of the dynamic bundle, loaded on the first call.
 *
 * @example
 * ```ts
 * const face = bundledFace("device");
 * export const check = face.check;
 * ```
 */
export function bundledFace<K extends FaceName>(name: K): Faces[K] {
  type Face = DynamicFace<unknown, unknown>;
  const face = (): Face => (loadBundle(BUNDLE) as Record<FaceName, Face>)[name];
  const after = <T>(p: Promise<T>): Promise<T> => p.finally(afterFirstCall);
  const methods: Face = {
    configure: (req) => after(face().configure(req)),
    check: (olds, news) => after(face().check(olds, news)),
    diff: (id, olds, news) => after(face().diff(id, olds, news)),
    create: (inputs) => after(face().create(inputs)),
    read: (id, props) => after(face().read(id, props)),
    update: (id, olds, news) => after(face().update(id, olds, news)),
    delete: (id, props) => after(face().delete(id, props)),
  };
  return methods as unknown as Faces[K];
}
