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
		// github.requestId, not the literal: the call depends on the app's resource, so it runs once the app is
		// connected; at a preview before that, its result is unknown and nothing is asked (no 404).
		app := codesec.LookupScmAppOutput(ctx, codesec.LookupScmAppOutputArgs{
			DeploymentId: pulumi.String("1001"),
			RequestId:    github.RequestId,
		}, nil)
		ctx.Export("appName", app.ScmName())
		return nil
	})
}
