import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

// roleOnDestroy applies to a user removed from the map, and to every user on destroy; rolesOnDestroy
// sets it per user instead.
const team = new codesec.UserRoles("platform-team", {
    deploymentId: "1001",
    roles: {
        "502": codesec.OrgRole.Admin,
        "503": codesec.OrgRole.Member,
    },
    roleOnDestroy: codesec.OrgRole.Readonly,
    rolesOnDestroy: {
        "502": codesec.OrgRole.Member,
    },
});
