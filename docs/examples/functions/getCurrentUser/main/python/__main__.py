import pulumi
import pulumi_codesec as codesec

me = codesec.get_current_user()
pulumi.export("whoami", me.login)
pulumi.export("myOrgRole", me.org_role)
