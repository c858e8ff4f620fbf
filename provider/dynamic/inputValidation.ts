/**
 * `check` for every resource: validates inputs against the resource's shape and turns each problem into
 * a check failure whose reason names the field (see checkFailures.ts for what the engine may be told),
 * so `pulumi preview` stops before any mutating call.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { TObject } from "@sinclair/typebox";
import { Type } from "../../api/typeBuilder";
import { issueMessage, schemaIssues } from "../../api/schemaIssues";
import { checkFailure, type CheckFailure } from "../checkFailures";
import { CodeSecConnectionError } from "../connection";
import { SECRET_INPUTS } from "../secretInputs";
import { checkConnection } from "./runtimeCredentials";

/** The engine's placeholder for a value not known until apply (an output of another resource). */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * The key the engine adds to a dynamic resource's properties: its serialized provider. It is the only
 * one: any other key, `__role` included, is the program's and is checked like every input.
 */
const ENGINE_KEY = "__provider";

/** Drops the engine's reserved key (`__provider`) before validation and comparison. */
export function withoutEngineKeys<T extends Record<string, unknown>>(props: T): T {
  return Object.fromEntries(Object.entries(props ?? {}).filter(([key]) => key !== ENGINE_KEY)) as T;
}

/**
 * Only the engine's reserved key of a property bag. Properties recorded for a failed create or update
 * must keep `__provider`, or the engine could not load the provider for that resource again.
 */
export function engineKeysOf(props: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props ?? {}).filter(([key]) => key === ENGINE_KEY));
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN_VALUE) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}

/**
 * Validates `news` against `shape` with the client's field schemas and message formatter, so a value
 * that `check` accepts at preview is one the client accepts at apply, and the reverse. Values still
 * unknown at preview are accepted as they are. `connection` is resolved as the client will resolve it
 * (naming the exact setting at fault); unless something is unknown or invalid, the credentials are then
 * proven with one read per connection per process.
 */
export async function checkInputs(
  shape: TObject,
  news: Record<string, unknown>,
  resourceType: string,
): Promise<pulumi.dynamic.CheckResult> {
  const inputs = withoutEngineKeys(news);
  const failures: CheckFailure[] = [];
  const subject = { name: resourceType, noun: "input" as const, secretFields: SECRET_INPUTS };
  for (const issue of schemaIssues(shapeWithAnyConnection(shape), inputs)) {
    if (containsUnknown(issue.value) || isUnderUnknown(inputs, issue.path)) continue;
    failures.push(checkFailure(shape, issue.path, issueMessage(issue, subject)));
  }
  if (containsUnknown(inputs.connection)) return failures.length > 0 ? { inputs, failures } : { inputs };
  try {
    // Reaching the platform is pointless while an input is wrong: only resolve the connection then.
    await checkConnection(inputs, { verify: failures.length === 0 });
  } catch (error) {
    if (!(error instanceof CodeSecConnectionError)) throw error;
    // A problem in the resource's own `connection` input is a property failure; one in stack config
    // (a client setting, the default connection) or the environment concerns the whole stack, so it
    // fails the check as an error naming the setting.
    const own = error.field.startsWith("connection") || error.field.startsWith("codesec:connections");
    if (inputs.connection === undefined || !own) throw error;
    failures.push(
      checkFailure(shape, error.field.startsWith("connection") ? error.field : "connection", error.message),
    );
  }
  return failures.length > 0 ? { inputs, failures } : { inputs };
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
