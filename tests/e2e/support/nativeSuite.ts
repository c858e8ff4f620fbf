/**
 * The native provider's end-to-end scenario, one for every language with a generated SDK: a program
 * (tests/e2e/programs/native, native-python, native-go: the same resources and functions, the same export
 * names) through the real Pulumi CLI against the emulator. One stack, few commands: up with two
 * organizations through explicit Provider resources, all four kinds, UserRoles and the six functions; a
 * preview right after (no changes); drift and refresh; an update previewed then applied; `pulumi import`
 * of the caller's own role; destroy. The emulator's writes are counted around every step (a preview never
 * writes), and every language's program makes the same API calls as the TypeScript one for each step
 * (EXPECTED_CALLS). The steps that test the provider rather than the language (customTimeouts, import
 * refusals) run for one language only.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorHandle } from "../../../emulator/index";
import { roleOf, writes } from "../../support/emulator";
import { packageVersion, treeBuildHash } from "../../../scripts/plugin-release";
import {
  createNativeStack,
  exportStackAsStored,
  installedNativePluginDir,
  requirePulumiCli,
  runPulumi,
  scratchDir,
  stateResource,
  stateResources,
  timeLimitFor,
} from "./harness";

/** The globex organization's admin token in the emulator's default fixtures (deployment 2002, user 601). */
export const GLOBEX_TOKEN = "cst_2002_admin_1e8f3b6d0a9c4725";

/** The package's version: the schema's, so the version of the plugin every generated SDK asks for. */
const PACKAGE_VERSION = packageVersion();

/**
 * The API calls of each step, by operation: the TypeScript program's, which every language's must make
 * for the same work (recorded from its run; CODESEC_E2E_PRINT_CALLS=1 prints a run's own).
 */
const EXPECTED_CALLS: Record<"up" | "preview" | "refresh" | "update" | "destroy", Record<string, number>> = {
  // The creations' writes; the reads of the six functions (listNotificationRules pages through two rules
  // at a time) and of the providers' credential checks (getCurrentUser).
  up: {
    completeScmAppRequest: 1,
    getBranch: 1,
    getCurrentUser: 4,
    getScan: 1,
    getScmApp: 1,
    listJoinableOrganizations: 1,
    listNotificationRules: 4,
    provisionWorkflows: 1,
    subscribeScmWebhook: 2,
    updateUserRole: 4,
  },
  preview: {
    getBranch: 1,
    getCurrentUser: 4,
    getScan: 1,
    getScmApp: 1,
    listJoinableOrganizations: 1,
    listNotificationRules: 4,
  },
  // Only the kinds the platform can read back: the SCM app and the roles of the credentials' own users.
  // Their roles read back equal the state, so no deployment needs confirming (no listNotificationRules).
  refresh: { getCurrentUser: 2, getScmApp: 1 },
  update: {
    getBranch: 1,
    getCurrentUser: 4,
    getScan: 1,
    getScmApp: 1,
    listJoinableOrganizations: 1,
    listNotificationRules: 4,
    updateUserRole: 1,
  },
  destroy: { getCurrentUser: 1, updateUserRole: 3 },
};

/**
 * Asserts a step's calls are exactly the TypeScript program's. The current user (`getCurrentUser`) is read
 * once per connection, shared by the credential check and the getCurrentUser function, and again only after a
 * write of the caller's own role: so the order in which a language's SDK sends registrations and invokes
 * (which Pulumi does not fix) does not change the count.
 */
function expectTypeScriptsCalls(actual: Record<string, number>, step: keyof typeof EXPECTED_CALLS): void {
  expect(actual, `the API calls of the ${step}: as the TypeScript program's`).to.deep.equal(
    EXPECTED_CALLS[step],
  );
}

/** A program of the scenario in one language, ready to run. */
export interface NativeProgram {
  /** The program's folder (a copy the test may change). */
  dir: string;
  /** What its language host needs in the CLI's environment (a Python interpreter, say). */
  env: Record<string, string>;
}

export interface NativeScenario {
  /** The language, as the test titles name it. */
  language: string;
  /** Copies the program and gives it its SDK; run once, in the suite's `before`. */
  prepare(): NativeProgram;
  /** Also run the steps that test the provider, not the language: customTimeouts, import refusals. */
  providerSteps: boolean;
  /**
   * Whether the program's provider resources ask for the plugin at the package's version: a generated
   * SDK's do (respectSchemaVersion); a YAML program has no SDK and asks for none unless it pins one.
   */
  asksPluginVersion?: boolean;
  /** The time limit of a command that runs the program (a first compile included). */
  programRunLimitMs?: number;
}

/** Every API call since the last clearRequests, as `operation` counts (sorted by name). */
function calls(emulator: EmulatorHandle, step?: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const request of emulator.control.requests()) {
    const name = request.operation ?? "unknown";
    counts[name] = (counts[name] ?? 0) + 1;
  }
  const sorted = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
  if (process.env.CODESEC_E2E_PRINT_CALLS === "1")
    console.log(`      calls of ${step}: ${JSON.stringify(sorted)}`);
  return sorted;
}

/** Defines the scenario's mocha suite for one language. */
export function describeNativeProgram(scenario: NativeScenario): void {
  describe(`native provider through the real Pulumi CLI: a ${scenario.language} program`, function () {
    let emulator: EmulatorHandle;
    let stack: Stack;
    const printed: string[] = [];
    const onOutput = (out: string) => printed.push(out);
    const tag = `native-${scenario.language.toLowerCase()}-${process.pid}`;
    const programRun = scenario.programRunLimitMs ?? timeLimitFor(2);

    before(async function () {
      this.timeout(timeLimitFor(2));
      console.log(`      using ${requirePulumiCli()}`);
      emulator = await startEmulator({ quiet: true });
      const program = scenario.prepare();
      // The plugin as a user installs it: this tree's release archive in the stack's PULUMI_HOME, any
      // pulumi-resource-codesec on PATH ignored.
      stack = await createNativeStack(
        program.dir,
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
        program.env,
      );
    });

    after(async () => {
      await emulator?.close();
    });

    it("the plugin the CLI runs is the one built from this tree: its version and the hash of these sources", () => {
      const launcher = path.join(installedNativePluginDir(stack), "pulumi-resource-codesec");
      const info = JSON.parse(execFileSync(launcher, ["--build-info"], { encoding: "utf8" })) as unknown;
      expect(info).to.deep.equal({ version: packageVersion(), build: treeBuildHash() });
    });

    it("up: two organizations through explicit providers, all four kinds, the six functions", async function () {
      this.timeout(programRun);
      emulator.control.clearRequests();
      const result = await stack.up({ onOutput });
      expect(result.summary.resourceChanges).to.deep.equal({ create: 11 });
      const upCalls = calls(emulator, "up");
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
      // The schema's camelCase name (Python's config_error, Go's ConfigError), renamed by the plugin.
      expect(out.problemErrors).to.include("webhook endpoint answered 404 Not Found");
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
      // The SDK asked for the plugin version it was generated for (the schema's, package.json's).
      const providers = resources.filter((r) => r.type === "pulumi:providers:codesec");
      expect(providers.map((r) => r.inputs?.version)).to.deep.equal(
        providers.map(() => (scenario.asksPluginVersion === false ? undefined : PACKAGE_VERSION)),
      );
      expect(resources.some((r) => r.outputs?.__provider !== undefined)).to.equal(false);
      const stored = exportStackAsStored(stack);
      for (const secret of [emulator.apiToken, emulator.jwt, GLOBEX_TOKEN, emulator.sample.scmAppCode]) {
        expect(stored).not.to.include(secret);
      }
      expectTypeScriptsCalls(upCalls, "up");
    });

    it("preview right after: no changes, no write", async function () {
      this.timeout(programRun);
      emulator.control.clearRequests();
      const preview = await stack.preview({ onOutput, expectNoChanges: true });
      expect(preview.changeSummary).to.deep.equal({ same: 11 });
      expect(writes(emulator)).to.deep.equal([]);
      const previewCalls = calls(emulator, "preview");
      expectTypeScriptsCalls(previewCalls, "preview");
    });

    it("drift: an SCM app changed on the platform shows in refresh, with no write", async () => {
      emulator.control.editScmApp("apprq-1001-a", { scmName: "renamed-in-the-ui" });
      emulator.control.clearRequests();
      const refresh = await stack.refresh({ onOutput });
      expect(refresh.summary.resourceChanges).to.deep.include({ update: 1 });
      expect((await stateResource(stack, "app")).outputs?.scmName).to.equal("renamed-in-the-ui");
      expect(writes(emulator)).to.deep.equal([]);
      const refreshCalls = calls(emulator, "refresh");
      expectTypeScriptsCalls(refreshCalls, "refresh");
    });

    it("an update: preview --diff shows the property's change and writes nothing; up makes one write", async function () {
      this.timeout(2 * programRun);
      await stack.setConfig("e2e:memberRole", { value: "ORG_ROLE_ADMIN" });
      emulator.control.clearRequests();
      const preview = await stack.preview({ onOutput, diff: true });
      expect(preview.stdout)
        .to.match(/~ codesec:index:UserRole: \(update\)/)
        .and.match(/~ role\s*:\s*"ORG_ROLE_READONLY" => "ORG_ROLE_ADMIN"/);
      expect(writes(emulator)).to.deep.equal([]);
      emulator.control.clearRequests();
      const up = await stack.up({ onOutput });
      // The SCM app records the drift refresh read, with no call.
      expect(up.summary.resourceChanges).to.deep.equal({ same: 9, update: 2 });
      expect(writes(emulator)).to.deep.equal(["updateUserRole:200"]);
      const updateCalls = calls(emulator, "update");
      expect(roleOf(emulator, "502")).to.equal("ORG_ROLE_ADMIN");
      expectTypeScriptsCalls(updateCalls, "update");
    });

    if (scenario.providerSteps) {
      it("customTimeouts bound the step: a slow platform fails the update at the resource's timeout", async function () {
        this.timeout(2 * programRun);
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
    }

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
      // --skip-preview: what is asserted is the import itself; its preview would read the same resources first.
      const { code, output } = await runPulumi(
        stack,
        ["import", "--file", file, "--yes", "--skip-preview", "--generate-code=false", "--protect=false"],
        tag,
      );
      expect(code, output).to.equal(0);
      const me = await stateResource(stack, "me");
      expect([me.id, me.outputs?.role]).to.deep.equal(["1001/501", "ORG_ROLE_ADMIN"]);
      const legacy = await stateResource(stack, "legacy");
      expect([legacy.id, legacy.outputs?.slug]).to.deep.equal([
        "1001/apprq-1001-done",
        "codesec-acme-legacy",
      ]);
      expect(legacy.outputs).not.to.have.property("code");
      expect(writes(emulator)).to.deep.equal([]);
      printed.push(output);
    });

    if (scenario.providerSteps) {
      it("pulumi import refuses another user's role, a deployment the credentials do not reach, a kind the platform cannot read and an id with control characters, saying why", async () => {
        const file = path.join(scratchDir("import"), "refused.json");
        const escapeId = "1001/\u001b[31mRED\u001b[0m";
        writeFileSync(
          file,
          JSON.stringify({
            resources: [
              { type: "codesec:index:UserRole", name: "other", id: "1001/502" },
              { type: "codesec:index:UserRole", name: "elsewhere", id: "9999/501" },
              { type: "codesec:index:UserRole", name: "escaped", id: escapeId },
              { type: "codesec:index:WorkflowProvisioning", name: "wp", id: "1001/provisioning" },
            ],
          }),
        );
        const before = (await stateResources(stack)).map((r) => r.urn);
        emulator.control.clearRequests();
        const { code, output } = await runPulumi(
          stack,
          ["import", "--file", file, "--yes", "--skip-preview", "--generate-code=false", "--color", "never"],
          tag,
        );
        expect(code).to.not.equal(0);
        expect(output).to.include("codesec:UserRole 1001/502 cannot be looked up by id or imported");
        expect(output).to.include("user 502 is not that user");
        // The caller's own user, in a deployment the credentials (acme's, 1001) do not reach: both named.
        expect(output).to.include("codesec:UserRole 9999/501 cannot be looked up by id or imported");
        expect(output).to.include(
          "this credential belongs to deployment 1001 and cannot access deployment 9999",
        );
        expect(output).to.include(
          'codesec:WorkflowProvisioning "1001/provisioning" cannot be looked up by id or imported',
        );
        // The id's escape sequences are shown, never sent to the terminal.
        expect(output).to.include('"1001/\\u001b[31mRED\\u001b[0m"');
        expect(output).not.to.include("\u001b");
        expect(output).not.to.match(/\n\s+at .*\.js:\d+/);
        // Nothing was imported: the state holds what it held.
        expect((await stateResources(stack)).map((r) => r.urn)).to.deep.equal(before);
        expect(writes(emulator)).to.deep.equal([]);
      });
    }

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
      const destroyCalls = calls(emulator, "destroy");
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
      expectTypeScriptsCalls(destroyCalls, "destroy");
    });
  });
}
