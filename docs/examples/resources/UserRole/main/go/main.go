package main

import (
	"github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// roleOnDestroy: `pulumi destroy` demotes the user to a member again.
		_, err := codesec.NewUserRole(ctx, "member-502", &codesec.UserRoleArgs{
			DeploymentId:  pulumi.String("1001"),
			UserId:        pulumi.String("502"),
			Role:          codesec.OrgRoleAdmin,
			RoleOnDestroy: codesec.OrgRoleMember,
		})
		if err != nil {
			return err
		}
		return nil
	})
}
