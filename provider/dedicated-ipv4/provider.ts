/**
 * The dynamic provider of {@link DedicatedIpv4}. This module's exports *are* the provider object, so each
 * DedicatedIpv4's `__provider` is a `require()` of this file (listed in the package's `exports`): no config,
 * no secret, no client. The path must stay stable: existing state refers to it.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
// The lifecycle (and the SDK client under it) loads on the first call, in the provider host: a program
// that only declares resources never pays for it (require("pulumi-dns-account") stays cheap).
const lifecycle = (): typeof import("./lifecycle") => require("./lifecycle") as typeof import("./lifecycle");
import type { DedicatedIpv4Inputs, DedicatedIpv4Outputs } from "./types";

/** Reads the stack config in the provider host (once, before any other call). */
export function configure(req: dynamic.ConfigureRequest): Promise<void> {
  return lifecycle().configure(req);
}

export function check(olds: DedicatedIpv4Inputs, news: DedicatedIpv4Inputs): Promise<dynamic.CheckResult<DedicatedIpv4Inputs>> {
  return lifecycle().check(olds, news);
}

export function diff(id: string, olds: DedicatedIpv4Outputs, news: DedicatedIpv4Inputs): Promise<dynamic.DiffResult> {
  return lifecycle().diff(id, olds, news);
}

export function create(inputs: DedicatedIpv4Inputs): Promise<dynamic.CreateResult<DedicatedIpv4Outputs>> {
  return lifecycle().create(inputs);
}

export function read(id: string, props: DedicatedIpv4Outputs): Promise<dynamic.ReadResult<DedicatedIpv4Outputs>> {
  return lifecycle().read(id, props);
}

export function update(id: string, olds: DedicatedIpv4Outputs, news: DedicatedIpv4Inputs): Promise<dynamic.UpdateResult<DedicatedIpv4Outputs>> {
  return lifecycle().update(id, olds, news);
}

function remove(id: string, props: DedicatedIpv4Outputs): Promise<void> {
  return lifecycle().remove(id, props);
}

export { remove as delete };
