/** Users, roles and organizations: operations 1, 8 and 9. */
import type { Static } from "@sinclair/typebox";
import { Type } from "../typeBuilder";
import { described } from "../schemaIssues";
import { DateTime, NumericId, OpaqueId, OrgRole } from "./common";

/** Arguments of `updateUserRole` (operation 1). */
export const UpdateUserRoleArgs = Type.Object(
  {
    /** Numeric deployment id, as a string. */
    deploymentId: NumericId,
    /** The user whose organization role changes. */
    userId: OpaqueId,
    newRole: OrgRole,
  },
  { additionalProperties: false },
);
export type UpdateUserRoleArgs = Static<typeof UpdateUserRoleArgs>;

/** Arguments of `listJoinableOrganizations` (operation 9); all optional. */
export const ListJoinableOrganizationsArgs = Type.Object(
  {
    // Omitted from the query when undefined.
    userId: described(
      Type.Optional(OpaqueId),
      "The user to list for; must be the caller's own user id. Defaults to the caller.",
    ),
  },
  { additionalProperties: false },
);
export type ListJoinableOrganizationsArgs = Static<typeof ListJoinableOrganizationsArgs>;

/** Body of operation 1 (PATCH .../users/{userId}/roles). */
export const UpdateUserRoleBody = Type.Object(
  { deploymentId: NumericId, userId: OpaqueId, newRole: OrgRole },
  { additionalProperties: false },
);
export type UpdateUserRoleBody = Static<typeof UpdateUserRoleBody>;

/** Operation 1 answers an empty object. */
export const UpdateUserRoleResponse = Type.Object({});
export type UpdateUserRoleResponse = Static<typeof UpdateUserRoleResponse>;

export const AuthDetail = Type.Object({
  providerId: Type.String(),
  providerType: Type.String(),
  sourceId: Type.String(),
  current: Type.Boolean(),
  expiresAt: Type.Optional(DateTime),
  authProviderId: Type.String(),
});
export type AuthDetail = Static<typeof AuthDetail>;

export const CurrentUser = Type.Object({
  id: described(Type.String(), "The user's id."),
  name: described(Type.String(), "Display name."),
  email: described(Type.String(), "E-mail address."),
  login: described(Type.String(), "Login name."),
  authDetails: described(
    Type.Array(AuthDetail),
    "How the user signs in: `providerId`, `providerType`, `sourceId`, `current`, `expiresAt` (optional), " +
      "`authProviderId`.",
  ),
  orgRole: described(Type.String(), "The user's organization role, e.g. `ORG_ROLE_ADMIN`."),
  deletedAt: described(
    Type.Optional(DateTime),
    "When the user was deleted; present only for a deleted user.",
  ),
});
export type CurrentUser = Static<typeof CurrentUser>;

export const CurrentUserResponse = Type.Object({ user: CurrentUser });
export type CurrentUserResponse = Static<typeof CurrentUserResponse>;

export const FeatureFlag = Type.Object({ name: Type.String(), expiresAt: Type.Optional(DateTime) });
export type FeatureFlag = Static<typeof FeatureFlag>;

export const OrganizationFeatures = Type.Object({
  featureFlags: Type.Array(FeatureFlag),
  hasAutofix: Type.Boolean(),
  hasDeepengine: Type.Boolean(),
  hasTriageViaComment: Type.Boolean(),
  hasDependencyQuery: Type.Boolean(),
  defaultUserRole: OrgRole,
  editorServiceVersion: Type.String(),
  noserviceDisabled: Type.Boolean(),
});
export type OrganizationFeatures = Static<typeof OrganizationFeatures>;

export const JoinableOrganization = Type.Object({
  id: Type.String(),
  name: Type.String(),
  displayName: Type.String(),
  slug: Type.String(),
  sourceType: Type.String(),
  organizationId: Type.String(),
  features: OrganizationFeatures,
});
export type JoinableOrganization = Static<typeof JoinableOrganization>;

export const JoinableOrganizationsResponse = Type.Object({
  userId: described(Type.String(), "The user the list is for (the caller)."),
  orgs: described(
    Type.Array(JoinableOrganization),
    "The organizations: `id`, `name`, `displayName`, `slug`, `sourceType`, `organizationId`, `features` " +
      "(feature flags and `defaultUserRole`).",
  ),
});
export type JoinableOrganizationsResponse = Static<typeof JoinableOrganizationsResponse>;

/** Query of operation 9. `userId` may be left out (it defaults to the caller); when given it must be the caller. */
export const JoinableOrganizationsQuery = Type.Object(
  { userId: Type.Optional(OpaqueId) },
  { additionalProperties: false },
);
export type JoinableOrganizationsQuery = Static<typeof JoinableOrganizationsQuery>;
