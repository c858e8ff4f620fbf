/** Which organizations a stack may reach, and how it names its credentials. */
import { defineRule, label } from "../rule";

export const deploymentAllowList = defineRule<{ deploymentIds: string[] }>({
  id: "codesec-deployment-allow-list",
  description: "Every codesec resource is in one of deploymentIds (empty: any deployment).",
  enforcementLevel: "mandatory",
  config: {
    deploymentIds: { schema: { type: "array", items: { type: "string" } }, default: [] },
  },
  check(resources, { deploymentIds }) {
    if (deploymentIds.length === 0) return [];
    return resources
      .filter((resource) => !deploymentIds.includes(resource.view.inputs.deploymentId))
      .map((resource) => ({
        urn: resource.urn,
        message:
          `${label(resource)} is in deployment ${resource.view.inputs.deploymentId}, which is not in ` +
          `deploymentIds (${deploymentIds.join(", ")}): check the deployment id, or add it to deploymentIds in ` +
          "the policy pack's config.",
      }));
  },
});

export const connectionByName = defineRule<object>({
  id: "codesec-connection-by-name",
  description:
    "A resource's connection is a name (stack config codesec:connections), not an object holding a token.",
  enforcementLevel: "advisory",
  config: {},
  check(resources) {
    return resources
      .filter((resource) => {
        const connection: unknown = resource.view.inputs.connection;
        return connection !== undefined && connection !== null && typeof connection === "object";
      })
      .map((resource) => ({
        urn: resource.urn,
        message:
          `${label(resource)} passes its connection as an object (deprecated: the program holds a token): name ` +
          "a connection set in stack config codesec:connections instead.",
      }));
  },
});
