package main

import (
	"github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		scan, err := codesec.GetScan(ctx, &codesec.GetScanArgs{
			DeploymentId: "1001",
			ScanId:       "3001",
		}, nil)
		if err != nil {
			return err
		}
		ctx.Export("latestScanStatus", pulumi.String(scan.Status))
		ctx.Export("findings", pulumi.Int(scan.FindingsCounts.Total))
		return nil
	})
}
