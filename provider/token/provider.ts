/**
 * The dynamic provider of {@link Token}. This module's exports *are* the provider object, so Pulumi's
 * closure serializer writes only `require("pulumi-dns-account/dist/provider/token/provider.js")` into
 * each Token's state (`__provider`): no config, no secret, no schema, no agent. The path is part of the
 * package's `exports` map and must stay stable: existing state refers to it.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
// The lifecycle (and the SDK client under it) loads on the first call, in the provider host: a program
// that only declares resources never pays for it (require("pulumi-dns-account") stays cheap).
const lifecycle = (): typeof import("./lifecycle") => require("./lifecycle") as typeof import("./lifecycle");
import type { TokenInputs, TokenOutputs } from "./types";

/** Reads stack config in the provider host. */
export function configure(req: dynamic.ConfigureRequest): Promise<void> {
  return lifecycle().configure(req);
}

export function check(olds: TokenInputs, news: TokenInputs): Promise<dynamic.CheckResult<TokenInputs>> {
  return lifecycle().check(olds, news);
}

export function diff(id: string, olds: TokenOutputs, news: TokenInputs): Promise<dynamic.DiffResult> {
  return lifecycle().diff(id, olds, news);
}

export function create(inputs: TokenInputs): Promise<dynamic.CreateResult<TokenOutputs>> {
  return lifecycle().create(inputs);
}

export function read(id: string, props: TokenOutputs): Promise<dynamic.ReadResult<TokenOutputs>> {
  return lifecycle().read(id, props);
}

export function update(id: string, olds: TokenOutputs, news: TokenInputs): Promise<dynamic.UpdateResult<TokenOutputs>> {
  return lifecycle().update(id, olds, news);
}

function remove(id: string, props: TokenOutputs): Promise<void> {
  return lifecycle().remove(id, props);
}

export { remove as delete };
