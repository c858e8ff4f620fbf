/** Where the platform writes its CI workflow, and when that workflow runs. */
import type { KindInputs } from "pulumi-codesec/review";
import { defineRule, label, ofKind } from "../rule";

type ProvisionFilters = KindInputs["WorkflowProvisioning"]["filters"];

/** Whether filters name which repositories (by id, name or tag), rather than only their state flags. */
function choosesRepositories(filters: ProvisionFilters | undefined): boolean {
  if (filters === undefined) return false;
  const { ids, search, tagId } = filters;
  return (
    (ids !== undefined && ids.length > 0) || (search !== undefined && search !== "") || tagId !== undefined
  );
}

export const provisioningAllRepositories = defineRule<{ allowedResources: string[] }>({
  id: "codesec-provisioning-all-repositories",
  description:
    "A WorkflowProvisioning names its repositories (filters.ids, search or tagId) unless its resource name " +
    "is in allowedResources.",
  enforcementLevel: "mandatory",
  config: {
    allowedResources: { schema: { type: "array", items: { type: "string" } }, default: [] },
  },
  check(resources, { allowedResources }) {
    return ofKind(resources, "WorkflowProvisioning")
      .filter((ci) => !choosesRepositories(ci.view.inputs.filters) && !allowedResources.includes(ci.name))
      .map((ci) => ({
        urn: ci.urn,
        message:
          `${label(ci)} writes the CI workflow into every repository of deployment ${ci.view.inputs.deploymentId} ` +
          "(its filters name none by ids, search or tagId): narrow filters, or opt in by adding " +
          `"${ci.name}" to allowedResources in the policy pack's config.`,
      }));
  },
});

export const provisioningPushBranches = defineRule<object>({
  id: "codesec-provisioning-push-branches",
  description: "A workflow that runs on push names its branches (ghaOptions.pushBranches).",
  enforcementLevel: "mandatory",
  config: {},
  check(resources) {
    return ofKind(resources, "WorkflowProvisioning")
      .filter((ci) => {
        const options = ci.view.inputs.ghaOptions;
        return options?.pushEnabled === true && (options.pushBranches ?? []).length === 0;
      })
      .map((ci) => ({
        urn: ci.urn,
        message:
          `${label(ci)} enables the workflow on push without ghaOptions.pushBranches, so it runs on a push ` +
          'to any branch: list the branches (e.g. pushBranches: ["main"]).',
      }));
  },
});
