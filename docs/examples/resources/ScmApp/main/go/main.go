package main

import (
	"github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		scmAppCode := cfg.RequireSecret("scmAppCode")
		github, err := codesec.NewScmApp(ctx, "github", &codesec.ScmAppArgs{
			DeploymentId: pulumi.String("1001"),
			RequestId:    pulumi.String("apprq-1001-a"),
			Code:         scmAppCode,
		})
		if err != nil {
			return err
		}
		// Adopt an app that is already connected (its request completed elsewhere): no code, create reads it.
		_, err = codesec.NewScmApp(ctx, "legacy", &codesec.ScmAppArgs{
			DeploymentId: pulumi.String("1001"),
			RequestId:    pulumi.String("apprq-1001-done"),
		})
		if err != nil {
			return err
		}
		ctx.Export("appSlug", github.Slug)
		return nil
	})
}
