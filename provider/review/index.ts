/**
 * `pulumi-codesec/review`: what the policy pack (`codesec-policy`) and the review tools read codesec
 * resources with. **Experimental.**
 *
 * @example
 * ```ts
 * import { viewOf, roleGrantsOf } from "pulumi-codesec/review";
 *
 * const view = viewOf("pulumi-nodejs:dynamic/codesec:UserRole", props); // or "codesec:index:UserRole"
 * const grants = view ? roleGrantsOf(view) : [];
 * ```
 *
 * @packageDocumentation
 */
export { kindOfType, typeName, viewOf, type KindInputs, type KindView } from "./kindView";
export { grantKey, roleGrantsOf, type RoleGrant } from "./roleGrants";
