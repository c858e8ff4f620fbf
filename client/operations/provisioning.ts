/** CI workflow provisioning: `provisionWorkflows`. */
import { ProvisionResult, ProvisionWorkflowsArgs, type ProvisionBody } from "../../api/schemas/provisioning";
import { operationSubject, validateArguments } from "../argumentValidation";
import { buildPath } from "../pathParams";
import { validateResponse } from "../responseValidation";
import type { Transport } from "../transport";

/**
 * The body of `provisionWorkflows` for validated arguments: the arguments (the body's own fields, which their
 * schema allows alone), with absent options left out.
 */
export function provisionBody(args: ProvisionWorkflowsArgs): ProvisionBody {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined)) as ProvisionBody;
}

export async function provisionWorkflows(
  transport: Transport,
  args: ProvisionWorkflowsArgs,
): Promise<ProvisionResult> {
  const op = "provisionWorkflows";
  const input = validateArguments(operationSubject(op), ProvisionWorkflowsArgs, args);
  const result = await transport.call({
    operation: op,
    path: buildPath(op, input),
    body: provisionBody(input),
  });
  return validateResponse(ProvisionResult, result, op);
}

export type { ProvisionWorkflowsArgs };
