package main

import (
	"github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		branch, err := codesec.GetBranch(ctx, &codesec.GetBranchArgs{
			DeploymentId: "1001",
			ProjectId:    "7001",
			BranchId:     "9101",
		}, nil)
		if err != nil {
			return err
		}
		ctx.Export("branchName", pulumi.String(branch.Name))
		return nil
	})
}
