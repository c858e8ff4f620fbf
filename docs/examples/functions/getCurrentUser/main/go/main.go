package main

import (
	"github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		me, err := codesec.GetCurrentUser(ctx, nil)
		if err != nil {
			return err
		}
		ctx.Export("whoami", pulumi.String(me.Login))
		ctx.Export("myOrgRole", pulumi.String(me.OrgRole))
		return nil
	})
}
