import * as pulumi from "@pulumi/pulumi";
import * as codesec from "@pulumi-codesec/codesec";

// roleOnDestroy: `pulumi destroy` demotes the user to a member again.
const member = new codesec.UserRole("member-502", {
    deploymentId: "1001",
    userId: "502",
    role: codesec.OrgRole.Admin,
    roleOnDestroy: codesec.OrgRole.Member,
});
