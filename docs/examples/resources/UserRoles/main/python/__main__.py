import pulumi
import pulumi_codesec as codesec

# roleOnDestroy applies to a user removed from the map, and to every user on destroy; rolesOnDestroy
# sets it per user instead.
team = codesec.UserRoles("platform-team",
    deployment_id="1001",
    roles={
        "502": codesec.OrgRole.ADMIN,
        "503": codesec.OrgRole.MEMBER,
    },
    role_on_destroy=codesec.OrgRole.READONLY,
    roles_on_destroy={
        "502": codesec.OrgRole.MEMBER,
    })
