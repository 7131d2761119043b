/**
 * The dynamic provider of {@link DedicatedIpv4}. This module's exports *are* the provider object, so each
 * DedicatedIpv4's `__provider` is a `require()` of this file (listed in the package's `exports`): no config,
 * no secret, no client. The path must stay stable: existing state refers to it.
 */
import { dynamicFace } from "../shared/dynamic-face";
import type { Lifecycle } from "../shared/lifecycle";
import type { DedicatedIpv4Inputs, DedicatedIpv4Outputs } from "./types";

// The lifecycle (and the SDK client under it) loads on the first call, in the provider host.
const face = dynamicFace<DedicatedIpv4Inputs, DedicatedIpv4Outputs>(() => require("./lifecycle") as Lifecycle<DedicatedIpv4Inputs, DedicatedIpv4Outputs>);

/** Reads the stack config in the provider host (once, before any other call). */
export const configure = face.configure;
export const check = face.check;
export const diff = face.diff;
export const create = face.create;
export const read = face.read;
export const update = face.update;
const remove = face.delete;
export { remove as delete };
