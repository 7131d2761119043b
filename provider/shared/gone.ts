import type { Client } from "../../sdk/client/client";
import { DnsAccountError } from "../../sdk/errors";
import { isNotFound } from "./explain";

/**
 * Whether the account provably no longer has an object after a 404 for it. A 404 alone is not proof:
 * a wrong base URL, a gateway or a proxy answers 404 for everything, and taking it at its word would drop
 * every resource from state on refresh (or "delete" nothing on destroy). Proof is the account's own
 * listing answering, in the service's shape, without the id. Anything else throws an error that names
 * the base URL's host and says the state was kept.
 *
 * @example
 * ```ts
 * try { return await client.devices.get(id); }
 * catch (err) { if (await provenGone(client, err, "device", id, async () => (await client.devices.list()).map((d) => d.id))) return undefined; throw err; }
 * ```
 */
export async function provenGone(client: Client, err: unknown, what: string, id: string, listIds: () => Promise<Iterable<string>>): Promise<boolean> {
  if (!isNotFound(err)) return false;
  let ids: Set<string>;
  try {
    ids = new Set(await listIds());
  } catch (listing) {
    const cause = listing instanceof DnsAccountError ? ` (${listing.code})` : "";
    throw new KeptError(
      `the service at ${client.host} answered 404 for the ${what}, and its listing of them could not be read${cause}: ` +
        "a wrong base URL, a gateway or a proxy answers like that, so this is no proof the object is gone; the state was kept",
    );
  }
  if (ids.has(id)) throw new KeptError(`the service at ${client.host} answered 404 for the ${what} but still lists it; the state was kept`);
  return true;
}

/** A 404 that proved nothing: the resource's state stays as it was. Code `state_kept`. */
export class KeptError extends DnsAccountError {
  constructor(message: string) {
    super("state_kept", message);
  }
}
