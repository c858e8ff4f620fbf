package main

import (
	"github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		// roleOnDestroy applies to a user removed from the map, and to every user on destroy; rolesOnDestroy
		// sets it per user instead.
		_, err := codesec.NewUserRoles(ctx, "platform-team", &codesec.UserRolesArgs{
			DeploymentId: pulumi.String("1001"),
			Roles: codesec.OrgRoleMap{
				"502": codesec.OrgRoleAdmin,
				"503": codesec.OrgRoleMember,
			},
			RoleOnDestroy: codesec.OrgRoleReadonly,
			RolesOnDestroy: codesec.OrgRoleMap{
				"502": codesec.OrgRole(codesec.OrgRoleMember),
			},
		})
		if err != nil {
			return err
		}
		return nil
	})
}
