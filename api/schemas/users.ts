/** Users, roles and organizations: operations 1, 8 and 9. */
import { Type, type Static } from "@sinclair/typebox";
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
    /** Must be the caller's own user id; omitted from the query when undefined. */
    userId: Type.Optional(OpaqueId),
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
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  login: Type.String(),
  authDetails: Type.Array(AuthDetail),
  orgRole: Type.String(),
  /** Present only for a deleted user. */
  deletedAt: Type.Optional(DateTime),
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
  userId: Type.String(),
  orgs: Type.Array(JoinableOrganization),
});
export type JoinableOrganizationsResponse = Static<typeof JoinableOrganizationsResponse>;

/** Query of operation 9. `userId` may be left out (it defaults to the caller); when given it must be the caller. */
export const JoinableOrganizationsQuery = Type.Object(
  { userId: Type.Optional(OpaqueId) },
  { additionalProperties: false },
);
export type JoinableOrganizationsQuery = Static<typeof JoinableOrganizationsQuery>;
