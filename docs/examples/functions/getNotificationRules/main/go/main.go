package main

import (
	"github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		notificationRules, err := codesec.GetNotificationRules(ctx, &codesec.GetNotificationRulesArgs{
			DeploymentId: "1001",
			Limit:        pulumi.IntRef(20),
		}, nil)
		if err != nil {
			return err
		}
		var forResult0 []string
		for _, rule := range notificationRules.RulesWithProblems {
			forResult0 = append(forResult0, rule.Name)
		}
		ctx.Export("rulesWithProblems", pulumi.ToStringArray(forResult0))
		var forResult1 []string
		for _, rule := range notificationRules.Rules {
			if rule.ConfigError != "" {
				forResult1 = append(forResult1, rule.Name)
			}
		}
		ctx.Export("misconfiguredRules", pulumi.ToStringArray(forResult1))
		return nil
	})
}
