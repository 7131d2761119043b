/**
 * The OpenTofu/Terraform face's resources and data sources (issue 34): tfplugin6's resource calls on the
 * same engine-agnostic lifecycles the Pulumi faces drive (provider/<resource>/lifecycle.ts).
 *
 * How tofu's calls map onto them:
 * - ValidateResourceConfig runs `check` offline (its static part: no credentials, no file, no service);
 *   PlanResourceChange runs the whole `check` (the service part: the credentials work, `adopt` names an
 *   object of the account) and then `diff`.
 * - A plan means what it says. On create, what the service fills in is unknown. On update, the inputs are
 *   the configuration's, and of what the service fills in only what the change can move becomes unknown
 *   ({@link MOVES}): ids, server ids and addresses stay known. `diff`'s replacements become
 *   `requires_replace` on the attributes they name; a Token due for rotation plans `issued_at` unknown and
 *   replaced, since its configuration did not change.
 * - Apply answers the plan with its unknowns filled from what the lifecycle returned: a known planned
 *   value is never changed (tofu refuses that), and a refresh then says what the service holds.
 * - A refresh (ReadResource) keeps the state's inputs when the service's values mean the same to `diff`
 *   (normalised rules, an empty block), and otherwise shows the service's values: drift, which the next
 *   apply repairs.
 * - Import reads the object as the Pulumi faces' import does; a Token cannot be imported.
 * - `settings` is a group block of optional and computed arguments (./schema): the state holds every
 *   setting as the service has it (a read, an import, a create fill it whole), the configuration declares
 *   the ones it manages, and tofu proposes the state's value of the others, so they plan no change. The
 *   lifecycles see only the declared ones, as a Pulumi program's.
 */
import { callFunction } from "../shared/functions";
import { type Lifecycle, PartialCreateError, type ProviderContext } from "../shared/lifecycle";
import { type Document, schema as packageSchema } from "../schema/shape";
import { dataSourceType, programNames, resourceType, terraformSchema, type TfBlock, type TfProviderSchema, type TfSchema } from "./schema";
import { blockShape, fromProgram, hasUnknown, type Shape, TF_UNKNOWN, type TfValue, tfName, toProgram } from "./values";
import { isUnknown, UNKNOWN } from "../shared/unknown";
import { destroyFields } from "../shared/retain";
import { attributePath, type Diagnostic, errorDiagnostic, failureDiagnostics } from "./words";
import { log } from "./log";

/* eslint-disable @typescript-eslint/no-explicit-any -- lifecycles are driven generically here */

type Json = Record<string, unknown>;
type TfObject = { [key: string]: TfValue };

const LIFECYCLES: Record<string, () => Lifecycle<any, any>> = {
  "dns-account:index:Token": () => require("../token/lifecycle") as Lifecycle<any, any>,
  "dns-account:index:DnsServer": () => require("../dns-server/lifecycle") as Lifecycle<any, any>,
  "dns-account:index:Device": () => require("../device/lifecycle") as Lifecycle<any, any>,
  "dns-account:index:DedicatedIpv4": () => require("../dedicated-ipv4/lifecycle") as Lifecycle<any, any>,
};

/**
 * What an in-place update can move of what the service fills in, by the input that changed (program
 * names); every other computed attribute keeps its value in the plan. A Token's in-place changes (its
 * renewal window, revokeOnDelete) may renew its access token. Its refresh token stays known, so what uses
 * it plans no change: the service's refresh grant gives the same refresh token back (the Account API's
 * own words). Were a service to give a new one, tofu would still keep it: it saves the non-null state an
 * apply returns even beside an "inconsistent result" error (OpenTofu 1.12's node_resource_abstract_instance).
 */
const MOVES: Record<string, Record<string, string[]>> = {
  "dns-account:index:Token": { "*": ["accessToken", "expiresAt", "renewedAt", "tokenType"] },
  "dns-account:index:DnsServer": { settings: ["effectiveSettings"], deleteOnDestroy: ["retainOnDestroy"] },
  "dns-account:index:Device": { dohPasswordKeepers: ["dnsAddressesWithAuth"], deleteOnDestroy: ["retainOnDestroy"] },
  "dns-account:index:DedicatedIpv4": { deviceId: ["adoptedDeviceId", "linkManaged"] },
};


/** One resource type as the face serves it. */
interface ResourceKind {
  token: string;
  tfType: string;
  schema: TfSchema;
  shape: Shape & { kind: "object" };
  /** Attributes and blocks the configuration sets (tf names). */
  inputs: Set<string>;
  /** Attributes only the service sets (tf names), `id` included. */
  computedOnly: Set<string>;
  /** Attributes the service may set (tf names): the computed ones and the optional and computed ones. */
  computed: Set<string>;
  /** Blocks (tf names). */
  blocks: Set<string>;
  /** The group blocks (tf names: `settings`), by name: what the service holds, every field optional and computed. */
  groups: Map<string, TfBlock>;
}

/** One data source as the face serves it. */
interface DataKind {
  token: string;
  shape: Shape & { kind: "object" };
}

/**
 * The resources and data sources of the provider's schema, by their OpenTofu type.
 *
 * @example
 * ```ts
 * const kinds = servedKinds(terraformSchema());
 * kinds.resources.get("dnsaccount_device")!.token; // "dns-account:index:Device"
 * ```
 */
export function servedKinds(tf: TfProviderSchema = terraformSchema(), schema: Document = packageSchema): { resources: Map<string, ResourceKind>; dataSources: Map<string, DataKind> } {
  const resources = new Map<string, ResourceKind>();
  for (const token of Object.keys(schema.resources)) {
    const tfType = resourceType(token);
    const s = tf.resources[tfType]!;
    const blocks = new Set(s.block.block_types.map((b) => b.type_name));
    const inputs = new Set([...s.block.attributes.filter((a) => a.optional || a.required).map((a) => a.name), ...blocks]);
    const computedOnly = new Set(s.block.attributes.filter((a) => a.computed && !a.optional).map((a) => a.name));
    const computed = new Set(s.block.attributes.filter((a) => a.computed).map((a) => a.name));
    const groups = new Map(s.block.block_types.filter((b) => b.nesting === "GROUP").map((b) => [b.type_name, b.block]));
    resources.set(tfType, { token, tfType, schema: s, shape: blockShape(s.block), inputs, computedOnly, computed, blocks, groups });
  }
  const dataSources = new Map<string, DataKind>();
  for (const token of Object.keys(schema.functions)) {
    const type = dataSourceType(token);
    dataSources.set(type, { token, shape: blockShape(tf.dataSources[type]!.block) });
  }
  return { resources, dataSources };
}

/** The lifecycle of a resource kind. */
function lifecycleOf(kind: ResourceKind): Lifecycle<any, any> {
  return LIFECYCLES[kind.token]!();
}

/**
 * Only the inputs of a state or configuration (tf names), as the lifecycle takes them. In a planned state
 * (`known`), an input still unknown is one the configuration left to the service: absent.
 */
function inputsOf(kind: ResourceKind, value: TfObject, known = false): Json {
  const only: TfObject = {};
  for (const k of kind.inputs) only[k] = known && value[k] === TF_UNKNOWN ? null : (value[k] ?? null);
  return (toProgram(only, kind.shape) ?? {}) as Json;
}

/** `value` when it is an object (not a list, null or unknown). */
function asObject(value: TfValue): TfObject | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value : undefined;
}

/** An object with no field set, at any depth (an empty block). */
function empty(value: TfValue): boolean {
  if (value === null) return true;
  if (typeof value === "object" && !Array.isArray(value)) return Object.values(value).every(empty);
  return false;
}

/** `value` with `fill`'s values where `value` is unknown, at any depth. */
function fillUnknowns(value: TfValue, fill: TfValue): TfValue {
  if (value === TF_UNKNOWN) return fill === TF_UNKNOWN ? null : fill;
  if (Array.isArray(value)) return value.map((v, i) => fillUnknowns(v, Array.isArray(fill) ? (fill[i] ?? null) : null));
  if (value !== null && typeof value === "object") {
    const from = fill !== null && typeof fill === "object" && !Array.isArray(fill) ? fill : {};
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillUnknowns(v, (from as TfObject)[k] ?? null)]));
  }
  return value;
}

/**
 * Blocks of a group that hold one setting whole: a schedule's days left out are disabled (the package
 * schema's words), so a schedule the configuration declares is planned as it says, day by day.
 */
const WHOLE = new Set(["schedule"]);

/**
 * Where every setting as the service has it is found, to fill a `settings` group block whole: a DnsServer's
 * outputs hold them (`effectiveSettings`); a Device's hold only the settings named, so it is read naming
 * them all.
 */
const EVERY_SETTING: Record<string, string> = { "dns-account:index:DnsServer": "effectiveSettings" };

/** Whether a block's value sets any field, at any depth (unknown counts as set). */
function declares(value: TfValue | undefined): boolean {
  return value !== undefined && value !== null && (typeof value !== "object" || Array.isArray(value) || Object.values(value).some(declares));
}

/**
 * A group block's planned value: a whole block (a schedule) the configuration declares is as it says; with
 * `unknown` (a new object), every field the configuration leaves out is unknown, filled at apply with the
 * service's value.
 */
function plannedGroup(block: TfBlock, planned: TfValue, config: TfValue, unknown: boolean): TfObject {
  const p = asObject(planned) ?? {};
  const c = asObject(config) ?? {};
  const out: TfObject = { ...p };
  for (const a of block.attributes) if (unknown && (c[a.name] ?? null) === null) out[a.name] = TF_UNKNOWN;
  for (const b of block.block_types) {
    if (WHOLE.has(b.type_name) && declares(c[b.type_name])) out[b.type_name] = c[b.type_name] ?? null;
    else out[b.type_name] = plannedGroup(b.block, p[b.type_name] ?? null, c[b.type_name] ?? null, unknown);
  }
  return out;
}

/** A group block's state value with only what the configuration declares (a whole block whole): the inputs it last had, as far as they matter now. */
function declaredGroup(block: TfBlock, state: TfValue, config: TfValue): TfObject {
  const v = asObject(state) ?? {};
  const c = asObject(config) ?? {};
  const out: TfObject = {};
  for (const a of block.attributes) out[a.name] = (c[a.name] ?? null) === null ? null : (v[a.name] ?? null);
  for (const b of block.block_types) {
    out[b.type_name] = WHOLE.has(b.type_name) ? (declares(c[b.type_name]) ? (v[b.type_name] ?? null) : null) : declaredGroup(b.block, v[b.type_name] ?? null, c[b.type_name] ?? null);
  }
  return out;
}

/** A group block's value with `every`'s where it has nothing (null or unknown), field by field. */
function filledGroup(block: TfBlock, value: TfValue, every: TfValue): TfObject {
  const v = asObject(value) ?? {};
  const e = asObject(every) ?? {};
  const out: TfObject = { ...v };
  for (const a of block.attributes) if ((v[a.name] ?? null) === null || v[a.name] === TF_UNKNOWN) out[a.name] = e[a.name] ?? null;
  for (const b of block.block_types) out[b.type_name] = filledGroup(b.block, v[b.type_name] ?? null, e[b.type_name] ?? null);
  return out;
}

let names: Map<string, string> | undefined;
/** The program's name of a tf name (`detect_doh_auth_only` → `detectDohAuthOnly`). */
function programOf(name: string): string {
  names ??= programNames();
  return names.get(name) ?? name;
}

/** Every field of a group block named, as the lifecycles take it (each unknown). */
function namingAll(shape: Shape): unknown {
  if (shape.kind !== "object") return UNKNOWN;
  return Object.fromEntries(Object.entries(shape.fields).map(([k, s]) => [programOf(k), namingAll(s)]));
}

/**
 * The lifecycle's props with every setting named, for a kind whose outputs hold only the settings named
 * (a Device): its read then reports them all.
 */
function namingEverySetting(kind: ResourceKind, props: Json): Json {
  if (EVERY_SETTING[kind.token] !== undefined) return props;
  const out: Json = { ...props };
  for (const g of kind.groups.keys()) {
    const name = programOf(g);
    out[name] = { ...(namingAll(kind.shape.fields[g]!) as Json), ...((props[name] as Json | undefined) ?? {}) };
  }
  return out;
}

/** `state` with, in its group blocks, the service's value of every setting it holds none of, where the outputs have them (a DnsServer's effectiveSettings). */
function withEverySetting(kind: ResourceKind, state: TfObject, outs: unknown): TfObject {
  const from = EVERY_SETTING[kind.token];
  if (from === undefined) return state;
  const out: TfObject = { ...state };
  for (const [g, block] of kind.groups) out[g] = filledGroup(block, out[g] ?? null, fromProgram((outs as Json | undefined)?.[from], kind.shape.fields[g]!));
  return out;
}

/** `state` with `from`'s settings where its group blocks hold none. */
function withSettingsOf(kind: ResourceKind, state: TfObject, from: TfObject): TfObject {
  const out: TfObject = { ...state };
  for (const [g, block] of kind.groups) out[g] = filledGroup(block, out[g] ?? null, from[g] ?? null);
  return out;
}

/** The state tofu keeps of what a lifecycle returned (`id` set). */
function stateOf(kind: ResourceKind, id: string, outs: unknown): TfObject {
  return { ...(fromProgram(outs ?? {}, kind.shape) as TfObject), id };
}

/** What every resource call gets: the provider's context, with the call's warnings collected. */
export type ContextFor = (warnings: Diagnostic[]) => ProviderContext;

/**
 * A resource's private state (tfplugin6's `private` bytes): the time its last refresh, create or update
 * saw it, which is the clock of the decisions a plan makes by time (a Token due for rotation or renewal).
 * tofu hands the refreshed state's private to the plan, keeps it in a saved plan, and hands the plan's to
 * apply, so a plan, the plan tofu makes again at apply, and the apply all decide at the same time: a saved
 * plan applied after a rotation fell due still applies as planned, and the rotation comes with the next
 * refresh (as hashicorp/time's `time_rotating` rotates at refresh).
 *
 * @example
 * ```ts
 * response.private = privateAt(Date.now());
 * ```
 */
export function privateAt(at: number): Buffer {
  return Buffer.from(JSON.stringify({ seenAt: at }));
}

/** The time {@link privateAt} recorded, if the bytes hold one (a state written before it holds none). */
export function seenAt(bytes: Uint8Array | null | undefined): number | undefined {
  if (!bytes || bytes.length === 0 || bytes.length > 1024) return undefined;
  try {
    const at = (JSON.parse(Buffer.from(bytes).toString("utf8")) as { seenAt?: unknown }).seenAt;
    return typeof at === "number" && Number.isFinite(at) ? at : undefined;
  } catch {
    return undefined;
  }
}

/** The context of a call whose decisions by time are made at `at` (when known). */
function contextAt(contextFor: ContextFor, diagnostics: Diagnostic[], at: number | undefined): ProviderContext {
  const ctx = contextFor(diagnostics);
  return at === undefined ? ctx : { ...ctx, now: () => at };
}

/**
 * The static part of `check` on a resource's configuration (ValidateResourceConfig): no service, no file.
 *
 * @example
 * ```ts
 * const diagnostics = await validateResource(kind, config, contextFor);
 * ```
 */
export async function validateResource(kind: ResourceKind, config: TfValue, contextFor: ContextFor): Promise<Diagnostic[]> {
  if (config === null || typeof config !== "object") return [];
  const warnings: Diagnostic[] = [];
  const ctx = { ...contextFor(warnings), offline: true };
  const { failures } = await lifecycleOf(kind).check(ctx, {}, inputsOf(kind, config as TfObject));
  return [...warnings, ...failureDiagnostics(failures ?? [])];
}

/** A plan: the planned state, the attributes whose change replaces the object, diagnostics. */
export interface Plan {
  planned: TfValue;
  requiresReplace: NonNullable<Diagnostic["attribute"]>[];
  diagnostics: Diagnostic[];
}

/**
 * PlanResourceChange.
 *
 * @example
 * ```ts
 * const { planned, requiresReplace } = await planResource(kind, prior, proposed, config, contextFor);
 * ```
 */
export async function planResource(kind: ResourceKind, prior: TfValue, proposed: TfValue, config: TfValue, contextFor: ContextFor, priorPrivate?: Uint8Array | null): Promise<Plan> {
  const diagnostics: Diagnostic[] = [];
  if (proposed === null || typeof proposed !== "object" || Array.isArray(proposed)) return { planned: proposed, requiresReplace: [], diagnostics };
  const ctx = contextAt(contextFor, diagnostics, seenAt(priorPrivate));
  const life = lifecycleOf(kind);
  const priorObject = prior !== null && typeof prior === "object" && !Array.isArray(prior) ? (prior as TfObject) : undefined;
  // The inputs are what the configuration declares: the proposed state also holds the prior state's
  // values of what it leaves to the service (a Token's refresh token), which the lifecycles must not
  // take for declared.
  const configObject = asObject(config) ?? (proposed as TfObject);
  const news = inputsOf(kind, configObject);
  // The state's settings are every setting the service has: of them, the lifecycle's old inputs are the
  // ones declared now (the others are not managed, and change nothing).
  const declaredPrior = priorObject ? { ...priorObject } : undefined;
  if (declaredPrior) for (const [g, block] of kind.groups) declaredPrior[g] = declaredGroup(block, declaredPrior[g] ?? null, configObject[g] ?? null);
  const olds = declaredPrior ? inputsOf(kind, declaredPrior) : {};
  const checked = await life.check(ctx, olds, news);
  if (checked.failures && checked.failures.length > 0) return { planned: proposed, requiresReplace: [], diagnostics: [...diagnostics, ...failureDiagnostics(checked.failures)] };
  const planned: TfObject = { ...(proposed as TfObject) };
  // A setting the configuration leaves out keeps the state's value (tofu proposes it), unknown for a new
  // object; a schedule it declares is planned as declared (the days left out are disabled).
  const settings = (unknown: boolean) => {
    for (const [g, block] of kind.groups) planned[g] = plannedGroup(block, planned[g] ?? null, configObject[g] ?? null, unknown);
  };
  settings(!priorObject);
  // What the configuration leaves to the service (optional and computed, null in it): tofu proposes the
  // state's value, but once the lifecycle changes the object it decides anew (a delete_on_destroy taken
  // out of the configuration goes back to its default; a device_id taken out unlinks the address).
  const leftToService = [...kind.inputs].filter((k) => kind.computed.has(k) && !kind.blocks.has(k) && (configObject[k] ?? null) === null);
  /** What the service fills in becomes unknown: all of it for a new object, the listed names on update. */
  const unknown = (names: Iterable<string>) => {
    for (const k of names) if (kind.computed.has(k) && (!kind.inputs.has(k) || planned[k] === null)) planned[k] = TF_UNKNOWN;
  };
  /**
   * What destroy will do is the configuration's (`adopt`, `delete_on_destroy`), as the create or update
   * records it (destroyFields): planned known, not "(known after apply)", unless one of them is not known yet.
   */
  const destroyRule = (): void => {
    // The resources whose state records it (provider/shared/retain): the ones whose schema has both attributes.
    if (!("retain_on_destroy" in kind.shape.fields && "delete_on_destroy" in kind.shape.fields) || isUnknown(news.deleteOnDestroy) || isUnknown(news.adopt)) return;
    const rule = destroyFields(news);
    planned.delete_on_destroy = rule.deleteOnDestroy;
    planned.retain_on_destroy = rule.retainOnDestroy;
  };
  if (!priorObject) {
    unknown([...kind.computedOnly, ...leftToService]);
    destroyRule();
    return { planned, requiresReplace: [], diagnostics };
  }
  const id = String(priorObject.id ?? "");
  const diff = await life.diff(ctx, id, toProgram(priorObject, kind.shape), news);
  if (!diff.changes) return { planned, requiresReplace: [], diagnostics };
  if (diff.replaces.length > 0) {
    // An attribute the replacement names forces it when its planned value differs from the state's; one
    // the service fills in (a Token's username, of the provider's login) is planned unknown to say so; when
    // nothing named can move (a Token due for rotation: its configuration did not change), its issue time does.
    const requiresReplace: NonNullable<Diagnostic["attribute"]>[] = [];
    for (const path of diff.replaces.map((p) => attributePath(p))) {
      const name = attributeOf(kind, path);
      if (name === undefined) continue;
      if (JSON.stringify(planned[name] ?? null) !== JSON.stringify(priorObject[name] ?? null)) requiresReplace.push(path);
      else if (kind.computed.has(name)) (planned[name] = TF_UNKNOWN, requiresReplace.push(path));
    }
    if (requiresReplace.length === 0) {
      const moved = "issued_at" in planned ? "issued_at" : "id";
      planned[moved] = TF_UNKNOWN;
      requiresReplace.push({ steps: [{ attribute_name: moved }] });
    }
    unknown([...kind.computedOnly, ...leftToService]);
    settings(true);
    destroyRule();
    return { planned, requiresReplace, diagnostics };
  }
  const changed = [...new Set([...Object.keys(news), ...Object.keys(olds)])].filter((k) => JSON.stringify(news[k]) !== JSON.stringify(olds[k]));
  // A declared delete_on_destroy may equal the state's default and still change the rule (retain_on_destroy).
  if (news.deleteOnDestroy !== undefined && !changed.includes("deleteOnDestroy")) changed.push("deleteOnDestroy");
  const moves = MOVES[kind.token] ?? {};
  unknown([...new Set([...(moves["*"] ?? []), ...changed.flatMap((k) => moves[k] ?? [])])].map(tfName));
  for (const k of leftToService) if ((priorObject[k] ?? null) !== null) planned[k] = TF_UNKNOWN;
  destroyRule();
  return { planned, requiresReplace: [], diagnostics };
}

function attributeOf(kind: ResourceKind, path: NonNullable<Diagnostic["attribute"]>): string | undefined {
  const first = path.steps[0];
  return first && "attribute_name" in first && first.attribute_name in kind.shape.fields ? first.attribute_name : undefined;
}

/**
 * ApplyResourceChange: create, update or delete, answering the plan with its unknowns filled.
 *
 * @example
 * ```ts
 * const { state, diagnostics } = await applyResource(kind, prior, planned, config, contextFor);
 * ```
 */
export async function applyResource(kind: ResourceKind, prior: TfValue, planned: TfValue, config: TfValue, contextFor: ContextFor, plannedPrivate?: Uint8Array | null): Promise<{ state: TfValue; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  // An update decides as its plan did (a Token renews if and only if the plan said it would).
  const ctx = contextAt(contextFor, diagnostics, seenAt(plannedPrivate));
  const life = lifecycleOf(kind);
  const priorObject = prior !== null && typeof prior === "object" && !Array.isArray(prior) ? (prior as TfObject) : undefined;
  try {
    if (planned === null) {
      if (!priorObject) return { state: null, diagnostics };
      // The state holds what destroy does (delete_on_destroy, retain_on_destroy, as the last apply
      // recorded them): a resource removed from the configuration has no inputs left to say otherwise.
      await life.remove(ctx, String(priorObject.id), toProgram(priorObject, kind.shape) as Json);
      return { state: null, diagnostics };
    }
    const plan = planned as TfObject;
    const news = inputsOf(kind, asObject(config) ?? plan, true);
    if (!priorObject) {
      try {
        const { id, outs, allSettings } = await life.create(ctx, news);
        let created = withEverySetting(kind, stateOf(kind, id, outs), outs);
        if ([...kind.groups.keys()].some((g) => hasUnknown(plan[g] ?? null)) && EVERY_SETTING[kind.token] === undefined) {
          if (allSettings !== undefined) {
            // The settings the configuration left out, as the create left them (no request more).
            created = withSettingsOf(kind, created, stateOf(kind, id, { ...(outs as Json), settings: allSettings }));
          } else {
            // …or as a read naming them all reports them (an adopted device). The object is made whatever the
            // read does (stopped, failed): its state is returned, those settings null until the next refresh
            // reads them, so nothing is left outside the state.
            try {
              const read = await life.read(ctx, id, namingEverySetting(kind, outs as Json));
              if (read.id !== undefined) created = withSettingsOf(kind, created, stateOf(kind, read.id, read.props));
            } catch (err) {
              log("warn", "the settings of the new object could not be read: the next refresh fills them in", { type: kind.tfType, id, error: err instanceof Error ? err.name : "unknown" });
            }
          }
        }
        return { state: fillUnknowns({ ...plan, id: plan.id ?? TF_UNKNOWN }, created), diagnostics };
      } catch (err) {
        if (!(err instanceof PartialCreateError)) throw err;
        // The object exists: tofu keeps it (tainted), so nothing is left outside every state.
        diagnostics.push(errorDiagnostic(`Creating ${kind.tfType} failed`, err));
        return { state: fillUnknowns({ ...plan, id: TF_UNKNOWN }, stateOf(kind, err.id, err.outs)), diagnostics };
      }
    }
    const id = String(priorObject.id);
    const { outs } = await life.update(ctx, id, toProgram(priorObject, kind.shape), news);
    return { state: fillUnknowns(plan, withEverySetting(kind, stateOf(kind, id, outs), outs)), diagnostics };
  } catch (err) {
    const action = planned === null ? "Deleting" : priorObject ? "Updating" : "Creating";
    diagnostics.push(errorDiagnostic(`${action} ${kind.tfType} failed`, err));
    return { state: prior, diagnostics };
  }
}

/**
 * ReadResource: the state as the service has it, null when the object is gone.
 *
 * @example
 * ```ts
 * const { state } = await readResource(kind, current, contextFor);
 * ```
 */
export async function readResource(kind: ResourceKind, current: TfValue, contextFor: ContextFor, at: number = Date.now()): Promise<{ state: TfValue; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  if (current === null || typeof current !== "object" || Array.isArray(current)) return { state: current, diagnostics };
  const ctx = contextAt(contextFor, diagnostics, at);
  const life = lifecycleOf(kind);
  const held = current as TfObject;
  try {
    // Every setting named: the state holds each one as the service has it.
    const result = await life.read(ctx, String(held.id), namingEverySetting(kind, (toProgram(held, kind.shape) ?? {}) as Json));
    if (result.id === undefined) return { state: null, diagnostics };
    const read = withEverySetting(kind, stateOf(kind, result.id, result.props), result.props);
    const heldInputs = inputsOf(kind, held);
    const same = !(await life.diff(ctx, result.id, result.props, heldInputs)).changes;
    const state: TfObject = { ...read };
    for (const k of kind.inputs) {
      // What the service holds means what the state says: keep the state's words (and its credentials).
      if (same || k === "credentials") state[k] = held[k] ?? null;
      else if (kind.blocks.has(k) && !kind.groups.has(k) && empty(state[k] ?? null)) state[k] = null;
    }
    // The state's words for what it held; the service's for every setting it held none of (a state
    // written when only the declared settings were kept).
    return { state: withSettingsOf(kind, state, read), diagnostics };
  } catch (err) {
    diagnostics.push(errorDiagnostic(`Reading ${kind.tfType} failed`, err));
    return { state: current, diagnostics };
  }
}

/**
 * ImportResourceState: the object `id` names, with the inputs a configuration would declare.
 *
 * @example
 * ```ts
 * const { state } = await importResource(kind, "d1", contextFor);
 * ```
 */
export async function importResource(kind: ResourceKind, id: string, contextFor: ContextFor): Promise<{ state: TfValue; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  if (kind.token === "dns-account:index:Token") {
    diagnostics.push({
      severity: "ERROR",
      summary: "A dnsaccount_token cannot be imported",
      detail: "The service cannot show an existing token. Declare a dnsaccount_token with refresh_token to adopt one.",
    });
    return { state: null, diagnostics };
  }
  try {
    const result = await lifecycleOf(kind).read(contextFor(diagnostics), id, {});
    if (result.id === undefined) {
      diagnostics.push({ severity: "ERROR", summary: "Cannot import a missing object", detail: `The account has no ${kind.tfType.replace(/^dnsaccount_/, "").replace(/_/g, " ")} with that id.` });
      return { state: null, diagnostics };
    }
    const props = { ...(result.props as Json), ...((result.inputs as Json | undefined) ?? {}) };
    // Every setting as the service has it (an import's inputs declare them all): a configuration that
    // declares none plans no change.
    const state = withEverySetting(kind, stateOf(kind, result.id, props), props);
    for (const k of kind.blocks) if (!kind.groups.has(k) && empty(state[k] ?? null)) state[k] = null;
    return { state, diagnostics };
  } catch (err) {
    diagnostics.push(errorDiagnostic(`Importing ${kind.tfType} failed`, err));
    return { state: null, diagnostics };
  }
}

/**
 * ReadDataSource: the package function behind it, with the configuration's arguments.
 *
 * @example
 * ```ts
 * const { state } = await readDataSource(kind, config, contextFor);
 * ```
 */
export async function readDataSource(kind: DataKind, config: TfValue, contextFor: ContextFor): Promise<{ state: TfValue; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const args = (toProgram(config, kind.shape) ?? {}) as Json;
  try {
    const outputs = (await callFunction(contextFor(diagnostics), kind.token as any, args as any)) as unknown as Json;
    return { state: fromProgram({ ...args, ...outputs }, kind.shape), diagnostics };
  } catch (err) {
    diagnostics.push(errorDiagnostic(`Reading data source ${dataSourceType(kind.token)} failed`, err));
    return { state: null, diagnostics };
  }
}
