package main

import (
	"github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		hooks, err := codesec.NewScmWebhookSubscription(ctx, "github-hooks", &codesec.ScmWebhookSubscriptionArgs{
			DeploymentId: pulumi.String("1001"),
			ConfigId:     pulumi.String("scmcfg-1001-a"),
		})
		if err != nil {
			return err
		}
		ctx.Export("subscribedEvents", hooks.Events)
		return nil
	})
}
