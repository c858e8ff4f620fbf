/** CI workflow provisioning: operation 2 (provisionWorkflows). */
import {
  GhaOptions,
  ProvisionBody,
  ProvisionFilters,
  ProvisionResult,
  type GhaOptions as GhaOptionsType,
  type ProvisionFilters as ProvisionFiltersType,
} from "../schemas/provisioning";
import { argsObject, conformingBody, optionalConforming } from "../inputValidation";
import { buildPath } from "../pathParams";
import { validateResponse } from "../responseValidation";
import type { Transport } from "../transport";

export interface ProvisionWorkflowsArgs {
  /** Numeric deployment id, as a string. */
  deploymentId: string;
  filters?: ProvisionFiltersType;
  excludeIds?: string[];
  ghaOptions?: GhaOptionsType;
}

// excludeIds' shape is taken from the body schema, not restated.
const ExcludeIds = ProvisionBody.properties.excludeIds;

export async function provisionWorkflows(
  transport: Transport,
  args: ProvisionWorkflowsArgs,
): Promise<ProvisionResult> {
  const op = "provisionWorkflows";
  const input = argsObject(op, args, "{ deploymentId, filters?, excludeIds?, ghaOptions? }");
  const path = buildPath(op, input);
  const filters = optionalConforming(op, "filters", ProvisionFilters, input.filters);
  const excludeIds = optionalConforming(op, "excludeIds", ExcludeIds, input.excludeIds);
  const ghaOptions = optionalConforming(op, "ghaOptions", GhaOptions, input.ghaOptions);
  const body = {
    deploymentId: input.deploymentId as string,
    ...(filters === undefined ? {} : { filters }),
    ...(excludeIds === undefined ? {} : { excludeIds }),
    ...(ghaOptions === undefined ? {} : { ghaOptions }),
  } as ProvisionBody;
  conformingBody(op, ProvisionBody, body);
  const result = await transport.call({ operation: op, path, body });
  return validateResponse(ProvisionResult, result, op);
}
