/**
 * Moving a stack written by 0.4.0 to the native provider, through the real Pulumi CLI against the emulator.
 *
 * The state is genuine: 0.4.0's own package (tests/e2e/fixtures/pulumi-codesec-0.4.0.tgz, built and packed
 * from the release commit by make-pulumi-codesec-0.4.0.sh beside it) runs the program of
 * tests/e2e/programs/migration (all four kinds of 0.4.0, ScmApp's one-time code a secret) against this
 * run's emulator. Then:
 *
 * - the move: the same resources on the generated Node.js SDK (programs/migration-native), one `pulumi up`:
 *   four updates in place and nothing else (no API write, no replacement, create or delete), no
 *   `__provider` left, the SCM app's code still stored as a secret and in no output;
 * - the trap the SDK's aliases close: without them the engine plans a create and a delete of every
 *   resource, and the delete of the old UserRole applies its roleOnDestroy to the user the new one just set;
 * - the same stack staying on the dynamic classes, upgraded to this package: it keeps working.
 *
 * Each part has an emulator of its own (the SCM app's code can be exchanged once per emulator); the three
 * stacks are written side by side before the first part runs.
 */
import { expect } from "chai";
import { copyFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { partsMadeAtOnce } from "./support/partsAtOnce";
import { roleOf, writes } from "../support/emulator";
import {
  codesecResources,
  createNativeStack,
  createStack,
  exportStackAsStored,
  installedModules,
  installedPluginEnv,
  isSecretEnvelope,
  packedNativeSdk,
  packedPackage,
  prepareProgram,
  requirePulumiCli,
  runPulumi,
  stateResources,
  useModules,
  type StateResource,
} from "./support/harness";

const PROGRAM = path.join(__dirname, "programs/migration");
const NATIVE_PROGRAM = path.join(__dirname, "programs/migration-native");
/** pulumi-codesec 0.4.0 as `npm pack` made it at the release commit (never published to a registry). */
const PACKAGE_0_4_0 = path.join(__dirname, "fixtures/pulumi-codesec-0.4.0.tgz");
const KINDS = ["ScmApp", "ScmWebhookSubscription", "UserRole", "WorkflowProvisioning"];

/** The summary of the move's `pulumi up`: the stack unchanged, the four codesec resources updated in place. */
const MOVE_SUMMARY = { same: 1, update: 4 };

/**
 * A stack of the 0.4.0 program on 0.4.0's package, created by `pulumi up` against `emulator`; with
 * `nativePlugin`, this tree's plugin is installed in its CLI too (createNativeStack), for the move.
 */
async function stackWrittenBy040(
  emulator: EmulatorHandle,
  name: string,
  { nativePlugin }: { nativePlugin: boolean },
): Promise<{ dir: string; stack: Stack }> {
  const dir = prepareProgram(PROGRAM, { tarball: PACKAGE_0_4_0 });
  const config = {
    "codesec:baseUrl": { value: emulator.baseUrl },
    "codesec:token": { value: emulator.apiToken, secret: true },
    "codesec-e2e-migration:scmAppCode": { value: emulator.sample.scmAppCode, secret: true },
  };
  const stack = nativePlugin
    ? await createNativeStack(dir, name, config)
    : await createStack(dir, name, config, installedPluginEnv());
  const up = await stack.up();
  expect(up.summary.resourceChanges).to.deep.equal({ create: 5 });
  return { dir, stack };
}

/**
 * Turns the program folder into the native program (same project, same names) on the packed SDK; with
 * `keeping`, the package the stack was written with stays installed beside it, as in a program that has
 * not removed it yet.
 */
function moveProgramToNative(dir: string, keeping?: string): void {
  rmSync(path.join(dir, "index.ts"));
  rmSync(path.join(dir, "tsconfig.json"));
  for (const file of ["index.js", "package.json", "Pulumi.yaml"]) {
    copyFileSync(path.join(NATIVE_PROGRAM, file), path.join(dir, file));
  }
  useModules(
    dir,
    keeping ? installedModules(packedNativeSdk(), keeping) : installedModules(packedNativeSdk()),
  );
}

/** A part of this file: its emulator, and its stack written by 0.4.0 against it. */
interface Part {
  readonly emulator: EmulatorHandle;
  readonly dir: string;
  readonly stack: Stack;
}

/** An emulator of its own and a stack written by 0.4.0 against it (closed again if the stack fails). */
async function partWrittenBy040(name: string, options: { nativePlugin: boolean }): Promise<Part> {
  const emulator = await startEmulator({ quiet: true });
  try {
    return { emulator, ...(await stackWrittenBy040(emulator, name, options)) };
  } catch (error) {
    await emulator.close();
    throw error;
  }
}

describe("a stack written by 0.4.0", function () {
  before(() => console.log(`      using ${requirePulumiCli()}`));
  const part = partsMadeAtOnce({
    migrate: () => partWrittenBy040("migrate", { nativePlugin: true }),
    trap: () => partWrittenBy040("trap", { nativePlugin: true }),
    stay: () => partWrittenBy040("stay", { nativePlugin: false }),
  });

  describe("moving a stack written by 0.4.0 to the native provider", function () {
    let emulator: EmulatorHandle;
    let stack: Stack;
    let dir: string;

    before(async function () {
      ({ emulator, dir, stack } = await part("migrate"));
      // The state is 0.4.0's whatever the program: each step below runs the native program on it.
      moveProgramToNative(dir);
    });

    it("0.4.0 wrote the stack: four dynamic resources with their __provider, the app's code a secret", async () => {
      const resources = codesecResources(await stateResources(stack));
      expect(resources.map((r) => r.type).sort()).to.deep.equal(
        KINDS.map((k) => `pulumi-nodejs:dynamic/codesec:${k}`),
      );
      for (const resource of resources) {
        expect(resource.outputs?.__provider, resource.urn).to.be.a("string");
        // 0.4.0 recorded no platform (0.5.0 does): this state is 0.4.0's.
        expect(resource.outputs, resource.urn).not.to.have.property("platform");
      }
      expect(exportStackAsStored(stack)).not.to.include(emulator.sample.scmAppCode);
      expect(roleOf(emulator, "502")).to.equal("ORG_ROLE_READONLY");
    });

    it("without the SDK's aliases, the engine would create every resource anew and delete the old ones", async () => {
      await stack.setConfig("e2e:stripAliases", { value: "true" });
      emulator.control.clearRequests();
      const preview = await stack.preview();
      expect(preview.changeSummary).to.include({ create: 4 });
      expect(preview.changeSummary.delete).to.be.at.least(4);
      expect(writes(emulator)).to.deep.equal([]);
      await stack.removeConfig("e2e:stripAliases");
    });

    it("with them, one `pulumi up` moves all four: no write, no replacement, no __provider left", async () => {
      emulator.control.clearRequests();
      const preview = await stack.preview();
      expect(preview.changeSummary).not.to.have.any.keys("create", "delete", "replace", "create-replacement");
      expect(writes(emulator)).to.deep.equal([]);

      const up = await stack.up();
      console.log(`      migration up: ${JSON.stringify(up.summary.resourceChanges)}`);
      // Each of the four is updated in place (its state loses __provider); nothing else happens to them.
      expect(up.summary.resourceChanges).to.deep.equal(MOVE_SUMMARY);
      expect(up.stdout + up.stderr).not.to.include(emulator.sample.scmAppCode);
      expect(writes(emulator)).to.deep.equal([]);
      const resources = await stateResources(stack);
      const codesec = codesecResources(resources);
      expect(codesec.map((r) => r.type).sort()).to.deep.equal(KINDS.map((k) => `codesec:index:${k}`));
      expect(resources.some((r) => r.outputs?.__provider !== undefined)).to.equal(false);
      // The same ids, the same platform objects: nothing was made again.
      expect(codesec.map((r) => r.id).sort()).to.deep.equal(
        ["1001/502", "1001/apprq-1001-a", "1001/scmcfg-1001-a"]
          .concat(codesec.filter((r) => r.type === "codesec:index:WorkflowProvisioning").map((r) => r.id!))
          .sort(),
      );
      expect(exportStackAsStored(stack)).not.to.include(emulator.sample.scmAppCode);
      // The app's code is still stored as a secret (ciphertext), as 0.4.0 stored it (stateResources shows
      // secrets: the state as stored is `pulumi stack export`'s).
      const stored = (
        JSON.parse(exportStackAsStored(stack)) as { deployment: { resources: StateResource[] } }
      ).deployment.resources.find((r) => r.type === "codesec:index:ScmApp")!;
      expect(stored.inputs?.code, "inputs.code").to.satisfy(isSecretEnvelope);
      if (stored.outputs?.code !== undefined) {
        expect(stored.outputs.code, "outputs.code").to.satisfy(isSecretEnvelope);
      }
      expect(roleOf(emulator, "502")).to.equal("ORG_ROLE_READONLY");
    });

    it("after the move: no changes to preview, a refresh with no write, destroy applies roleOnDestroy once", async () => {
      emulator.control.clearRequests();
      await stack.preview({ expectNoChanges: true });
      await stack.refresh();
      expect(writes(emulator)).to.deep.equal([]);
      await stack.destroy();
      expect(writes(emulator)).to.deep.equal(["updateUserRole:200"]);
      expect(roleOf(emulator, "502")).to.equal("ORG_ROLE_MEMBER");
    });
  });

  describe("the trap the aliases close: a move without them demotes the user", function () {
    it("creating the native UserRole and deleting the 0.4.0 one leaves the user with its roleOnDestroy", async () => {
      const { emulator, dir, stack } = await part("trap");
      const old = codesecResources(await stateResources(stack)).find((r) => r.type.endsWith(":UserRole"))!;
      // pulumi-codesec (this version) still installed: without it, the old resource's delete fails, its
      // provider gone. Its own guard (no demotion of a user the run declares) cannot see the native resource.
      moveProgramToNative(dir, packedPackage());
      await stack.setConfig("e2e:stripAliases", { value: "true" });
      emulator.control.clearRequests();
      // Only the UserRole's two steps (the SCM app's code was exchanged by 0.4.0 and cannot be again).
      const newUrn = old.urn.replace("pulumi-nodejs:dynamic/codesec:UserRole", "codesec:index:UserRole");
      const { code, output } = await runPulumi(
        stack,
        ["up", "--yes", "--skip-preview", "--target", newUrn, "--target", old.urn],
        `migration-trap-${process.pid}`,
      );
      expect(code, output).to.equal(0);
      expect(output)
        .to.match(/\+ 1 created/)
        .and.match(/- 1 deleted/);
      // The new resource set the role, then the old one's delete applied its roleOnDestroy.
      expect(writes(emulator)).to.deep.equal(["updateUserRole:200", "updateUserRole:200"]);
      expect(roleOf(emulator, "502")).to.equal("ORG_ROLE_MEMBER");
      const now = codesecResources(await stateResources(stack)).find((r) => r.urn === newUrn)!;
      expect(now.outputs?.role).to.equal("ORG_ROLE_READONLY");
    });
  });

  describe("the same 0.4.0 stack staying on the dynamic resources, upgraded to this package", function () {
    it("compiles and runs unchanged: up with no write or replacement, then no changes, then destroy", async () => {
      const { emulator, dir, stack } = await part("stay");
      useModules(dir, installedModules(packedPackage()));
      emulator.control.clearRequests();
      const up = await stack.up();
      console.log(`      upgrade up: ${JSON.stringify(up.summary.resourceChanges)}`);
      expect(up.summary.resourceChanges).not.to.have.any.keys(
        "create",
        "delete",
        "replace",
        "create-replacement",
      );
      await stack.preview({ expectNoChanges: true });
      await stack.refresh();
      expect(writes(emulator)).to.deep.equal([]);
      const codesec = codesecResources(await stateResources(stack));
      expect(codesec.map((r) => r.type).sort()).to.deep.equal(
        KINDS.map((k) => `pulumi-nodejs:dynamic/codesec:${k}`),
      );
      await stack.destroy();
      expect(writes(emulator)).to.deep.equal(["updateUserRole:200"]);
      expect(roleOf(emulator, "502")).to.equal("ORG_ROLE_MEMBER");
    });
  });
});
