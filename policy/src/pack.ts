/** The rules as Pulumi stack policies: each reads the stack's codesec resources through `viewOf`. */
import type { PolicyResource, StackValidationPolicy } from "@pulumi/policy";
import { viewOf } from "pulumi-codesec/review";
import { configOf, configSchemaOf, type Declared, type Rule } from "./rule";

/** The stack's codesec resources (dynamic or native); every other resource is ignored. */
export function declaredResources(resources: readonly PolicyResource[]): Declared[] {
  return resources.flatMap((resource) => {
    const view = viewOf(resource.type, resource.props);
    return view ? [{ urn: resource.urn, name: resource.name, view }] : [];
  });
}

export function policyOf(rule: Rule): StackValidationPolicy {
  return {
    name: rule.id,
    description: rule.description,
    enforcementLevel: rule.enforcementLevel,
    configSchema: configSchemaOf(rule),
    validateStack: (args, reportViolation) => {
      const config = configOf(rule, args.getConfig<Partial<object>>());
      for (const violation of rule.check(declaredResources(args.resources), config)) {
        reportViolation(violation.message, violation.urn);
      }
    },
  };
}
