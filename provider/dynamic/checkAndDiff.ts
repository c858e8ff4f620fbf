/** The `check` and `diff` every resource has: its shape validates the inputs, its rules classify changes. */
import type * as pulumi from "@pulumi/pulumi";
import type { TObject } from "@sinclair/typebox";
import { CodeSecInputError, type OperationKey } from "../../sdk";
import { serializeRequestBody } from "../../sdk/requestBody";
import { checkFailure, type CheckFailure } from "../checkFailures";
import { diffInputs, type DiffRules } from "./diffing";
import { checkInputs, containsUnknown, withoutEngineKeys } from "./inputValidation";
import { ownershipOfResource } from "./runtimeCredentials";

/**
 * The request bodies a resource's inputs lead to, for resources whose bodies the schemas do not bound
 * (their size is checked at preview exactly as the client checks it at apply).
 */
export type RequestBodiesOf = (inputs: Record<string, unknown>) => [OperationKey, unknown][];

export function checkAndDiff(
  shape: TObject,
  resourceType: string,
  rules: DiffRules,
  requestBodiesOf?: RequestBodiesOf,
): Required<Pick<pulumi.dynamic.ResourceProvider, "check" | "diff">> {
  return {
    async check(_olds, news: Record<string, unknown>) {
      const result = await checkInputs(shape, news, resourceType);
      if (result.failures !== undefined || requestBodiesOf === undefined) return result;
      const failures: CheckFailure[] = [];
      for (const [operation, body] of requestBodiesOf(result.inputs as Record<string, unknown>)) {
        try {
          serializeRequestBody(operation, body);
        } catch (error) {
          if (!(error instanceof CodeSecInputError)) throw error;
          failures.push(checkFailure(shape, error.field, error.message));
        }
      }
      return failures.length > 0 ? { ...result, failures } : result;
    },
    async diff(id, olds: Record<string, unknown>, news: Record<string, unknown>) {
      const inputs = withoutEngineKeys(news);
      const result = diffInputs(olds, inputs, rules);
      // A connection still unknown at preview is checked at apply, when this runs again.
      if (containsUnknown(inputs.connection)) return result;
      // Another platform than the one the resource was created on stops here, with nothing sent.
      const ownership = ownershipOfResource(olds.platform, inputs, { type: resourceType, id, step: "plan" });
      // Recording the platform of an older state, and a move asked for, are updates (the kinds' update says what each costs).
      return ownership.kind === "same" ? result : { ...result, changes: true };
    },
  };
}
