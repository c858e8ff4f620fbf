/**
 * Runtime enum objects, as Pulumi's generated SDKs have them (`aws.s3.CannedAcl.Private`): each maps a
 * PascalCase name to a value of the platform's enumeration. The values are not written again here: they
 * come from the one definition in api/schemas, so the object, its type and the `check` rules agree.
 */
import { ORG_ROLES } from "../api/schemas/common";

/** `ORG_ROLE_READONLY` -> `Readonly`: the value without its prefix, in PascalCase. */
type MemberName<V extends string, Prefix extends string> = V extends `${Prefix}${infer Rest}`
  ? Capitalize<Lowercase<Rest>>
  : never;

type EnumObject<V extends string, Prefix extends string> = { readonly [K in V as MemberName<K, Prefix>]: K };

function enumObject<const V extends string, const Prefix extends string>(
  prefix: Prefix,
  values: readonly V[],
): EnumObject<V, Prefix> {
  const entries = values.map((value) => {
    const rest = value.slice(prefix.length).toLowerCase();
    return [rest.charAt(0).toUpperCase() + rest.slice(1), value];
  });
  return Object.freeze(Object.fromEntries(entries)) as EnumObject<V, Prefix>;
}

/**
 * The organization roles a user can hold in a deployment. **Experimental** (set with
 * `PATCH /api/agent/deployments/{deploymentId}/users/{userId}/roles`).
 *
 * Inputs typed `OrgRole` accept any string too (`pulumi.Input<string | OrgRole>`), as generated SDKs
 * do, so a role read from stack config compiles; `pulumi preview` refuses a value outside these four,
 * naming the field.
 *
 * @example
 * ```ts
 * new codesec.UserRole("bob", { deploymentId: "1001", userId: "user-bob", role: codesec.OrgRole.Member });
 * // OrgRole.Admin === "ORG_ROLE_ADMIN", OrgRole.Member, OrgRole.Impersonator, OrgRole.Readonly
 * ```
 */
export const OrgRole = enumObject("ORG_ROLE_", ORG_ROLES);

/** One of the values of {@link OrgRole}: `"ORG_ROLE_ADMIN" | "ORG_ROLE_MEMBER" | ...`. */
export type OrgRole = (typeof OrgRole)[keyof typeof OrgRole];
