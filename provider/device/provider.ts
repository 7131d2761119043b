/**
 * The dynamic provider of {@link Device}. This module's exports *are* the provider object, so each
 * Device's `__provider` is a `require()` of this file (listed in the package's `exports`): no config,
 * no secret, no client. The path must stay stable: existing state refers to it.
 */
import { bundledFace } from "../shared/bundled-face";

// The dynamic bundle (every lifecycle and the SDK client under them) loads on the first call, in the provider host.
const face = bundledFace("device");

/** Reads the stack config in the provider host (once, before any other call). */
export const configure = face.configure;
export const check = face.check;
export const diff = face.diff;
export const create = face.create;
export const read = face.read;
export const update = face.update;
const remove = face.delete;
export { remove as delete };
