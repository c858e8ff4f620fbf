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
		// roleOnDestroy: demoted again by `pulumi destroy`.
		_, err := codesec.NewUserRole(ctx, "member-502", &codesec.UserRoleArgs{
			DeploymentId:  pulumi.String("1001"),
			UserId:        pulumi.String("502"),
			Role:          codesec.OrgRoleAdmin,
			RoleOnDestroy: codesec.OrgRoleMember,
		})
		if err != nil {
			return err
		}
		// Project 7005 is a local-scan project: no repository to write a workflow into.
		ci, err := codesec.NewWorkflowProvisioning(ctx, "ci", &codesec.WorkflowProvisioningArgs{
			DeploymentId: pulumi.String("1001"),
			Filters: &codesec.ProvisionFiltersArgs{
				CodeAccess: pulumi.Bool(true),
				Archived:   pulumi.Bool(false),
				Setup:      pulumi.Bool(true),
			},
			ExcludeIds: pulumi.StringArray(pulumi.StringArray{
				pulumi.String(pulumi.String("7005")),
			}),
			GhaOptions: &codesec.GhaOptionsArgs{
				PrEnabled:   pulumi.Bool(true),
				PushEnabled: pulumi.Bool(true),
				PushBranches: pulumi.StringArray{
					pulumi.String("main"),
				},
			},
		})
		if err != nil {
			return err
		}
		_, err = codesec.NewScmWebhookSubscription(ctx, "hooks", &codesec.ScmWebhookSubscriptionArgs{
			DeploymentId: pulumi.String("1001"),
			ConfigId:     pulumi.String("scmcfg-1001-a"),
		})
		if err != nil {
			return err
		}
		github, err := codesec.NewScmApp(ctx, "github", &codesec.ScmAppArgs{
			DeploymentId: pulumi.String("1001"),
			RequestId:    pulumi.String("apprq-1001-a"),
			Code:         scmAppCode,
		})
		if err != nil {
			return err
		}
		notificationRules, err := codesec.GetNotificationRules(ctx, &codesec.GetNotificationRulesArgs{
			DeploymentId: "1001",
		}, nil)
		if err != nil {
			return err
		}
		ctx.Export("workflowFiles", ci.RepoFileUrls)
		ctx.Export("appSlug", github.Slug)
		var forResult0 []string
		for _, rule := range notificationRules.Rules {
			if rule.ConfigError != "" {
				forResult0 = append(forResult0, rule.Name)
			}
		}
		ctx.Export("misconfiguredRules", pulumi.ToStringArray(forResult0))
		return nil
	})
}
