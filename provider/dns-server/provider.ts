/**
 * The dynamic provider of {@link DnsServer}. This module's exports *are* the provider object, so each
 * DnsServer's `__provider` is a `require()` of this file (listed in the package's `exports`): no config,
 * no secret, no client. The path must stay stable: existing state refers to it.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import * as lifecycle from "./lifecycle";
import type { DnsServerInputs, DnsServerOutputs } from "./types";

export { configure } from "../shared/stack-config";

export function check(olds: DnsServerInputs, news: DnsServerInputs): Promise<dynamic.CheckResult<DnsServerInputs>> {
  return lifecycle.check(olds, news);
}

export function diff(id: string, olds: DnsServerOutputs, news: DnsServerInputs): Promise<dynamic.DiffResult> {
  return lifecycle.diff(id, olds, news);
}

export function create(inputs: DnsServerInputs): Promise<dynamic.CreateResult<DnsServerOutputs>> {
  return lifecycle.create(inputs);
}

export function read(id: string, props: DnsServerOutputs): Promise<dynamic.ReadResult<DnsServerOutputs>> {
  return lifecycle.read(id, props);
}

export function update(id: string, olds: DnsServerOutputs, news: DnsServerInputs): Promise<dynamic.UpdateResult<DnsServerOutputs>> {
  return lifecycle.update(id, olds, news);
}

function remove(id: string, props: DnsServerOutputs): Promise<void> {
  return lifecycle.remove(id, props);
}

export { remove as delete };
