/**
 * The dynamic face's engine floor: a trivial dynamic provider (its `__provider` is a `require()` of this
 * file, as ours is of theirs) whose check echoes its inputs and whose create, read and delete make
 * exactly the floor's requests (./floor-ops). Inputs: `{ kind, target?, body }`; without `target` the
 * account is the stack config's `dns-account:baseUrl`, `dns-account:username` and `dns-account:password`,
 * read by `configure` as ours reads it (a program's resources declare no credentials).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import * as ops from "./floor-ops";

type Props = { kind: ops.Kind; target?: ops.FloorTarget; body?: unknown } & Record<string, unknown>;

let configured: ops.FloorTarget | undefined;
const targetOf = (props: Props): ops.FloorTarget => {
  const t = props.target ?? configured;
  if (!t) throw new Error("floor-dynamic: no target in the inputs and no dns-account:baseUrl in the stack config");
  return t;
};

/** Reads the account from the stack config (the dynamic-provider host calls it before any other method). */
export async function configure(req: dynamic.ConfigureRequest): Promise<void> {
  const get = (key: string): string | undefined => {
    try {
      return req.config.get(key);
    } catch {
      return undefined;
    }
  };
  const baseUrl = get("dns-account:baseUrl");
  if (baseUrl) configured = { baseUrl, username: get("dns-account:username") ?? "", password: get("dns-account:password") ?? "" };
}

/** Accepts the inputs as they are. */
export async function check(_olds: Props, news: Props): Promise<{ inputs: Props }> {
  return { inputs: news };
}

/** One POST; the state is the response (with what read and delete need). */
export async function create(inputs: Props): Promise<{ id: string; outs: Record<string, unknown> }> {
  const made = await ops.create(targetOf(inputs), inputs.kind, inputs.body);
  return { id: made.id, outs: { ...made.props, kind: inputs.kind, ...(inputs.target ? { target: inputs.target } : {}) } };
}

/** One GET (a device's addresses from one listing per process). */
export async function read(id: string, props: Props): Promise<{ id: string; props: Record<string, unknown> }> {
  const live = await ops.read(targetOf(props), props.kind, id);
  return { id, props: { ...live, kind: props.kind, ...(props.target ? { target: props.target } : {}) } };
}

async function remove(id: string, props: Props): Promise<void> {
  await ops.remove(targetOf(props), props.kind, id);
}
export { remove as delete };
