/**
 * The steps of every kind, derived from its definition, for both providers: `check` validates the inputs
 * with the client's own schemas and formatter (what preview accepts, apply accepts), `diff` classifies
 * changes by each field's `onChange`, and create, read, update and delete wrap the kind's implementation
 * with what every kind does the same way: the platform a resource belongs to (provider/ownership.ts),
 * recorded on create and checked before anything reaches a platform.
 */
import type { TObject } from "@sinclair/typebox";
import { Type } from "../../api/typeBuilder";
import { issueMessage, schemaIssues } from "../../api/schemaIssues";
import { nestingIssue } from "../../api/nestingDepth";
import { quotedText } from "../../api/messageText";
import { CodeSecInputError } from "../../client";
import { serializeRequestBody } from "../../client/requestBody";
import {
  type CheckFailure,
  checkFailure,
  CodeSecConnectionError,
  CodeSecResourceError,
  ResourceInitError,
} from "../errors";
import { CONFIG_CONNECTIONS, STACK_CONFIG } from "../connection";
import {
  checkConnectionOf,
  ownershipOfResource,
  platformOfResource,
  type ProviderContext,
} from "../providerContext";
import {
  inputChanged,
  inputShape,
  withDefaults,
  inputsWhoseChange,
  secretFields,
  typeLabel,
  type InputField,
  type ResourceDefinition,
} from "./definition";
import type { KindContext, ReadOutcome, UpdatePlan } from "./kindImplementation";

/** The engine's placeholder for a value not known until apply (an output of another resource). */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * Whether the connection of `props` is not known until apply: its own `connection` input, or the
 * provider's configuration (ProviderContext.unknownConfig). Nothing that needs the connection runs then:
 * no credential check, no platform recorded or compared; the apply, which knows it, does all that.
 */
export function connectionNotKnown(ctx: ProviderContext, props: { connection?: unknown }): boolean {
  return (ctx.unknownConfig?.length ?? 0) > 0 || containsUnknown(props.connection);
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN_VALUE) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

type Props = Record<string, unknown>;

/** What `check` found: the inputs to use, and every problem (none when absent). */
export interface CheckOutcome {
  readonly inputs: Props;
  readonly failures?: CheckFailure[];
}

/**
 * Validates `inputs` against the kind's shape with the client's field schemas and message formatter, so a
 * value that `check` accepts at preview is one the client accepts at apply, and the reverse. Values still
 * unknown at preview are accepted as they are. `connection` is resolved as the client will resolve it
 * (naming the exact setting at fault); unless something is unknown or invalid, the credentials are then
 * proven with one read per connection per process.
 */
export async function checkResource(
  definition: ResourceDefinition,
  inputs: Props,
  ctx: ProviderContext,
): Promise<CheckOutcome> {
  const shape = inputShape(definition);
  const secrets = secretFields(definition);
  const failure = (path: string, reason: string) => checkFailure(shape, secrets, path, reason);
  const failures: CheckFailure[] = [];
  const subject = { name: typeLabel(definition), noun: "input" as const, secretFields: secrets };
  // First: every walk below (the checks, unknown values, the engine's own serialization) recurses.
  const tooDeep = nestingIssue(inputs);
  if (tooDeep !== undefined)
    return { inputs, failures: [failure(tooDeep.path, issueMessage(tooDeep, subject))] };
  for (const issue of schemaIssues(shapeWithAnyConnection(shape), inputs)) {
    if (containsUnknown(issue.value) || isUnderUnknown(inputs, issue.path)) continue;
    failures.push(failure(issue.path, issueMessage(issue, subject)));
  }
  // What `check` returns and the kind's hooks read: every defaulted input filled in.
  const checked = withDefaults(definition, inputs);
  if (failures.length === 0 && !containsUnknown(inputs)) {
    for (const { path, reason } of definition.implementation.inputProblems?.(checked) ?? []) {
      failures.push(failure(path, reason));
    }
    for (const [operation, body] of definition.implementation.requestBodies?.(
      checked,
      kindContext(definition, ctx),
    ) ?? []) {
      try {
        serializeRequestBody(operation, body);
      } catch (error) {
        if (!(error instanceof CodeSecInputError)) throw error;
        failures.push(failure(error.field, error.message));
      }
    }
  }
  const done = () => (failures.length > 0 ? { inputs, failures } : { inputs: checked });
  if (connectionNotKnown(ctx, inputs)) return done();
  try {
    // Reaching the platform is pointless while an input is wrong: only resolve the connection then.
    await checkConnectionOf(ctx, inputs, { verify: failures.length === 0 });
  } catch (error) {
    if (!(error instanceof CodeSecConnectionError)) throw error;
    // A problem in the resource's own `connection` input is a property failure; one in the provider's
    // config (a client setting, the default connection) or the environment concerns the whole stack, so
    // it fails the check as an error naming the setting.
    // (A named connection's own fields are the config's `codesec:connections.<name>...`, or a Provider's
    // `connections.<name>...` input: the resource's `connection` names it.)
    const input = error.field === "connection" || error.field.startsWith("connection.");
    const connections = (ctx.config.origin ?? STACK_CONFIG).setting(CONFIG_CONNECTIONS);
    const named = error.field === connections || error.field.startsWith(`${connections}.`);
    if (inputs.connection === undefined || !(input || named)) throw error;
    failures.push(failure(input ? error.field : "connection", error.message));
  }
  if (failures.length === 0 && !containsUnknown(inputs)) {
    for (const { path, reason } of definition.implementation.checked?.(
      checked,
      kindContext(definition, ctx),
    ) ?? []) {
      failures.push(failure(path, reason));
    }
  }
  return done();
}

const anyConnection = new WeakMap<TObject, TObject>();

/**
 * The shape with `connection` accepting anything: resolveConnection checks it, naming the exact field
 * or stack config key at fault, where a union's schema error could only say "connection is wrong".
 */
function shapeWithAnyConnection(shape: TObject): TObject {
  let relaxed = anyConnection.get(shape);
  if (!relaxed) {
    relaxed = Type.Object(
      { ...shape.properties, connection: Type.Optional(Type.Unknown()) },
      { additionalProperties: false },
    );
    anyConnection.set(shape, relaxed);
  }
  return relaxed;
}

/** Whether `path` (dotted, with [i] indexes) lies under a value that is still unknown. */
function isUnderUnknown(root: unknown, path: string): boolean {
  let node = root;
  for (const segment of path.split(/[.[\]]/).filter(Boolean)) {
    if (node === UNKNOWN_VALUE) return true;
    if (node === null || typeof node !== "object") return false;
    node = (node as Record<string, unknown>)[segment];
  }
  return node === UNKNOWN_VALUE;
}

/** A changed property, and what its change does. */
export interface PropertyChange {
  readonly name: string;
  readonly kind: "replace" | "update";
  /**
   * A change the state asks for rather than an input (drift that `up` records, the platform of an older
   * state): it makes an update, but it is no difference between old and new inputs, so a per-property
   * diff does not list it.
   */
  readonly fromState?: true;
}

/** What `diff` found. */
export interface DiffPlan {
  readonly changes: boolean;
  /** The changed properties that replace the resource. */
  readonly replaces: string[];
  /** Identity properties that did not change (the engine's `stables`). */
  readonly stables: string[];
  /** Every changed property, for a per-property diff (the native provider's `detailedDiff`). */
  readonly changed: PropertyChange[];
}

/**
 * The diff of a resource from its state (`olds`) to new inputs (`news`): each input by its field's
 * `onChange`; the platform it belongs to (another one stops here, naming both: provider/ownership.ts);
 * and whatever change the state itself asks for (the kind's `pendingChanges`).
 */
export function diffResource(
  definition: ResourceDefinition,
  id: string,
  olds: Props,
  news: Props,
  ctx: ProviderContext,
): DiffPlan {
  const changed: PropertyChange[] = [];
  for (const [name, field] of Object.entries(definition.inputs)) {
    if (field.onChange === "never" || !fieldChanged(field, olds[name], news[name])) continue;
    changed.push({ name, kind: field.onChange === "replace" ? "replace" : "update" });
  }
  for (const name of definition.implementation.pendingChanges?.(olds, news) ?? []) {
    if (!changed.some((change) => change.name === name))
      changed.push({ name, kind: "update", fromState: true });
  }
  // A connection still unknown at preview is checked at apply, when this runs again.
  if (!connectionNotKnown(ctx, news)) {
    const ownership = ownershipOfResource(ctx, olds.platform, news, {
      type: typeLabel(definition),
      id,
      step: "plan",
    });
    // Recording the platform of an older state, and a move asked for, are updates (what each costs: the kind's update).
    if (ownership.kind !== "same") changed.push({ name: "platform", kind: "update", fromState: true });
  }
  const replaces = changed.filter((change) => change.kind === "replace").map((change) => change.name);
  const stables = inputsWhoseChange(definition, "replace").filter((name) => !replaces.includes(name));
  return { changes: changed.length > 0, replaces, stables, changed };
}

/**
 * The context a kind's calls get: the provider's, with the kind's type label for its messages and its
 * input fields for the arguments of its calls.
 */
function kindContext(definition: ResourceDefinition, ctx: ProviderContext): KindContext {
  return { ...ctx, type: typeLabel(definition), inputFields: definition.inputs };
}

function fieldChanged(field: InputField, old: unknown, next: unknown): boolean {
  return containsUnknown(next) || inputChanged(field, old, next);
}

/** Runs a create or update; what a partly applied one records carries the platform too. */
async function recordingPlatform<T>(platform: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ResourceInitError) throw error.withProperties({ platform });
    throw error;
  }
}

/** Creates the resource and records the platform it was created on. */
export async function createResource(
  definition: ResourceDefinition,
  inputs: Props,
  ctx: ProviderContext,
): Promise<{ id: string; state: Props }> {
  const platform = platformOfResource(ctx, inputs);
  const { id, state } = await recordingPlatform(platform, () =>
    definition.implementation.create(inputs, kindContext(definition, ctx)),
  );
  return { id, state: { ...(state as Props), platform } };
}

/**
 * Updates the resource: on the platform it belongs to, applying it again when an input whose change
 * applies again changed or the resource moves to another platform; recording its platform.
 */
export async function updateResource(
  definition: ResourceDefinition,
  id: string,
  olds: Props,
  news: Props,
  ctx: ProviderContext,
): Promise<Props> {
  const plan = planUpdate(definition, id, olds, news, ctx);
  const state = await recordingPlatform(plan.ownership.platform, () =>
    definition.implementation.update(id, olds, news, plan, kindContext(definition, ctx)),
  );
  return { ...(state as Props), platform: plan.ownership.platform };
}

/**
 * What an update of the resource will do: where it belongs, and whether it applies the resource again (an
 * input whose change applies again changed, or the resource moves to another platform).
 */
export function planUpdate(
  definition: ResourceDefinition,
  id: string,
  olds: Props,
  news: Props,
  ctx: ProviderContext,
): UpdatePlan {
  const ownership = ownershipOfResource(ctx, olds.platform, news, {
    type: typeLabel(definition),
    id,
    step: "update",
  });
  const reapply =
    ownership.kind === "moving" ||
    inputsWhoseChange(definition, "update").some((name) =>
      fieldChanged(definition.inputs[name], olds[name], news[name]),
    );
  return { reapply, ownership };
}

/**
 * Reads the resource back (a refresh), or, with no state, imports it by id (which the kind's import rule
 * must allow). A resource being moved to another platform is not read there: the move's `pulumi up`
 * applies it first.
 */
export async function readResource(
  definition: ResourceDefinition,
  id: string,
  state: Props | undefined,
  ctx: ProviderContext,
): Promise<ReadOutcome<Props>> {
  if (state === undefined) {
    if (definition.importRule.kind === "refused") {
      throw new CodeSecResourceError(
        `${typeLabel(definition)} ${quotedText(id)} cannot be looked up by id or imported: ${definition.importRule.why}`,
      );
    }
    const found = await definition.implementation.read(id, undefined, kindContext(definition, ctx));
    if ("gone" in found) return found;
    const platform = platformOfResource(ctx, found.state as Props);
    return { ...found, state: { ...(found.state as Props), platform } };
  }
  const ownership = ownershipOfResource(ctx, state.platform, state, {
    type: typeLabel(definition),
    id,
    step: "refresh",
  });
  if (ownership.kind === "moving") return { state };
  const found = await definition.implementation.read(id, state, kindContext(definition, ctx));
  if ("gone" in found) return found;
  return { ...found, state: { ...(found.state as Props), platform: ownership.platform } };
}

/** Deletes the resource (the kind checks ownership before any call it makes). */
export async function deleteResource(
  definition: ResourceDefinition,
  id: string,
  state: Props,
  ctx: ProviderContext,
): Promise<void> {
  await definition.implementation.delete(id, state, kindContext(definition, ctx));
}
