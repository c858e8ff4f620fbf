/**
 * The native provider through the real Pulumi CLI: the plugin `pulumi-resource-codesec` (this tree's
 * release archive, installed with `pulumi plugin install` into the stack's PULUMI_HOME, any plugin on PATH
 * ignored) and a TypeScript program on the generated Node.js SDK, against the emulator. One stack, few commands: up with two organizations through explicit Provider resources, all
 * four kinds and the six functions; a preview right after (no changes); drift and refresh; an update
 * previewed then applied; a step's customTimeouts; `pulumi import` and its refusals; destroy. The
 * emulator's writes are counted around every preview: a preview never writes.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { OPERATIONS, isMutating } from "../../api/operations";
import { packageVersion, treeBuildHash } from "../../scripts/plugin-release";
import {
  createStack,
  exportStackAsStored,
  installedNativePluginDir,
  installNativePlugin,
  installedPluginEnv,
  packedNativeSdk,
  prepareProgram,
  requirePulumiCli,
  runPulumi,
  scratchDir,
  stateResource,
  stateResources,
} from "./support/harness";

const PROGRAM = path.join(__dirname, "programs/native");
/** The globex organization's admin token in the emulator's default fixtures (deployment 2002, user 601). */
const GLOBEX_TOKEN = "cst_2002_admin_1e8f3b6d0a9c4725";

function writes(emulator: EmulatorHandle): string[] {
  return emulator.control
    .requests()
    .filter((r) => r.operation !== null && isMutating(OPERATIONS[r.operation]))
    .map((r) => `${r.operation}:${r.status}`);
}

function roleOf(emulator: EmulatorHandle, userId: string, deploymentId = "1001"): string | undefined {
  return emulator.control.state().users.find((u) => u.id === userId)?.roles[deploymentId];
}

describe("native provider through the real Pulumi CLI", function () {
  let emulator: EmulatorHandle;
  let stack: Stack;
  const printed: string[] = [];
  const onOutput = (out: string) => printed.push(out);
  const tag = `native-${process.pid}`;

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    const pluginEnv = installedPluginEnv();
    emulator = await startEmulator({ quiet: true });
    const programDir = prepareProgram(PROGRAM, { tarball: packedNativeSdk() });
    stack = await createStack(
      programDir,
      "native",
      {
        // The default provider's, for `pulumi import`; the program's resources use explicit providers.
        "codesec:baseUrl": { value: emulator.baseUrl },
        "codesec:token": { value: emulator.apiToken, secret: true },
        "e2e:baseUrl": { value: emulator.baseUrl },
        "e2e:acmeToken": { value: emulator.apiToken, secret: true },
        "e2e:acmeJwt": { value: emulator.jwt, secret: true },
        "e2e:globexToken": { value: GLOBEX_TOKEN, secret: true },
        "e2e:appCode": { value: emulator.sample.scmAppCode, secret: true },
        "e2e:memberRole": { value: "ORG_ROLE_READONLY" },
      },
      pluginEnv,
    );
    installNativePlugin(stack);
  });

  after(async () => {
    await emulator?.close();
  });

  it("the plugin the CLI runs is the one built from this tree: its version and the hash of these sources", () => {
    const launcher = path.join(installedNativePluginDir(stack), "pulumi-resource-codesec");
    const info = JSON.parse(execFileSync(launcher, ["--build-info"], { encoding: "utf8" })) as unknown;
    expect(info).to.deep.equal({ version: packageVersion(), build: treeBuildHash() });
  });

  it("up: two organizations through explicit providers, all four kinds, the six functions", async () => {
    const result = await stack.up({ onOutput });
    expect(result.summary.resourceChanges).to.deep.equal({ create: 11 });
    const out = Object.fromEntries(Object.entries(result.outputs).map(([k, v]) => [k, v.value as unknown]));
    const state = emulator.control.state();
    expect(out.memberRole).to.equal("ORG_ROLE_READONLY");
    expect(roleOf(emulator, "502")).to.equal("ORG_ROLE_READONLY");
    expect(out.globexRole).to.equal("ORG_ROLE_ADMIN");
    expect(Object.keys(out.workflowFiles as object).sort()).to.deep.equal(["7001", "7002"]);
    expect(out.subscribedEvents).to.have.length.greaterThan(0);
    expect(out.globexEvents).to.have.length.greaterThan(0);
    const request = state.scmAppRequests.find((r) => r.requestId === "apprq-1001-a")!;
    expect(request.state).to.equal("completed");
    expect([out.appSlug, out.appFromFunction]).to.deep.equal([request.app.slug, request.app.slug]);
    // Each provider reached its own organization: acme's user 501, globex's user 601.
    expect(out.acmeUser).to.equal(state.users.find((u) => u.id === "501")!.login);
    expect(out.globexUser).to.equal(state.users.find((u) => u.id === "601")!.login);
    expect(out.acmeScan).to.equal(state.scans.find((s) => s.id === "3001")!.status);
    expect(out.branchName).to.equal("refs/heads/main");
    expect(out.joinable).to.deep.equal(["3003"]);
    expect(out.problemRules).to.have.length.greaterThan(0);
    // The member's role, globex's admin, and the map's two entries.
    expect(writes(emulator).filter((w) => w.startsWith("updateUserRole"))).to.deep.equal([
      "updateUserRole:200",
      "updateUserRole:200",
      "updateUserRole:200",
      "updateUserRole:200",
    ]);
    expect(out.teamRoles).to.deep.equal({ "503": "ORG_ROLE_MEMBER", "504": "ORG_ROLE_READONLY" });
    expect([roleOf(emulator, "503"), roleOf(emulator, "504")]).to.deep.equal([
      "ORG_ROLE_MEMBER",
      "ORG_ROLE_READONLY",
    ]);

    // State: the native types, no dynamic provider's key, the secrets encrypted.
    const resources = await stateResources(stack);
    const kinds = resources.map((r) => r.type).filter((t) => t.startsWith("codesec:"));
    expect([...new Set(kinds)].sort()).to.deep.equal([
      "codesec:index:ScmApp",
      "codesec:index:ScmWebhookSubscription",
      "codesec:index:UserRole",
      "codesec:index:UserRoles",
      "codesec:index:WorkflowProvisioning",
    ]);
    expect(resources.some((r) => r.outputs?.__provider !== undefined)).to.equal(false);
    const stored = exportStackAsStored(stack);
    for (const secret of [emulator.apiToken, emulator.jwt, GLOBEX_TOKEN, emulator.sample.scmAppCode]) {
      expect(stored).not.to.include(secret);
    }
  });

  it("preview right after: no changes, no write", async () => {
    emulator.control.clearRequests();
    const preview = await stack.preview({ onOutput, expectNoChanges: true });
    expect(preview.changeSummary).to.deep.equal({ same: 11 });
    expect(writes(emulator)).to.deep.equal([]);
  });

  it("drift: an SCM app changed on the platform shows in refresh, with no write", async () => {
    emulator.control.editScmApp("apprq-1001-a", { scmName: "renamed-in-the-ui" });
    emulator.control.clearRequests();
    const refresh = await stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).to.deep.include({ update: 1 });
    expect((await stateResource(stack, "app")).outputs?.scmName).to.equal("renamed-in-the-ui");
    expect(writes(emulator)).to.deep.equal([]);
  });

  it("an update: preview --diff shows the property's change and writes nothing; up makes one write", async () => {
    await stack.setConfig("e2e:memberRole", { value: "ORG_ROLE_ADMIN" });
    emulator.control.clearRequests();
    const preview = await stack.preview({ onOutput, diff: true });
    expect(preview.stdout)
      .to.match(/~ codesec:index:UserRole: \(update\)/)
      .and.match(/~ role\s*:\s*"ORG_ROLE_READONLY" => "ORG_ROLE_ADMIN"/);
    expect(writes(emulator)).to.deep.equal([]);
    const up = await stack.up({ onOutput });
    // The SCM app records the drift refresh read, with no call.
    expect(up.summary.resourceChanges).to.deep.equal({ same: 9, update: 2 });
    expect(writes(emulator)).to.deep.equal(["updateUserRole:200"]);
    expect(roleOf(emulator, "502")).to.equal("ORG_ROLE_ADMIN");
  });

  it("customTimeouts bound the step: a slow platform fails the update at the resource's timeout", async () => {
    await stack.setAllConfig({
      "e2e:memberRole": { value: "ORG_ROLE_MEMBER" },
      "e2e:memberUpdateTimeout": { value: "1s" },
    });
    emulator.control.addFault({ operation: "updateUserRole", latencyMs: 5_000, count: 1 });
    const { code, output } = await runPulumi(stack, ["up", "--yes", "--skip-preview"], tag);
    expect(code).to.not.equal(0);
    expect(output).to.match(/deadline/i);
    // It names the limit the user set, not the provider's deadlineMs.
    expect(output).to.include("the resource's customTimeouts (1 s for this step)");
    expect(output).not.to.include("codesec:deadlineMs");
    emulator.control.clearFaults();
    await stack.setAllConfig({
      "e2e:memberRole": { value: "ORG_ROLE_ADMIN" },
      "e2e:memberUpdateTimeout": { value: "5m" },
    });
  });

  it("pulumi import: the caller's own role and a connected SCM app are adopted, with no write", async () => {
    const file = path.join(scratchDir("import"), "import.json");
    writeFileSync(
      file,
      JSON.stringify({
        resources: [
          { type: "codesec:index:UserRole", name: "me", id: "1001/501" },
          { type: "codesec:index:ScmApp", name: "legacy", id: "1001/apprq-1001-done" },
        ],
      }),
    );
    emulator.control.clearRequests();
    const { code, output } = await runPulumi(
      stack,
      ["import", "--file", file, "--yes", "--generate-code=false", "--protect=false"],
      tag,
    );
    expect(code, output).to.equal(0);
    const me = await stateResource(stack, "me");
    expect([me.id, me.outputs?.role]).to.deep.equal(["1001/501", "ORG_ROLE_ADMIN"]);
    const legacy = await stateResource(stack, "legacy");
    expect([legacy.id, legacy.outputs?.slug]).to.deep.equal(["1001/apprq-1001-done", "codesec-acme-legacy"]);
    expect(legacy.outputs).not.to.have.property("code");
    expect(writes(emulator)).to.deep.equal([]);
  });

  it("pulumi import refuses another user's role and a kind the platform cannot read, saying why", async () => {
    const file = path.join(scratchDir("import"), "refused.json");
    writeFileSync(
      file,
      JSON.stringify({
        resources: [
          { type: "codesec:index:UserRole", name: "other", id: "1001/502" },
          { type: "codesec:index:WorkflowProvisioning", name: "wp", id: "1001/provisioning" },
        ],
      }),
    );
    const { code, output } = await runPulumi(
      stack,
      ["import", "--file", file, "--yes", "--generate-code=false"],
      tag,
    );
    expect(code).to.not.equal(0);
    expect(output).to.include("codesec:UserRole 1001/502 cannot be looked up by id or imported");
    expect(output).to.include("user 502 is not that user");
    expect(output).to.include(
      "codesec:WorkflowProvisioning 1001/provisioning cannot be looked up by id or imported",
    );
    expect(output).not.to.match(/\n\s+at .*\.js:\d+/);
  });

  it("destroy: only the roles on destroy write; nothing secret was printed", async () => {
    emulator.control.clearRequests();
    const result = await stack.destroy({ onOutput });
    expect(result.summary.resourceChanges).to.deep.include({ delete: 13 });
    // The member's roleOnDestroy and the map's role on leaving for each of its two users.
    expect(writes(emulator)).to.deep.equal([
      "updateUserRole:200",
      "updateUserRole:200",
      "updateUserRole:200",
    ]);
    expect(roleOf(emulator, "502")).to.equal("ORG_ROLE_MEMBER");
    expect([roleOf(emulator, "503"), roleOf(emulator, "504")]).to.deep.equal([
      "ORG_ROLE_MEMBER",
      "ORG_ROLE_MEMBER",
    ]);
    expect(roleOf(emulator, "501")).to.equal("ORG_ROLE_ADMIN");
    const all = printed.join("");
    for (const secret of [emulator.apiToken, emulator.jwt, GLOBEX_TOKEN, emulator.sample.scmAppCode]) {
      expect(all).not.to.include(secret);
    }
  });
});
