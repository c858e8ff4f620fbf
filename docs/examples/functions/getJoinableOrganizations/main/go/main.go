package main

import (
	"github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		userJwt := cfg.RequireSecret("userJwt")
		// The JWT's own user (getCurrentUser's id with that provider)
		userId := cfg.Require("userId")
		// The platform accepts only a user JWT for this operation: an explicit provider with one.
		user, err := codesec.NewProvider(ctx, "user", &codesec.ProviderArgs{
			BaseUrl: pulumi.String("https://codesec.example.com"),
			Token:   userJwt,
		})
		if err != nil {
			return err
		}
		joinable, err := codesec.GetJoinableOrganizations(ctx, &codesec.GetJoinableOrganizationsArgs{
			UserId: pulumi.StringRef(userId),
		}, pulumi.Provider(user))
		if err != nil {
			return err
		}
		var forResult0 []string
		for _, org := range joinable.Orgs {
			forResult0 = append(forResult0, org.Slug)
		}
		ctx.Export("joinableOrgs", pulumi.ToStringArray(forResult0))
		return nil
	})
}
