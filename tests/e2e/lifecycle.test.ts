import { expect } from "chai";
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import type { OperationKey } from "../../api/operations";
import { roleOf, writes } from "../support/emulator";
import {
  createStack,
  existsSync,
  exportStackAsStored,
  installedModules,
  packedPackage,
  prepareProgram,
  requirePulumiCli,
  scratchDir,
  stateResource,
  stateResources,
  timeLimitFor,
  useModules,
  variantPackage,
} from "./support/harness";
import { pinnedLegacyStub, pinnedShortStub } from "../support/serializeStub";
import type { ResourceKind } from "../../provider/dynamic";

const PROGRAM = path.join(__dirname, "programs/lifecycle");

function callsOf(emulator: EmulatorHandle, operation: OperationKey): number {
  return emulator.control.requests().filter((r) => r.operation === operation).length;
}

function baseConfig(emulator: EmulatorHandle): ConfigMap {
  const s = emulator.sample;
  return {
    "codesec:baseUrl": { value: emulator.baseUrl },
    "codesec:token": { value: emulator.apiToken, secret: true },
    "e2e:deploymentId": { value: emulator.deploymentId },
    "e2e:memberUserId": { value: s.memberUserId },
    "e2e:memberRole": { value: "ORG_ROLE_READONLY" },
    "e2e:projectIds": { value: JSON.stringify([s.projectId, "7002"]) },
    "e2e:scmConfigId": { value: s.scmConfigId },
    "e2e:scmAppRequestId": { value: s.scmAppRequestId },
    "e2e:scmAppCode": { value: s.scmAppCode, secret: true },
    "e2e:userJwt": { value: emulator.jwt, secret: true },
    "e2e:scanId": { value: s.scanId },
    "e2e:projectId": { value: s.projectId },
    "e2e:branchId": { value: s.branchId },
  };
}

describe("lifecycle through the real Pulumi CLI", function () {
  let emulator: EmulatorHandle;
  let stack: Stack;
  let programDir: string;
  /** Everything the engine printed, for the secrets check. */
  const printed: string[] = [];
  const onOutput = (out: string) => printed.push(out);

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    emulator = await startEmulator({ quiet: true });
    programDir = prepareProgram(PROGRAM);
    stack = await createStack(programDir, "lifecycle", baseConfig(emulator));
  });

  after(async () => {
    await emulator?.close();
  });

  it("up creates all four resources and calls all six functions", async () => {
    const result = await stack.up({ onOutput });
    expect(result.summary.resourceChanges).to.deep.include({ create: 5 });
    const out = Object.fromEntries(
      Object.entries(result.outputs).map(([k, v]) => [k, v.value as unknown]),
    ) as Record<string, unknown>;
    const state = emulator.control.state();
    const s = emulator.sample;

    expect(out.memberRole).to.equal("ORG_ROLE_READONLY");
    expect(roleOf(emulator, s.memberUserId)).to.equal("ORG_ROLE_READONLY");
    const provisioned = state.projects.filter((p) => p.workflow).map((p) => p.id);
    expect(Object.keys(out.workflowFiles as object).sort())
      .to.deep.equal(provisioned.sort())
      .and.to.include(s.projectId);
    expect(out.provisionErrors).to.deep.equal([]);
    const config = state.scmConfigurations.find((c) => c.configId === s.scmConfigId)!;
    expect(out.scmUrl).to.equal(config.scmUrl);
    expect(out.subscribedEvents).to.have.length.greaterThan(0);
    const request = state.scmAppRequests.find((r) => r.requestId === s.scmAppRequestId)!;
    expect(request.state).to.equal("completed");
    expect(out.appSlug).to.equal(request.app.slug);
    expect(out.scmAppFromFunction).to.equal(request.app.scmName);
    expect(out.currentUser).to.equal(state.users.find((u) => u.id === s.userId)!.login);
    expect(out.scanStatus).to.equal(state.scans.find((x) => x.id === s.scanId)!.status);
    expect(out.branchName).to.equal(state.branches.find((b) => String(b.id) === s.branchId)!.name);
    const joinable = state.deployments
      .filter((d) => (d.joinableUserIds ?? []).includes(s.userId))
      .map((d) => d.id);
    expect(out.joinableOrgs).to.deep.equal(joinable);
    const problems = state.notificationRules
      .filter((r) => r.deploymentId === emulator.deploymentId && (r.config_error !== "" || !r.is_enabled))
      .map((r) => r.id);
    expect(out.problemRules).to.deep.equal(problems).and.have.length.greaterThan(0);
  });

  it("preview right after shows no changes and makes no mutating call", async () => {
    emulator.control.clearRequests();
    const result = await stack.preview({ onOutput, expectNoChanges: true });
    expect(result.changeSummary).to.deep.equal({ same: 5 });
    expect(writes(emulator)).to.deep.equal([]);
    // An up with no changes calls none either.
    const up = await stack.up({ onOutput });
    expect(up.summary.resourceChanges).to.deep.equal({ same: 5 });
    expect(writes(emulator)).to.deep.equal([]);
  });

  it("a role change is an update of exactly that resource, with one call to `updateUserRole`", async () => {
    await stack.setConfig("e2e:memberRole", { value: "ORG_ROLE_ADMIN" });
    emulator.control.clearRequests();
    const preview = await stack.preview({ onOutput, diff: true });
    expect(preview.changeSummary).to.deep.equal({ same: 4, update: 1 });
    expect(preview.stdout)
      .to.match(/~ pulumi-nodejs:dynamic\/codesec:UserRole: \(update\)/)
      .and.match(/role\s*:\s*"ORG_ROLE_READONLY" => "ORG_ROLE_ADMIN"/);
    expect(writes(emulator)).to.deep.equal([]);
    const up = await stack.up({ onOutput });
    expect(up.summary.resourceChanges).to.deep.equal({ same: 4, update: 1 });
    expect(writes(emulator)).to.deep.equal(["updateUserRole:200"]);
    expect(callsOf(emulator, "updateUserRole")).to.equal(1);
    expect(roleOf(emulator, emulator.sample.memberUserId)).to.equal("ORG_ROLE_ADMIN");
  });

  it("an identity change shows as a replacement", async () => {
    await stack.setConfig("e2e:memberUserId", { value: "503" });
    await stack.setConfig("e2e:scmConfigId", { value: "scmcfg-1001-b" });
    emulator.control.clearRequests();
    const preview = await stack.preview({ onOutput, diff: true });
    expect(preview.changeSummary).to.deep.equal({ same: 3, replace: 2 });
    expect(preview.stdout)
      .to.match(/\+-pulumi-nodejs:dynamic\/codesec:UserRole: \(replace\)/)
      .and.match(/\+-pulumi-nodejs:dynamic\/codesec:ScmWebhookSubscription: \(replace\)/);
    expect(writes(emulator)).to.deep.equal([]);
    await stack.setAllConfig(baseConfig(emulator));
    await stack.setConfig("e2e:memberRole", { value: "ORG_ROLE_ADMIN" });
  });

  it("a bad input fails preview naming the field, before any call", async () => {
    await stack.setConfig("e2e:memberRole", { value: "ORG_ROLE_OWNER" });
    emulator.control.clearRequests();
    let error: Error | undefined;
    await stack.preview({ onOutput }).catch((e: Error) => (error = e));
    expect(error, "preview must fail").to.be.an("error");
    expect(String(error)).to.include("role must be one of ORG_ROLE_ADMIN");
    expect(writes(emulator)).to.deep.equal([]);
    await stack.setConfig("e2e:memberRole", { value: "ORG_ROLE_ADMIN" });
  });

  it("an SCM app changed out of band fails a drift check and shows in refresh", async () => {
    emulator.control.editScmApp(emulator.sample.scmAppRequestId, { scmName: "renamed-in-the-ui" });
    let error: Error | undefined;
    await stack.preview({ onOutput, refresh: true, expectNoChanges: true }).catch((e: Error) => (error = e));
    expect(error, "preview --refresh --expect-no-changes must fail").to.be.an("error");
    expect(String(error)).to.match(/no changes were expected/);

    const refresh = await stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).to.deep.include({ update: 1 });
    const refreshed = await stateResource(stack, "app");
    expect(refreshed.outputs?.scmName).to.equal("renamed-in-the-ui");
    // pulumi up records what the platform now says; then the drift check passes again.
    await stack.up({ onOutput });
    await stack.preview({ onOutput, refresh: true, expectNoChanges: true });
  }).timeout(timeLimitFor(4));

  it("an existing SCM app is adopted (imported) by its id", async () => {
    await stack.setConfig("e2e:importLegacyApp", { value: "true" });
    emulator.control.clearRequests();
    const up = await stack.up({ onOutput });
    expect(up.summary.resourceChanges).to.deep.include({ create: 1 });
    expect(writes(emulator).filter((c) => c.startsWith("completeScmAppRequest"))).to.deep.equal([]);
    const legacy = await stateResource(stack, "legacy");
    expect(legacy.id).to.equal(`${emulator.deploymentId}/apprq-1001-done`);
    expect(legacy.outputs?.slug).to.equal("codesec-acme-legacy");
  });

  it("state and everything the engine printed hold no secret in plaintext; __provider is the short stub", async () => {
    const exported = exportStackAsStored(stack);
    const text = exported + printed.join("");
    const secrets = {
      apiToken: emulator.apiToken,
      jwt: emulator.jwt,
      scmAppCode: emulator.sample.scmAppCode,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      const at = text.indexOf(secret);
      expect(at, `${name} reached the state or the output: ...${text.slice(at - 200, at)}`).to.equal(-1);
    }
    const resources = (JSON.parse(exported) as { deployment: { resources: unknown } }).deployment
      .resources as {
      type: string;
      outputs?: { __provider?: string };
    }[];
    const dynamic = resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/codesec:"));
    expect(dynamic).to.have.length(5);
    for (const r of dynamic) {
      const kind = r.type.split(":").pop()!;
      const stub = r.outputs!.__provider!;
      expect(Buffer.byteLength(stub)).to.be.at.most(1024);
      expect(stub, `${kind} stub`).to.equal(pinnedShortStub(kind as ResourceKind));
    }
  });

  it("destroy applies roleOnDestroy and leaves a clean state", async () => {
    const result = await stack.destroy({ onOutput });
    expect(result.summary.resourceChanges).to.deep.include({ delete: 6 });
    expect(roleOf(emulator, emulator.sample.memberUserId)).to.equal("ORG_ROLE_MEMBER");
    expect(await stateResources(stack)).to.deep.equal([]);
  });
});

/**
 * Rewrites every stored provider (inputs and outputs) to the legacy stub, the text that 0.1.0 to 0.3.0
 * stored, as a stack written by those versions holds it.
 */
async function storeLegacyStubs(stack: Stack): Promise<void> {
  const exported = await stack.exportStack();
  const resources = (exported.deployment as { resources?: StateResourceWithProps[] }).resources ?? [];
  for (const r of resources) {
    const kind = r.type.startsWith("pulumi-nodejs:dynamic/codesec:")
      ? (r.type.split(":").pop() as ResourceKind)
      : undefined;
    if (kind === undefined) continue;
    for (const props of [r.inputs, r.outputs]) {
      if (props?.__provider !== undefined) props.__provider = pinnedLegacyStub(kind);
    }
  }
  await stack.importStack(exported);
  const stored = (await stateResources(stack)).filter((r) =>
    r.type.startsWith("pulumi-nodejs:dynamic/codesec:"),
  );
  expect(stored).to.have.length(4);
  for (const r of stored) {
    expect(r.outputs?.__provider).to.equal(pinnedLegacyStub(r.type.split(":").pop() as ResourceKind));
  }
}

interface StateResourceWithProps {
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

describe("upgrade to a build with a different implementation", function () {
  let emulator: EmulatorHandle;
  let variant: string | undefined;
  /** The other build's node_modules: one install, which both stacks upgrade to in turn. */
  const variantModules = () => (variant ??= installedModules(variantPackage(packedPackage())));

  before(async () => {
    emulator = await startEmulator({ quiet: true });
  });
  after(async () => {
    await emulator?.close();
  });

  for (const storedBy of ["0.4.0", "0.1.0 to 0.3.0"] as const) {
    it(`shows no diff, and the new build refreshes and destroys what ${storedBy} created`, async () => {
      const programDir = prepareProgram(PROGRAM);
      const marker = path.join(scratchDir("marker"), "calls.log");
      const stack = await createStack(programDir, `upgrade-${storedBy.split(" ")[0]}`, baseConfig(emulator), {
        CODESEC_E2E_MARKER: marker,
      });
      await stack.up();
      if (storedBy === "0.1.0 to 0.3.0") await storeLegacyStubs(stack);
      const before = await stateResources(stack);

      useModules(programDir, variantModules());
      emulator.control.clearRequests();
      const preview = await stack.preview({ expectNoChanges: true });
      expect(preview.changeSummary).to.deep.equal({ same: 5 });
      expect(writes(emulator)).to.deep.equal([]);
      expect(readFileSync(marker, "utf8"), "the new build's implementation ran the diff").to.match(
        /UserRole diff/,
      );

      const refresh = await stack.refresh();
      expect(refresh.summary.resourceChanges).to.deep.equal({ same: 5 });
      expect(readFileSync(marker, "utf8")).to.match(/ScmApp read/);
      const providersBefore = JSON.stringify(before.map((r) => r.outputs?.__provider));
      const after = await stateResources(stack);
      const providersAfter = JSON.stringify(after.map((r) => r.outputs?.__provider));
      expect(providersAfter).to.equal(providersBefore);

      await stack.destroy();
      expect(readFileSync(marker, "utf8")).to.match(/UserRole delete/);
      expect(roleOf(emulator, emulator.sample.memberUserId)).to.equal("ORG_ROLE_MEMBER");
      expect(existsSync(marker)).to.equal(true);
      // up, preview, refresh, destroy, and (the first time) an install of the other build
    }).timeout(timeLimitFor(6));
  }
});
