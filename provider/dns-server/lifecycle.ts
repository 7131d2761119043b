import { type CheckResult, type CreateResult, type DiffResult, type Failure, ID_IN_YAML, type ProviderContext, type ReadResult, type UpdateResult } from "../shared/lifecycle";
import type { Client } from "../../sdk/client/client";
import { accountClient, credentialsChanged, serviceChecks, withCredentials } from "../shared/account-client";
import { explain as explainAs, explainWithQuota, initFailed } from "../shared/explain";
import { provenGone } from "../shared/gone";
import { destroyFields, destroyFieldsOf, destroyRuleChanged, keptWords, retainedBy } from "../shared/retain";
import { containsUnknown, isUnknown } from "../shared/unknown";
import type { DnsServerSettings } from "./types";
import { checkSettings, drift, effective, programField, project, toServiceCreate, toServiceUpdate } from "./settings";

/** Errors in the program's names: `settings.blockingMode.ipv4`, not the service's field. */
const explain = (action: string, err: unknown, hint?: string): Error => explainAs(action, err, hint, programField);
import type { DnsServerInputs, DnsServerOutputs } from "./types";

type Json = Record<string, unknown>;
type LiveServer = Awaited<ReturnType<Client["dnsServers"]["get"]>>;

/** Validates inputs; values unknown during preview are accepted. Checks ids against the service when it is reachable. */
export async function check(ctx: ProviderContext, _olds: DnsServerInputs, news: DnsServerInputs): Promise<CheckResult<DnsServerInputs>> {
  const failures: Failure[] = [];
  const { name, adopt, deleteOnDestroy } = news;
  if (name === undefined) {
    if (adopt === undefined) failures.push({ property: "name", reason: "name is required (or adopt an existing server)" });
  } else if (!isUnknown(name) && (typeof name !== "string" || name.length < 1 || name.length > 64)) {
    failures.push({ property: "name", reason: "name must be 1 to 64 characters" });
  }
  if (adopt !== undefined && !isUnknown(adopt) && (typeof adopt !== "string" || adopt === "")) {
    failures.push({ property: "adopt", reason: `adopt must be a DNS server id or "default", a string${ID_IN_YAML}` });
  }
  if (deleteOnDestroy !== undefined && !isUnknown(deleteOnDestroy) && typeof deleteOnDestroy !== "boolean") {
    failures.push({ property: "deleteOnDestroy", reason: "deleteOnDestroy must be true or false" });
  }
  for (const [property, reason] of checkSettings(news.settings, isUnknown)) failures.push({ property, reason });
  const rules = (news.settings as { userRules?: { rules?: unknown } } | undefined)?.userRules?.rules;
  if (Array.isArray(rules) && !failures.some((f) => f.property.startsWith("settings.userRules"))) {
    // AdGuard's own parser, loaded only now: a rule it rejects fails here, before any call.
    failures.push(...(require("./rules") as typeof import("./rules")).checkRules(rules, "settings.userRules.rules", isUnknown));
  }
  failures.push(...(await serviceChecks(ctx, news, failures.length > 0, { what: "DNS server", exists: async (client, adopt) => Boolean(await findServer(client, adopt)), more: (client) => knownIds(client, news.settings ?? {}) })));
  return failures.length ? { inputs: news, failures } : { inputs: news };
}

/**
 * Every filter list, web service and category id is one the service knows (public reference data: named).
 * A list is fetched only when the program names at least one id of it, and once per process and service
 * (see {@link referenceIds}).
 */
async function knownIds(client: Client, s: DnsServerSettings): Promise<Failure[]> {
  const failures: Failure[] = [];
  const lookups: [string, readonly unknown[] | undefined, ReferenceList][] = [
    ["settings.filterLists.ids", s.filterLists?.ids, "filterLists"],
    ["settings.blockedServices", s.blockedServices, "webServices"],
    ["settings.blockedCategories", s.blockedCategories, "parentalControlCategories"],
  ];
  for (const [property, ids, list] of lookups) {
    if (!Array.isArray(ids) || ids.length === 0 || containsUnknown(ids)) continue;
    const valid = await referenceIds(client, list);
    const bad = ids.filter((id) => !valid.has(id as string));
    if (bad.length) failures.push({ property, reason: `${property}: unknown id ${bad.map((b) => JSON.stringify(b)).join(", ")}` });
  }
  return failures;
}

type ReferenceList = "filterLists" | "webServices" | "parentalControlCategories";

/** The reference ids fetched so far in this process, by list and base URL (a failed fetch is forgotten). */
const referenceCache = new Map<string, Promise<Set<string>>>();

/**
 * The ids of one reference list of the service at the client's base URL, fetched at most once per
 * process: they are the same for every account and change with the service's releases, not within one
 * `up`. Concurrent checks share the one request.
 */
function referenceIds(client: Client, list: ReferenceList): Promise<Set<string>> {
  const key = `${list} ${client.baseUrl}`;
  let ids = referenceCache.get(key);
  if (!ids) {
    const fetch = async (): Promise<string[]> => {
      if (list === "filterLists") return (await client.filterLists.list()).map((l) => l.filter_id);
      if (list === "webServices") return (await client.webServices.list()).map((w) => w.id);
      return (await client.parentalControlCategories.list()).map((c) => c.id);
    };
    ids = fetch().then((all) => new Set(all));
    referenceCache.set(key, ids);
    ids.catch(() => referenceCache.delete(key));
  }
  return ids;
}

/**
 * The server `adopt` names, read by itself: a listing is used only to find the default server's id,
 * never for its settings (the service lists servers with their user rules empty).
 */
async function findServer(client: Client, adopt: string): Promise<LiveServer | undefined> {
  if (adopt !== "default") return getServer(client, adopt);
  const listed = (await client.dnsServers.list()).find((s) => s.default);
  return listed && getServer(client, listed.id);
}

/** The server, or undefined when the account provably no longer has it (a 404 alone is no proof). */
async function getServer(client: Client, id: string): Promise<LiveServer | undefined> {
  try {
    return await client.dnsServers.get(id);
  } catch (err) {
    if (await provenGone(client, err, "DNS server", id, async () => (await client.dnsServers.list()).map((s) => s.id))) return undefined;
    throw err;
  }
}

/**
 * Update when the name or a managed setting differs from what the service had at the last read; replace
 * only when `adopt` changes. New `credentials` (a rotated Token's) are an update too, one that calls nothing.
 */
export async function diff(_ctx: ProviderContext, _id: string, olds: DnsServerOutputs, news: DnsServerInputs): Promise<DiffResult> {
  const replaces = (news.adopt ?? undefined) !== (olds.adopt ?? undefined) ? ["adopt"] : [];
  const changed = changedFields(olds, news);
  if (credentialsChanged(olds, news)) changed.push("credentials");
  return { changes: replaces.length > 0 || changed.length > 0, replaces, deleteBeforeReplace: false };
}

/** The declared fields that differ from the state (`credentials` apart). */
function changedFields(olds: DnsServerOutputs, news: DnsServerInputs): string[] {
  const changed: string[] = [];
  if (news.name !== undefined && news.name !== olds.name) changed.push("name");
  if (news.settings !== undefined) {
    if (containsUnknown(news.settings)) changed.push("settings");
    else changed.push(...drift(news.settings, olds.settings ?? {}));
  }
  if (destroyRuleChanged(olds, news)) changed.push("deleteOnDestroy");
  return changed;
}

/** Creates the server with its declared settings in one request (or adopts one and applies the declared name and settings). */
export async function create(ctx: ProviderContext, inputs: DnsServerInputs): Promise<CreateResult<DnsServerOutputs>> {
  let client: Client;
  try {
    client = await accountClient(ctx, inputs.credentials);
  } catch (err) {
    throw explain("Creating the DNS server failed", err);
  }
  if (inputs.adopt !== undefined) {
    try {
      const found = await findServer(client, inputs.adopt);
      if (!found) throw new Error(`Adopting the DNS server failed: adopt names no DNS server of this account`);
      const changed = await apply(client, found, inputs);
      return { id: found.id, outs: state(changed ? await client.dnsServers.get(found.id) : found, inputs) };
    } catch (err) {
      throw explain("Adopting the DNS server failed", err);
    }
  }
  let created: LiveServer;
  try {
    // One request: the declared settings go in the create body (DNSServerCreate.settings).
    const settings = toServiceCreate(inputs.settings);
    created = await client.dnsServers.create({ name: inputs.name as string, ...(settings ? { settings: settings as never } : {}) });
  } catch (err) {
    throw await explainWithQuota("Creating the DNS server failed", err, client, programField);
  }
  try {
    // A new server's state is the create response. What the create could not carry (a blocking mode
    // without its mode, list entries a service merging lists keeps enabled) is applied now and read again.
    const changed = await apply(client, created, inputs);
    return { id: created.id, outs: state(changed ? await client.dnsServers.get(created.id) : created, inputs) };
  } catch (err) {
    // The engine records nothing for a failed create: do not leave a server no state knows about. If it
    // cannot be removed either, it is recorded (partial state) so the next `up` finishes the job.
    const removed = await client.dnsServers.remove(created.id).then(
      () => true,
      () => false,
    );
    if (removed) throw explain("Configuring the new DNS server failed", err);
    throw initFailed("Configuring the new DNS server failed (and removing it failed too, so it is kept in state)", err, created.id, state(created, inputs), programField);
  }
}

/**
 * The inputs that describe a server as the service has it (an import, `dns-account export`): its name and
 * every setting the service reports, so the program it becomes manages the whole server and the next
 * `up` changes nothing.
 *
 * @example
 * ```ts
 * const inputs = importInputs(await client.dnsServers.get(id)); // { name, settings: { … } }
 * ```
 */
export function importInputs(server: LiveServer): DnsServerInputs {
  return { name: server.name, settings: effective(server.settings as unknown as Json) };
}

/**
 * Refresh: what the service has now (one request). A server deleted out of band is gone (no id), once
 * the account's listing proves it. With no state (an import), also the inputs that describe the server.
 */
export async function read(ctx: ProviderContext, id: string, props: DnsServerOutputs): Promise<ReadResult<DnsServerOutputs, DnsServerInputs>> {
  try {
    const client = await accountClient(ctx, props.credentials);
    const server = await getServer(client, id);
    if (!server) return {};
    if (props.serverId === undefined) {
      // An import: declare the name and every setting the service reports, so the program it becomes
      // manages the whole server and the next `up` changes nothing.
      const inputs = importInputs(server);
      return { id, props: state(server, inputs), inputs };
    }
    return { id, props: { ...state(server, { ...props, ...(props.settings ? { settings: props.settings } : {}) }), ...destroyFieldsOf(props) } };
  } catch (err) {
    throw explain("Reading the DNS server failed", err);
  }
}

/** Renames and re-applies the managed settings in place. */
export async function update(ctx: ProviderContext, id: string, olds: DnsServerOutputs, news: DnsServerInputs): Promise<UpdateResult<DnsServerOutputs>> {
  // Only the credentials or what destroy does changed (a rotated Token, `deleteOnDestroy`): record them;
  // the service has nothing to change.
  if (changedFields(olds, news).every((f) => f === "deleteOnDestroy")) return { outs: { ...withCredentials(olds, news), ...destroyFields(news) } };
  try {
    const client = await accountClient(ctx, news.credentials ?? olds.credentials);
    await apply(client, { id, name: olds.name } as LiveServer, news, olds.settings);
    return { outs: state(await client.dnsServers.get(id), news) };
  } catch (err) {
    throw explain("Updating the DNS server failed", err);
  }
}

/**
 * Deletes the server; the service moves the devices it still has to the default server. The default
 * server stays, and so does a server the state keeps ({@link retainedBy}: `deleteOnDestroy: false`, or
 * adopted without `deleteOnDestroy: true`), with its devices in it. Keeping a server the program created
 * is said, never silent.
 */
export async function remove(ctx: ProviderContext, id: string, props: DnsServerOutputs): Promise<void> {
  if (props.isDefault) return;
  if (retainedBy(props)) {
    if (props.adopt === undefined) ctx.warn(keptWords("DnsServer", id, ctx.words));
    return;
  }
  let client: Client | undefined;
  try {
    client = await accountClient(ctx, props.credentials);
    await client.dnsServers.remove(id);
  } catch (err) {
    try {
      if (client && (await provenGone(client, err, "DNS server", id, async () => (await client!.dnsServers.list()).map((s) => s.id)))) return;
    } catch (kept) {
      throw explain("Deleting the DNS server failed", kept);
    }
    throw explain("Deleting the DNS server failed", err);
  }
}

/**
 * Sends the name if it differs and the declared settings if any differ from `known` (or from what the
 * server object carries, without it). Says whether it changed anything.
 */
async function apply(client: Client, server: Pick<LiveServer, "id" | "name"> & { settings?: LiveServer["settings"] }, inputs: DnsServerInputs, known?: DnsServerSettings): Promise<boolean> {
  let changed = false;
  if (inputs.name !== undefined && inputs.name !== server.name) {
    await client.dnsServers.update(server.id, { name: inputs.name });
    changed = true;
  }
  const declared = inputs.settings;
  if (declared === undefined || Object.keys(declared).length === 0) return changed;
  if (known !== undefined && drift(declared, known).length === 0) return changed;
  const live = (server.settings ?? (await client.dnsServers.getSettings(server.id))) as unknown as Json;
  if (drift(declared, project(declared, live)).length === 0) return changed;
  await client.dnsServers.updateSettings(server.id, toServiceUpdate(declared, live) as never);
  return true;
}

/** The resource's state from the server object (which carries its settings). */
function state(server: LiveServer, inputs: DnsServerInputs): DnsServerOutputs {
  const settings = server.settings as unknown as Json;
  return {
    serverId: server.id,
    name: server.name,
    isDefault: server.default === true,
    devicesCount: server.devices_count ?? 0,
    ...(inputs.settings !== undefined ? { settings: project(inputs.settings, settings) } : {}),
    effectiveSettings: effective(settings),
    ...(inputs.adopt !== undefined ? { adopt: inputs.adopt } : {}),
    ...destroyFields(inputs),
    ...(inputs.credentials !== undefined ? { credentials: inputs.credentials } : {}),
  };
}
