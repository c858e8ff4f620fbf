/** The `check` and `diff` every resource has: its shape validates the inputs, its rules classify changes. */
import type * as pulumi from "@pulumi/pulumi";
import type { TObject } from "@sinclair/typebox";
import { diffInputs, type DiffRules } from "./diffing";
import { checkInputs, withoutEngineKeys } from "./inputValidation";

export function checkAndDiff(
  shape: TObject,
  resourceType: string,
  rules: DiffRules,
): Required<Pick<pulumi.dynamic.ResourceProvider, "check" | "diff">> {
  return {
    async check(_olds, news) {
      return checkInputs(shape, news, resourceType);
    },
    async diff(_id, olds, news) {
      return diffInputs(olds, withoutEngineKeys(news), rules);
    },
  };
}
