/** The stack's role grants, each with the resource that declares it. */
import { roleGrantsOf, type RoleGrant } from "pulumi-codesec/review";
import type { Declared } from "./rule";

export interface DeclaredGrant extends RoleGrant {
  readonly resource: Declared;
}

export function declaredGrants(resources: readonly Declared[]): DeclaredGrant[] {
  return resources.flatMap((resource) =>
    roleGrantsOf(resource.view).map((grant) => ({ ...grant, resource })),
  );
}
