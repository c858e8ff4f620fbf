package main

import (
	"github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
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
				PrEnabled:      pulumi.Bool(true),
				PrSendComments: pulumi.Bool(true),
				PushEnabled:    pulumi.Bool(true),
				PushBranches: pulumi.StringArray{
					pulumi.String("main"),
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("workflowFiles", ci.RepoFileUrls)
		return nil
	})
}
