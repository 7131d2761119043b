/**
 * The dynamic provider of {@link DnsServer}. This module's exports *are* the provider object, so each
 * DnsServer's `__provider` is a `require()` of this file (listed in the package's `exports`): no config,
 * no secret, no client. The path must stay stable: existing state refers to it.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
// The lifecycle (and the SDK client under it) loads on the first call, in the provider host: a program
// that only declares resources never pays for it (require("pulumi-dns-account") stays cheap).
const lifecycle = (): typeof import("./lifecycle") => require("./lifecycle") as typeof import("./lifecycle");
import type { DnsServerInputs, DnsServerOutputs } from "./types";

/** Reads the stack config in the provider host (once, before any other call). */
export function configure(req: dynamic.ConfigureRequest): Promise<void> {
  return lifecycle().configure(req);
}

export function check(olds: DnsServerInputs, news: DnsServerInputs): Promise<dynamic.CheckResult<DnsServerInputs>> {
  return lifecycle().check(olds, news);
}

export function diff(id: string, olds: DnsServerOutputs, news: DnsServerInputs): Promise<dynamic.DiffResult> {
  return lifecycle().diff(id, olds, news);
}

export function create(inputs: DnsServerInputs): Promise<dynamic.CreateResult<DnsServerOutputs>> {
  return lifecycle().create(inputs);
}

export function read(id: string, props: DnsServerOutputs): Promise<dynamic.ReadResult<DnsServerOutputs>> {
  return lifecycle().read(id, props);
}

export function update(id: string, olds: DnsServerOutputs, news: DnsServerInputs): Promise<dynamic.UpdateResult<DnsServerOutputs>> {
  return lifecycle().update(id, olds, news);
}

function remove(id: string, props: DnsServerOutputs): Promise<void> {
  return lifecycle().remove(id, props);
}

export { remove as delete };
