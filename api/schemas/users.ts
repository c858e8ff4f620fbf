/** Users, roles and organizations: `updateUserRole`, `getCurrentUser` and `listJoinableOrganizations`. */
import type { Static } from "@sinclair/typebox";
import { Type } from "../typeBuilder";
import { described } from "../schemaIssues";
import { DateTime, NumericId, OpaqueId, OrgRole } from "./common";

/** Arguments of `updateUserRole`. */
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

/** Arguments of `listJoinableOrganizations`; all optional. */
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

/** Body of `updateUserRole` (PATCH .../users/{userId}/roles). */
export const UpdateUserRoleBody = Type.Object(
  { deploymentId: NumericId, userId: OpaqueId, newRole: OrgRole },
  { additionalProperties: false },
);
export type UpdateUserRoleBody = Static<typeof UpdateUserRoleBody>;

/** `updateUserRole` answers an empty object. */
export const UpdateUserRoleResponse = Type.Object({});
export type UpdateUserRoleResponse = Static<typeof UpdateUserRoleResponse>;

export const AuthDetail = Type.Object({
  providerId: described(Type.String(), "The identity provider's id."),
  providerType: described(
    Type.String(),
    "The kind of identity provider, e.g. `PROVIDER_TYPE_SCM` (the spec does not list the values; any is kept).",
  ),
  sourceId: described(Type.String(), "The user's id at that provider."),
  current: described(Type.Boolean(), "Whether this is the sign-in the user is using now."),
  expiresAt: described(
    Type.Optional(DateTime),
    "When this sign-in expires (RFC 3339); absent when it does not.",
  ),
  authProviderId: described(Type.String(), "The platform's id of the authentication provider."),
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

export const FeatureFlag = Type.Object({
  name: described(Type.String(), "The feature's name."),
  expiresAt: described(Type.Optional(DateTime), "When the flag expires (RFC 3339); absent when it does not."),
});
export type FeatureFlag = Static<typeof FeatureFlag>;

export const OrganizationFeatures = Type.Object({
  featureFlags: described(Type.Array(FeatureFlag), "The feature flags switched on for the organization."),
  hasAutofix: described(Type.Boolean(), "Whether automatic fixes are available."),
  hasDeepengine: described(Type.Boolean(), "Whether the platform's deep analysis engine is available."),
  hasTriageViaComment: described(Type.Boolean(), "Whether findings can be triaged by commenting on them."),
  hasDependencyQuery: described(Type.Boolean(), "Whether dependency queries are available."),
  defaultUserRole: described(OrgRole, "The role a user gets on joining the organization."),
  editorServiceVersion: described(Type.String(), "The version of the editor service the organization uses."),
  noserviceDisabled: described(
    Type.Boolean(),
    "The platform's `noserviceDisabled` flag, as it reports it (the spec does not explain it).",
  ),
});
export type OrganizationFeatures = Static<typeof OrganizationFeatures>;

export const JoinableOrganization = Type.Object({
  id: described(Type.String(), "The deployment's id."),
  name: described(Type.String(), "The organization's name."),
  displayName: described(Type.String(), "The name the platform shows."),
  slug: described(Type.String(), "The organization's short name, as in the platform's URLs."),
  sourceType: described(
    Type.String(),
    "Where the organization comes from, e.g. `SOURCE_TYPE_SCM_ORGANIZATION` (the spec does not list the " +
      "values; any is kept).",
  ),
  organizationId: described(Type.String(), "The organization's id at its source."),
  features: described(OrganizationFeatures, "What the organization can use, and the role new users get."),
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

/**
 * Query of `listJoinableOrganizations`. `userId` may be left out (it defaults to the caller); when given it
 * must be the caller.
 */
export const JoinableOrganizationsQuery = Type.Object(
  { userId: Type.Optional(OpaqueId) },
  { additionalProperties: false },
);
export type JoinableOrganizationsQuery = Static<typeof JoinableOrganizationsQuery>;
