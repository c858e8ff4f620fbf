/**
 * The review summary compares a resource's inputs by the rule of the provider's diff: an input left out
 * that has a default holds that default, so a state without it and a program that spells it out agree.
 */
import { expect } from "chai";
import { parseEngineOutput } from "../../provider/review/engineOutput";
import { reviewSummary } from "../../provider/review/reviewSummary";

const TYPE = "codesec:index:WorkflowProvisioning";
const URN = `urn:pulumi:prod::org::${TYPE}::ci`;

function updateOf(oldInputs: object, newInputs: object): string {
  const step = {
    op: "update",
    urn: URN,
    oldState: { urn: URN, type: TYPE, inputs: oldInputs, outputs: oldInputs },
    newState: { urn: URN, type: TYPE, inputs: newInputs, outputs: newInputs },
    diffReasons: ["filters"],
  };
  return JSON.stringify({ steps: [step], diagnostics: [] });
}

describe("review: inputs with a default", () => {
  it("a state without the defaulted input and a program that sets its default show no change of it", () => {
    const summary = reviewSummary(
      parseEngineOutput(
        updateOf(
          { deploymentId: "1001", filters: { codeAccess: true } },
          { deploymentId: "1001", filters: { codeAccess: false }, allowPartialFailure: false },
        ),
      ),
    );
    expect(summary).to.include('filters: {"codeAccess":true} → {"codeAccess":false}');
    expect(summary).not.to.include("allowPartialFailure");
  });

  it("a defaulted input set to another value than its default is shown as a change", () => {
    const summary = reviewSummary(
      parseEngineOutput(
        updateOf(
          { deploymentId: "1001", filters: { codeAccess: true } },
          { deploymentId: "1001", filters: { codeAccess: true }, allowPartialFailure: true },
        ),
      ),
    );
    expect(summary).to.include("allowPartialFailure: (none) → true");
  });
});
