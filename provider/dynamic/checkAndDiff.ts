/** The `check` and `diff` every resource has: its shape validates the inputs, its rules classify changes. */
import type * as pulumi from "@pulumi/pulumi";
import type { TObject } from "@sinclair/typebox";
import { CodeSecInputError, type OperationKey } from "../../sdk";
import { serializeRequestBody } from "../../sdk/requestBody";
import { diffInputs, type DiffRules } from "./diffing";
import { checkInputs, withoutEngineKeys } from "./inputValidation";

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
      const failures: pulumi.dynamic.CheckFailure[] = [];
      for (const [operation, body] of requestBodiesOf(result.inputs as Record<string, unknown>)) {
        try {
          serializeRequestBody(operation, body);
        } catch (error) {
          if (!(error instanceof CodeSecInputError)) throw error;
          failures.push({ property: error.field, reason: error.message });
        }
      }
      return failures.length > 0 ? { ...result, failures } : result;
    },
    async diff(_id, olds: Record<string, unknown>, news: Record<string, unknown>) {
      return diffInputs(olds, withoutEngineKeys(news), rules);
    },
  };
}
