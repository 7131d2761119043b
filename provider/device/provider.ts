/**
 * The dynamic provider of {@link Device}. This module's exports *are* the provider object, so each
 * Device's `__provider` is a `require()` of this file (listed in the package's `exports`): no config,
 * no secret, no client. The path must stay stable: existing state refers to it.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import * as lifecycle from "./lifecycle";
import type { DeviceInputs, DeviceOutputs } from "./types";

export { configure } from "../shared/stack-config";

export function check(olds: DeviceInputs, news: DeviceInputs): Promise<dynamic.CheckResult<DeviceInputs>> {
  return lifecycle.check(olds, news);
}

export function diff(id: string, olds: DeviceOutputs, news: DeviceInputs): Promise<dynamic.DiffResult> {
  return lifecycle.diff(id, olds, news);
}

export function create(inputs: DeviceInputs): Promise<dynamic.CreateResult<DeviceOutputs>> {
  return lifecycle.create(inputs);
}

export function read(id: string, props: DeviceOutputs): Promise<dynamic.ReadResult<DeviceOutputs>> {
  return lifecycle.read(id, props);
}

export function update(id: string, olds: DeviceOutputs, news: DeviceInputs): Promise<dynamic.UpdateResult<DeviceOutputs>> {
  return lifecycle.update(id, olds, news);
}

function remove(id: string, props: DeviceOutputs): Promise<void> {
  return lifecycle.remove(id, props);
}

export { remove as delete };
