/**
 * The typings and options that make pulumi-codesec read like a generated Pulumi SDK: the runtime enum
 * object `OrgRole`, functions whose arguments are all optional, and Pulumi's invoke options honoured by
 * the functions' Output form (`dependsOn` waits, carries the dependencies, and yields an unknown result
 * at preview while a dependency is yet to be created). Pulumi's runtime mocks stand in for the engine;
 * the functions themselves call a real emulator over HTTP.
 */
import { expect } from "chai";
import {
  scmWebhookSubscriptionProvider,
  userRoleProvider,
  workflowProvisioningProvider,
} from "../support/dynamicProviders";
import * as pulumi from "@pulumi/pulumi";
import * as codesec from "../../provider";
import { ORG_ROLES } from "../../api/schemas/common";
import { useEmulator } from "../support/emulator";
import { configureStack } from "../support/stackConfig";

/** An Output's value, whether it is known, and the resources it depends on. */
async function inspect<T>(output: pulumi.Output<T>): Promise<{ value: T; known: boolean; deps: unknown[] }> {
  // Output's internals, as Pulumi's own tests read them.
  const internal = output as unknown as {
    promise(withUnknowns: boolean): Promise<T>;
    isKnown: Promise<boolean>;
    allResources(): Promise<Set<unknown>>;
  };
  const [value, known, deps] = await Promise.all([
    internal.promise(true),
    internal.isKnown,
    internal.allResources(),
  ]);
  return { value, known, deps: [...deps] };
}

describe("typings like generated Pulumi SDKs", function () {
  const emulator = useEmulator();
  let created: string[] = [];

  async function useMocks(preview: boolean): Promise<void> {
    created = [];
    await pulumi.runtime.setMocks(
      {
        newResource(args: pulumi.runtime.MockResourceArgs) {
          created.push(args.name);
          // At preview a resource yet to be created has no id: the mocks say so with an undefined id.
          return {
            id: preview ? undefined : `${args.name}-id`,
            state: args.inputs as Record<string, unknown>,
          };
        },
        call(args: pulumi.runtime.MockCallArgs) {
          throw new Error(`unexpected Pulumi invoke ${args.token}: codesec's functions call HTTP`);
        },
      },
      "typings",
      "test",
      preview,
    );
    pulumi.runtime.setAllConfig({
      "codesec:baseUrl": emulator().baseUrl,
      "codesec:token": emulator().apiToken,
    });
  }

  after(() => pulumi.runtime.setAllConfig({}));

  describe("OrgRole", () => {
    it("is a runtime object holding the platform's four roles, generated-SDK style", () => {
      expect(codesec.OrgRole.Admin).to.equal("ORG_ROLE_ADMIN");
      expect(codesec.OrgRole.Member).to.equal("ORG_ROLE_MEMBER");
      expect(codesec.OrgRole.Impersonator).to.equal("ORG_ROLE_IMPERSONATOR");
      expect(codesec.OrgRole.Readonly).to.equal("ORG_ROLE_READONLY");
      expect(Object.values(codesec.OrgRole)).to.deep.equal([...ORG_ROLES]);
      expect(Object.isFrozen(codesec.OrgRole)).to.equal(true);
    });

    it("types the role as string | OrgRole, so a role from string config compiles", () => {
      // A compile-time check as much as a runtime one: `cfg.get("role") ?? OrgRole.Admin` is a string.
      const fromConfig: string = ["ORG_ROLE_MEMBER"][0];
      const args: codesec.UserRoleArgs = { deploymentId: "1001", userId: "u", role: fromConfig };
      const role: codesec.OrgRole = codesec.OrgRole.Readonly;
      expect([args.role, role]).to.deep.equal(["ORG_ROLE_MEMBER", "ORG_ROLE_READONLY"]);
    });
  });

  describe("functions' Output form", () => {
    it("takes no arguments when all of them are optional", async () => {
      await useMocks(false);
      const me = await inspect(codesec.getCurrentUserOutput());
      expect(me.known).to.equal(true);
      expect(me.value.id).to.equal(emulator().sample.userId);
      const result: codesec.GetCurrentUserResult = await codesec.getCurrentUser();
      expect(result.id).to.equal(emulator().sample.userId);
    });

    it("with dependsOn waits for the resources and carries them as dependencies", async () => {
      await useMocks(false);
      const role = new codesec.UserRole("dep", {
        deploymentId: "1001",
        userId: emulator().sample.memberUserId,
        role: codesec.OrgRole.Member,
      });
      const scan = codesec.getScanOutput(
        { deploymentId: "1001", scanId: emulator().sample.scanId },
        { dependsOn: [role] },
      );
      const seen = await inspect(scan);
      expect(seen.known).to.equal(true);
      expect(seen.value.id).to.equal(emulator().sample.scanId);
      expect(seen.deps).to.include(role);
    });

    it("at preview, while a dependency is yet to be created, is unknown and calls nothing", async () => {
      await useMocks(true);
      const role = new codesec.UserRole("pending", {
        deploymentId: "1001",
        userId: emulator().sample.memberUserId,
        role: "ORG_ROLE_MEMBER",
      });
      emulator().control.clearRequests();
      const me = await inspect(codesec.getCurrentUserOutput({}, { dependsOn: role }));
      expect(me.known).to.equal(false);
      expect(me.deps).to.include(role);
      expect(
        emulator()
          .control.requests()
          .map((r) => r.operation),
      ).to.deep.equal([]);
    });

    it("accepts parent (components pass { parent: this }) and still uses the stack's connection", async () => {
      await useMocks(false);
      const parent = new pulumi.ComponentResource("test:index:Component", "component");
      const me = await inspect(codesec.getCurrentUserOutput({}, { parent }));
      expect(me.value.id).to.equal(emulator().sample.userId);
      expect(created).to.include("component");
    });
  });
});

describe("lookups by id (static get)", function () {
  const emulator = useEmulator();

  before(async () => {
    await configureStack({ "codesec:baseUrl": emulator().baseUrl, "codesec:token": emulator().apiToken });
  });

  // What the engine hands read() for X.get(name, id): the stub and nothing else.
  const lookup = { __provider: "stub" };

  it("UserRole.get yields the credentials' own user's role", async () => {
    const { userId } = emulator().sample;
    const result = await userRoleProvider.read(`1001/${userId}`, lookup as never);
    expect(result.props).to.include({ deploymentId: "1001", userId, role: "ORG_ROLE_ADMIN" });
  });

  it("UserRole.get refuses another user, whose role the platform cannot read", async () => {
    const error = await userRoleProvider
      .read(`1001/${emulator().sample.memberUserId}`, lookup as never)
      .catch((e: Error) => e);
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message)
      .to.include("cannot be looked up by id")
      .and.include("get the current user");
  });

  it("state-only kinds refuse a lookup, saying the platform cannot read them back", async () => {
    for (const provider of [workflowProvisioningProvider, scmWebhookSubscriptionProvider]) {
      const error = await provider.read("1001/anything", lookup as never).catch((e: Error) => e);
      expect(error).to.be.instanceOf(Error);
      expect((error as Error).message)
        .to.include("cannot be looked up by id")
        .and.include("no operation that reads");
    }
    // A refresh (a stored state) still keeps the state as it is, calling nothing.
    const state = { deploymentId: "1001", configId: "c", triggers: 1, platform: emulator().baseUrl };
    expect((await scmWebhookSubscriptionProvider.read("1001/c", state as never)).props).to.deep.equal(state);
  });
});
