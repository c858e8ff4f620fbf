/**
 * Program-level test of examples/org-config with Pulumi's runtime mocks: the resources it declares (type
 * tokens, count, inputs from stack config), the secrecy of its one-time code, and its stack outputs.
 *
 * The mocks stand in for the engine and the dynamic providers; the data-source functions are not Pulumi
 * invokes but HTTP calls, so they reach a real emulator (credentials from stack config `codesec:*`).
 */
import { expect } from "chai";
import { RESOURCE_DEFINITIONS, type ResourceKind } from "../../provider/resources/registry";
import { secretFields, type ResourceDefinition } from "../../provider/resources/definition";
import * as pulumi from "@pulumi/pulumi";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { callApi, useEmulator } from "../support/emulator";

const EXAMPLE_DIR = path.resolve(__dirname, "../../examples/org-config");
/** The project name, as Pulumi.yaml declares it (config keys of the example are namespaced by it). */
const PROJECT = /^name:\s*(\S+)\s*$/m.exec(readFileSync(path.join(EXAMPLE_DIR, "Pulumi.yaml"), "utf8"))![1];
const TYPE = (kind: string) => `pulumi-nodejs:dynamic/codesec:${kind}`;

interface Registered {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

/** The value of an Output (all are known under mocks outside preview). */
/** The secret outputs a resource declares (only custom resources have the option). */
function secretOutputsOf(opts: pulumi.ResourceOptions | undefined): string[] | undefined {
  return opts && "additionalSecretOutputs" in opts ? (opts.additionalSecretOutputs as string[]) : undefined;
}

function valueOf<T>(output: pulumi.Input<T>): Promise<T> {
  return new Promise((resolve) => pulumi.output(output).apply((v) => resolve(v as T)));
}

/** Whether a value the mock monitor received is a secret (the engine would encrypt it in the state). */
function isSecretInput(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<string, unknown>)[pulumi.runtime.specialSigKey] === pulumi.runtime.specialSecretSig
  );
}

/** Outputs a dynamic provider would add on create, so the program's outputs resolve as they would. */
function plausibleOutputs(type: string, inputs: Record<string, unknown>): Record<string, unknown> {
  switch (type) {
    case TYPE("WorkflowProvisioning"):
      return {
        repoFileUrls: {
          "7001": "https://scm.example.test/acme/payments-api/blob/main/.github/workflows/codesec.yml",
        },
        errors: [],
      };
    case TYPE("ScmWebhookSubscription"):
      return { scmUrl: "https://scm.example.test", events: ["pull_request", "push"] };
    case TYPE("ScmApp"): {
      const app = { id: "scmapp-mock", slug: "mock-app", requestId: inputs.requestId, scmName: "mock" };
      return { scmAppId: app.id, slug: app.slug, scmName: app.scmName, appliedApp: app };
    }
    default:
      return {};
  }
}

describe("examples/org-config (runtime mocks)", function () {
  const emulator = useEmulator();
  let registered: Registered[] = [];
  let declared = new Map<string, pulumi.ResourceTransformationArgs>();

  /**
   * Runs the example's program with the given project config inside a root stack resource, as `pulumi up`
   * runs it (no preview), and resolves to its stack outputs (plain values).
   */
  async function runExample(
    config: Record<string, string>,
    secretKeys: string[] = [],
  ): Promise<Record<string, unknown>> {
    registered = [];
    declared = new Map();
    await pulumi.runtime.setMocks(
      {
        newResource(args: pulumi.runtime.MockResourceArgs) {
          const inputs = args.inputs as Record<string, unknown>;
          registered.push({ type: args.type, name: args.name, inputs });
          return {
            id: `${args.name}-id`,
            state: { ...inputs, ...plausibleOutputs(args.type, inputs) },
          };
        },
        call(args: pulumi.runtime.MockCallArgs) {
          throw new Error(`the example made a Pulumi invoke (${args.token}); its functions call HTTP`);
        },
      },
      PROJECT,
      "test",
      false,
    );
    const namespaced = Object.fromEntries(Object.entries(config).map(([k, v]) => [`${PROJECT}:${k}`, v]));
    pulumi.runtime.setAllConfig(
      { "codesec:baseUrl": emulator().baseUrl, "codesec:token": emulator().apiToken, ...namespaced },
      ["codesec:token", ...secretKeys.map((k) => `${PROJECT}:${k}`)],
    );
    const program = require(EXAMPLE_DIR) as () => Record<string, unknown>;
    const outputs = await pulumi.runtime.runInPulumiStack(async () => {
      // Sees each resource object and its options as the program declares it.
      pulumi.runtime.registerStackTransformation((args) => {
        declared.set(args.name, args);
        return undefined;
      });
      return program();
    });
    const values: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(outputs ?? {})) values[key] = await valueOf(value);
    return values;
  }

  function ofType(kind: string): Registered[] {
    return registered.filter((r) => r.type === TYPE(kind));
  }

  before(() => {
    // A node_modules inside the example (after an `npm install` there) would bring a second copy of
    // @pulumi/pulumi that these mocks do not reach.
    const theirs = require.resolve("@pulumi/pulumi", { paths: [EXAMPLE_DIR] });
    expect(theirs, "examples/org-config must use the repository's @pulumi/pulumi").to.equal(
      require.resolve("@pulumi/pulumi"),
    );
  });

  after(() => {
    pulumi.runtime.setAllConfig({});
  });

  it("with the default config declares six resources that match the emulator's fixtures", async () => {
    const values = await runExample({});
    const state = emulator().control.state();

    expect(registered.map((r) => r.type).sort()).to.deep.equal(
      [
        "pulumi:pulumi:Stack",
        TYPE("ScmApp"),
        TYPE("ScmWebhookSubscription"),
        TYPE("UserRole"),
        TYPE("UserRole"),
        TYPE("UserRole"),
        TYPE("WorkflowProvisioning"),
      ].sort(),
    );
    const resources = registered.filter((r) => r.type.startsWith(TYPE("")));
    for (const r of resources) {
      expect(r.inputs.deploymentId, `${r.name} deploymentId`).to.equal("1001");
      expect(r.inputs.__provider, `${r.name} is a dynamic resource`).to.be.a("string");
      // Credentials come from stack config at run time; never stored with the resource.
      expect(r.inputs, `${r.name} inputs`).not.to.have.property("connection");
      // An SCM app's one-time code is a declared secret output, as its definition says; a connection is one
      // only when it holds a token (an object), so with none given it is not (provider.connectionSecrecy).
      const kind = r.type.slice(TYPE("").length) as ResourceKind;
      const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
      const alwaysSecret = secretFields(definition).filter(
        (name) => definition.inputs[name]?.secret === true,
      );
      const secretOutputs = secretOutputsOf(declared.get(r.name)?.opts);
      expect(secretOutputs, `${r.name} secret outputs`).to.include.members(alwaysSecret);
      expect(secretOutputs, `${r.name} secret outputs`).not.to.include("connection");
      expect(secretFields(definition)).to.include("connection");
    }

    const roles = ofType("UserRole").map((r) => ({
      name: r.name,
      userId: r.inputs.userId,
      role: r.inputs.role,
      roleOnDestroy: r.inputs.roleOnDestroy,
    }));
    expect(roles).to.deep.equal([
      { name: "role-501", userId: "501", role: "ORG_ROLE_ADMIN", roleOnDestroy: undefined },
      { name: "role-502", userId: "502", role: "ORG_ROLE_ADMIN", roleOnDestroy: "ORG_ROLE_MEMBER" },
      { name: "role-503", userId: "503", role: "ORG_ROLE_MEMBER", roleOnDestroy: "ORG_ROLE_READONLY" },
    ]);
    // Every user of the defaults is a member of the fixtures' deployment.
    for (const { userId } of roles) {
      expect(state.users.find((u) => u.id === userId)?.roles, `user ${String(userId)}`).to.have.property(
        "1001",
      );
    }

    const [ci] = ofType("WorkflowProvisioning");
    expect(ci.name).to.equal("ci-workflow");
    expect(ci.inputs.filters).to.deep.equal({ codeAccess: true, archived: false, isScmRepository: true });
    expect(ci.inputs.ghaOptions).to.deep.equal({
      prEnabled: true,
      prSendComments: true,
      pushEnabled: true,
      pushBranches: ["main"],
    });
    expect(ci.inputs).not.to.have.property("excludeIds");
    expect(ci.inputs).not.to.have.property("triggers");

    const [hooks] = ofType("ScmWebhookSubscription");
    expect(hooks.inputs.configId).to.equal("scmcfg-1001-a");
    const [app] = ofType("ScmApp");
    expect(app.inputs.requestId).to.equal("apprq-1001-done");
    expect(app.inputs, "without scmAppCode the app is adopted").not.to.have.property("code");

    expect(Object.keys(values).sort()).to.deep.equal(
      [
        "currentUser",
        "deploymentId",
        "latestScan",
        "notificationRuleProblems",
        "scmApp",
        "teamRoles",
        "webhookEvents",
        "workflowFiles",
      ].sort(),
    );
    expect(values.deploymentId).to.equal("1001");
    expect(values.teamRoles).to.deep.equal({
      "501": "ORG_ROLE_ADMIN",
      "502": "ORG_ROLE_ADMIN",
      "503": "ORG_ROLE_MEMBER",
    });
    expect(values.workflowFiles).to.deep.equal(
      plausibleOutputs(TYPE("WorkflowProvisioning"), {}).repoFileUrls,
    );
    expect(values.webhookEvents).to.deep.equal(["pull_request", "push"]);
    // From the data sources, i.e. from the emulator.
    expect(values.currentUser).to.deep.equal({ id: "501", login: "ada-admin", orgRole: "ORG_ROLE_ADMIN" });
    expect(values.latestScan).to.deep.equal({
      id: "3001",
      status: "SCAN_STATUS_COMPLETED",
      projectId: "7001",
      branch: "refs/heads/main",
      findings: 7,
    });
    expect(values.scmApp).to.deep.equal({
      slug: "codesec-acme-legacy",
      scmName: "acme-legacy",
      codeAccess: true,
      baseUrl: "https://scm.example.test",
    });
    const expectedProblems = state.notificationRules
      .filter((r) => r.deploymentId === "1001" && (r.config_error !== "" || !r.is_enabled))
      .map((r) => r.id);
    expect(expectedProblems).to.deep.equal([4, 5]);
    expect(values.notificationRuleProblems).to.deep.equal([
      { id: 4, name: "old-slack", channel: "slack", problem: "disabled" },
      {
        id: 5,
        name: "broken-webhook",
        channel: "webhook",
        problem: "webhook endpoint answered 404 Not Found",
      },
    ]);
  });

  it("takes roles, filters, the webhook configuration and a secret SCM app code from stack config", async () => {
    const code = emulator().sample.scmAppCode;
    // The provider would complete the request on create; under mocks nothing does, so do it here for
    // the data source that reads the connected app.
    const completed = await callApi(emulator(), "PUT", "/api/scm/app_request_complete", {
      body: { requestId: "apprq-1001-a", code },
    });
    expect(completed.status).to.equal(200);

    const values = await runExample(
      {
        // Numbers, as `pulumi config set --path 'teamRoles[0].userId' 502` stores them.
        teamRoles: JSON.stringify([
          { userId: 502, role: "ORG_ROLE_READONLY" },
          { userId: "504", role: "ORG_ROLE_MEMBER", roleOnDestroy: "ORG_ROLE_IMPERSONATOR" },
        ]),
        workflowFilters: JSON.stringify({ search: "payments", tagId: 11 }),
        workflowExcludeIds: JSON.stringify(["7002"]),
        ghaOptions: JSON.stringify({ prEnabled: true, cronEnabled: true }),
        workflowRevision: "2026-11",
        scmConfigId: "scmcfg-1001-b",
        webhookRevision: "2",
        scmAppRequestId: "apprq-1001-a",
        scmAppCode: code,
        scanId: "3002",
      },
      ["scmAppCode"],
    );

    const roles = ofType("UserRole").map((r) => [
      r.name,
      r.inputs.userId,
      r.inputs.role,
      r.inputs.roleOnDestroy,
    ]);
    expect(roles).to.deep.equal([
      ["role-502", "502", "ORG_ROLE_READONLY", undefined],
      ["role-504", "504", "ORG_ROLE_MEMBER", "ORG_ROLE_IMPERSONATOR"],
    ]);
    const [ci] = ofType("WorkflowProvisioning");
    expect(ci.inputs.filters).to.deep.equal({ search: "payments", tagId: 11 });
    expect(ci.inputs.excludeIds).to.deep.equal(["7002"]);
    expect(ci.inputs.ghaOptions).to.deep.equal({ prEnabled: true, cronEnabled: true });
    expect(ci.inputs.triggers).to.equal("2026-11");
    const [hooks] = ofType("ScmWebhookSubscription");
    expect(hooks.inputs.configId).to.equal("scmcfg-1001-b");
    expect(hooks.inputs.triggers).to.equal("2");

    const [app] = ofType("ScmApp");
    expect(app.inputs.requestId).to.equal("apprq-1001-a");
    expect(isSecretInput(app.inputs.code), "code reaches the engine as a secret input").to.equal(true);
    expect((app.inputs.code as { value: unknown }).value).to.equal(code);
    const appResource = declared.get("scm-app")!.resource as unknown as Record<
      string,
      pulumi.Output<unknown>
    >;
    expect(await pulumi.isSecret(appResource.code), "the code output is secret").to.equal(true);
    // No other input carries the code, and no credential or code is plaintext anywhere.
    for (const r of registered) {
      for (const key of ["code", "connection"]) {
        if (key in r.inputs)
          expect(isSecretInput(r.inputs[key]), `${r.name}.${key} is secret`).to.equal(true);
      }
      expect(JSON.stringify({ ...r.inputs, code: undefined }), `${r.name} inputs`).not.to.include(code);
    }
    expect(JSON.stringify(values), "stack outputs").not.to.include(code);

    expect(values.teamRoles).to.deep.equal({ "502": "ORG_ROLE_READONLY", "504": "ORG_ROLE_MEMBER" });
    expect(values.scmApp).to.include({ slug: "codesec-acme", scmName: "acme" });
    expect(values.latestScan).to.deep.equal({
      id: "3002",
      status: "SCAN_STATUS_RUNNING",
      projectId: "7002",
      branch: "refs/heads/main",
      findings: 0,
    });
  });

  it("refuses a teamRoles entry without a userId, or a user listed twice, naming the entry", async () => {
    let error: Error | undefined;
    await runExample({ teamRoles: JSON.stringify([{ role: "ORG_ROLE_ADMIN" }]) }).catch(
      (e: Error) => (error = e),
    );
    expect(error).to.be.instanceOf(pulumi.RunError);
    expect(error!.message).to.include("teamRoles[0] needs a userId and a role");

    error = undefined;
    await runExample({
      teamRoles: JSON.stringify([
        { userId: "502", role: "ORG_ROLE_ADMIN" },
        { userId: 502, role: "ORG_ROLE_MEMBER" },
      ]),
    }).catch((e: Error) => (error = e));
    expect(error).to.be.instanceOf(pulumi.RunError);
    expect(error!.message).to.include("lists user 502 twice");
    expect(
      registered.filter((r) => r.type !== "pulumi:pulumi:Stack"),
      "nothing is declared",
    ).to.deep.equal([]);
  });
});
