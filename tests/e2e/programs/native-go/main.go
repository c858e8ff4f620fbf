// The native provider (pulumi-resource-codesec) through its generated Go SDK (sdk/go): the TypeScript
// program of tests/e2e/programs/native, written as a Go user writes it. Two organizations through explicit
// Provider resources, all four kinds and UserRoles, and the six functions in both forms; the exports have
// the TypeScript program's names, so tests/e2e/nativeLanguages.test.ts asserts the same outcome for every
// language. Its go.mod points the SDK at ../../../../sdk/go; the test's copy points it at the clone's.
package main

import (
	"github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(program)
}

func program(ctx *pulumi.Context) error {
	cfg := config.New(ctx, "e2e")
	baseURL := pulumi.String(cfg.Require("baseUrl"))

	acme, err := codesec.NewProvider(ctx, "acme", &codesec.ProviderArgs{BaseUrl: baseURL, Token: cfg.RequireSecret("acmeToken")})
	if err != nil {
		return err
	}
	globex, err := codesec.NewProvider(ctx, "globex", &codesec.ProviderArgs{BaseUrl: baseURL, Token: cfg.RequireSecret("globexToken")})
	if err != nil {
		return err
	}
	// The admin's own JWT on acme: listing the joinable organizations accepts nothing else.
	acmeJwt, err := codesec.NewProvider(ctx, "acme-jwt", &codesec.ProviderArgs{BaseUrl: baseURL, Token: cfg.RequireSecret("acmeJwt")})
	if err != nil {
		return err
	}

	updateTimeout := cfg.Get("memberUpdateTimeout")
	if updateTimeout == "" {
		updateTimeout = "5m"
	}
	member, err := codesec.NewUserRole(ctx, "member", &codesec.UserRoleArgs{
		DeploymentId:  pulumi.String("1001"),
		UserId:        pulumi.String("502"),
		Role:          codesec.OrgRole(cfg.Require("memberRole")),
		RoleOnDestroy: codesec.OrgRoleMember,
	}, pulumi.Provider(acme), pulumi.Timeouts(&pulumi.CustomTimeouts{Update: updateTimeout}))
	if err != nil {
		return err
	}
	ci, err := codesec.NewWorkflowProvisioning(ctx, "ci", &codesec.WorkflowProvisioningArgs{
		DeploymentId: pulumi.String("1001"),
		Filters:      &codesec.ProvisionFiltersArgs{Ids: pulumi.StringArray{pulumi.String("7001"), pulumi.String("7002")}},
		GhaOptions:   &codesec.GhaOptionsArgs{PrEnabled: pulumi.Bool(true)},
	}, pulumi.Provider(acme))
	if err != nil {
		return err
	}
	hooks, err := codesec.NewScmWebhookSubscription(ctx, "hooks", &codesec.ScmWebhookSubscriptionArgs{
		DeploymentId: pulumi.String("1001"),
		ConfigId:     pulumi.String("scmcfg-1001-a"),
	}, pulumi.Provider(acme))
	if err != nil {
		return err
	}
	app, err := codesec.NewScmApp(ctx, "app", &codesec.ScmAppArgs{
		DeploymentId: pulumi.String("1001"),
		RequestId:    pulumi.String("apprq-1001-a"),
		Code:         cfg.RequireSecret("appCode"),
	}, pulumi.Provider(acme))
	if err != nil {
		return err
	}
	// A team's roles as one map.
	team, err := codesec.NewUserRoles(ctx, "team", &codesec.UserRolesArgs{
		DeploymentId:  pulumi.String("1001"),
		Roles:         codesec.OrgRoleMap{"503": codesec.OrgRoleMember, "504": codesec.OrgRoleReadonly},
		RoleOnDestroy: codesec.OrgRoleMember,
	}, pulumi.Provider(acme))
	if err != nil {
		return err
	}
	globexAdmin, err := codesec.NewUserRole(ctx, "globex-admin", &codesec.UserRoleArgs{
		DeploymentId: pulumi.String("2002"),
		UserId:       pulumi.String("601"),
		Role:         codesec.OrgRoleAdmin,
	}, pulumi.Provider(globex))
	if err != nil {
		return err
	}
	globexHooks, err := codesec.NewScmWebhookSubscription(ctx, "globex-hooks", &codesec.ScmWebhookSubscriptionArgs{
		DeploymentId: pulumi.String("2002"),
		ConfigId:     pulumi.String("scmcfg-2002-a"),
	}, pulumi.Provider(globex))
	if err != nil {
		return err
	}

	ctx.Export("memberRole", member.Role)
	ctx.Export("teamRoles", team.Roles)
	ctx.Export("workflowFiles", ci.RepoFileUrls)
	ctx.Export("subscribedEvents", hooks.Events)
	ctx.Export("appSlug", app.Slug)
	ctx.Export("globexRole", globexAdmin.Role)
	ctx.Export("globexEvents", globexHooks.Events)

	// Direct forms (the invoke runs when the program does).
	globexUser, err := codesec.GetCurrentUser(ctx, pulumi.Provider(globex))
	if err != nil {
		return err
	}
	ctx.Export("globexUser", pulumi.String(globexUser.Login))
	scan, err := codesec.GetScan(ctx, &codesec.GetScanArgs{DeploymentId: "1001", ScanId: "3001"}, pulumi.Provider(acme))
	if err != nil {
		return err
	}
	ctx.Export("acmeScan", pulumi.String(scan.Status))
	joinable, err := codesec.GetJoinableOrganizations(ctx, &codesec.GetJoinableOrganizationsArgs{}, pulumi.Provider(acmeJwt))
	if err != nil {
		return err
	}
	orgIds := pulumi.StringArray{}
	for _, org := range joinable.Orgs {
		orgIds = append(orgIds, pulumi.String(org.Id))
	}
	ctx.Export("joinable", orgIds)

	// Output forms.
	ctx.Export("acmeUser", codesec.GetCurrentUserOutput(ctx, pulumi.Provider(acme)).Login())
	ctx.Export("branchName", codesec.GetBranchOutput(ctx, codesec.GetBranchOutputArgs{
		DeploymentId: pulumi.String("1001"),
		ProjectId:    pulumi.String("7001"),
		BranchId:     pulumi.String("9101"),
	}, pulumi.Provider(acme)).Name())
	ctx.Export("appFromFunction", codesec.LookupScmAppOutput(ctx, codesec.LookupScmAppOutputArgs{
		DeploymentId: pulumi.String("1001"),
		RequestId:    app.RequestId,
	}, pulumi.Provider(acme)).Slug())
	rules := codesec.GetNotificationRulesOutput(ctx, codesec.GetNotificationRulesOutputArgs{
		DeploymentId: pulumi.String("1001"),
		Limit:        pulumi.Int(2),
	}, pulumi.Provider(acme))
	ctx.Export("problemRules", rules.RulesWithProblems().ApplyT(func(problems []codesec.NotificationRule) []int {
		ids := make([]int, 0, len(problems))
		for _, rule := range problems {
			ids = append(ids, rule.Id)
		}
		return ids
	}))
	ctx.Export("problemErrors", rules.RulesWithProblems().ApplyT(func(problems []codesec.NotificationRule) []string {
		messages := make([]string, 0, len(problems))
		for _, rule := range problems {
			messages = append(messages, rule.ConfigError)
		}
		return messages
	}))
	return nil
}
