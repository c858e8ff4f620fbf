import pulumi
import pulumi_codesec as codesec

# roleOnDestroy: `pulumi destroy` demotes the user to a member again.
member = codesec.UserRole("member-502",
    deployment_id="1001",
    user_id="502",
    role=codesec.OrgRole.ADMIN,
    role_on_destroy=codesec.OrgRole.MEMBER)
