/**
 * The dynamic face's engine floor: a trivial dynamic provider (its `__provider` is a `require()` of this
 * file, as ours is of theirs) whose check echoes its inputs and whose create, read and delete make
 * exactly the floor's requests (./floor-ops). Inputs: `{ kind, target, body }`.
 */
import * as ops from "./floor-ops";

type Props = { kind: ops.Kind; target: ops.FloorTarget; body?: unknown } & Record<string, unknown>;

/** Accepts the inputs as they are. */
export async function check(_olds: Props, news: Props): Promise<{ inputs: Props }> {
  return { inputs: news };
}

/** One POST; the state is the response (with what read and delete need). */
export async function create(inputs: Props): Promise<{ id: string; outs: Record<string, unknown> }> {
  const made = await ops.create(inputs.target, inputs.kind, inputs.body);
  return { id: made.id, outs: { ...made.props, kind: inputs.kind, target: inputs.target } };
}

/** One GET (a device's addresses from one listing per process). */
export async function read(id: string, props: Props): Promise<{ id: string; props: Record<string, unknown> }> {
  const live = await ops.read(props.target, props.kind, id);
  return { id, props: { ...live, kind: props.kind, target: props.target } };
}

async function remove(id: string, props: Props): Promise<void> {
  await ops.remove(props.target, props.kind, id);
}
export { remove as delete };
