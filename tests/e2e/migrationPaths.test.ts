/**
 * The moves between the dynamic resources and the native provider that tests/e2e/migration.test.ts (a
 * stack written by 0.4.0) does not make, through the real Pulumi CLI against the emulator, counting the
 * emulator's writes around every step. One program (tests/e2e/programs/migration-paths): a `UserRoles` map
 * and an SCM app on the default connection, a UserRole and a webhook subscription of a second
 * organization through the named connection "org2".
 *
 * - dynamic `UserRoles` (new in 0.5.0) to the native one: one `up`, no write, no replacement, nobody
 *   demoted; then a change of one entry is one write through the native provider; then the same stack
 *   back to the dynamic resources, with an alias to the native type on each: no write, no replacement,
 *   and the stack keeps working on the dynamic provider (refresh, destroy);
 * - the move and, in the same step, from `connection: "org2"` to an explicit `codesec.Provider` with that
 *   connection's base URL and token: no write, no replacement; the same move to a Provider on another
 *   platform stops at preview; destroy applies the map's role on leaving as the dynamic provider does;
 * - back from an explicit `codesec.Provider` to the dynamic resources and the named connection (stack
 *   config `codesec:connections`), the Provider dropped in the same step: while the connection is not
 *   defined the preview stops, writing nothing; then one `up`, no write, no replacement, nobody demoted
 *   (deleting the Provider deletes no resource, so no `roleOnDestroy` applies); refresh and preview find no
 *   changes, and destroy applies the role on leaving through the named connection;
 * - the SCM app's one-time code stays ciphertext in `pulumi stack export` after each move, and in no output
 *   (nor does a token), a failing preview's included.
 *
 * Each part has an emulator of its own (the SCM app's code can be exchanged once per emulator); the
 * parts' stacks are created side by side before the first part runs.
 */
import { expect } from "chai";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { partsMadeAtOnce } from "./support/partsAtOnce";
import { roleOf, writes as writesAs } from "../support/emulator";
import {
  codesecResources,
  createNativeStack,
  exportStackAsStored,
  installedModules,
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
import { GLOBEX_TOKEN } from "./support/nativeSuite";

const PROGRAM = path.join(__dirname, "programs/migration-paths");
const KINDS = ["ScmApp", "ScmWebhookSubscription", "UserRole", "UserRoles"];
const DYNAMIC_TYPES = KINDS.map((kind) => `pulumi-nodejs:dynamic/codesec:${kind}`);
const NATIVE_TYPES = KINDS.map((kind) => `codesec:index:${kind}`);
/** The team's map as created: 502 and 503 take these roles (the fixtures' are member and read-only). */
const TEAM = { "502": "ORG_ROLE_READONLY", "503": "ORG_ROLE_ADMIN" };
/** The team's map once one entry is changed through the native provider. */
const CHANGED_TEAM = { ...TEAM, "502": "ORG_ROLE_ADMIN" };

/** Every write the emulator answered since the last clear, as `<operation>:<user or path>:<status>`, sorted. */
function writes(emulator: EmulatorHandle): string[] {
  return writesAs(
    emulator,
    (r) => `${r.operation}:${r.operation === "updateUserRole" ? r.path.split("/")[6] : "-"}:${r.status}`,
  ).sort();
}

/** The roles of `userIds` in `deploymentId` by user ("none" for no role). */
function rolesOf(
  emulator: EmulatorHandle,
  deploymentId: string,
  ...userIds: string[]
): Record<string, string> {
  return Object.fromEntries(userIds.map((id) => [id, roleOf(emulator, id, deploymentId) ?? "none"]));
}

/**
 * The SCM app's one-time code as `pulumi stack export` shows it: nowhere in plaintext, its input (and its
 * output, if any) a ciphertext.
 */
function expectCodeStoredEncrypted(stack: Stack, emulator: EmulatorHandle): void {
  const exported = exportStackAsStored(stack);
  expect(exported).not.to.include(emulator.sample.scmAppCode);
  const app = (
    JSON.parse(exported) as { deployment: { resources: StateResource[] } }
  ).deployment.resources.find((r) => r.urn.endsWith("::github"))!;
  expect(app.inputs?.code, "inputs.code").to.satisfy(isSecretEnvelope);
  if (app.outputs?.code !== undefined) expect(app.outputs.code, "outputs.code").to.satisfy(isSecretEnvelope);
}

/** `pulumi <args>` for the stack as a user runs it; its output never holds the app's code. */
async function pulumi(stack: Stack, emulator: EmulatorHandle, ...args: string[]): Promise<string> {
  const { code, output } = await runPulumi(
    stack,
    [...args, "--color", "never"],
    `migration-paths-${process.pid}`,
  );
  expect(output).not.to.include(emulator.sample.scmAppCode);
  expect(output).not.to.include(emulator.apiToken);
  expect(output).not.to.include(GLOBEX_TOKEN);
  expect(code, output).to.equal(0);
  return output;
}

/** A preview that must be refused: it fails and sends no write to any of these emulators; its output. */
async function refusedPreview(stack: Stack, ...emulators: EmulatorHandle[]): Promise<string> {
  for (const each of emulators) each.control.clearRequests();
  const { code, output } = await runPulumi(
    stack,
    ["preview", "--color", "never"],
    `migration-paths-${process.pid}`,
  );
  expect(code, output).not.to.equal(0);
  for (const each of emulators) expect(writes(each), output).to.deep.equal([]);
  return output;
}

/** The counts of a `pulumi up`'s summary (`~ 4 updated`, `1 unchanged`) by word. */
function summaryOf(output: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [, count, word] of output.matchAll(/(\d+) (created|updated|deleted|replaced|unchanged)\b/g))
    counts[word] = Number(count);
  return counts;
}

/**
 * The stack of the dynamic program, created against `emulator`: every resource made once; this tree's
 * plugin installed in its CLI (createNativeStack), for the moves to come.
 */
async function dynamicStack(emulator: EmulatorHandle, name: string): Promise<{ dir: string; stack: Stack }> {
  const dir = prepareProgram(PROGRAM);
  const stack = await createNativeStack(dir, name, {
    "codesec:baseUrl": { value: emulator.baseUrl },
    "codesec:token": { value: emulator.apiToken, secret: true },
    "e2e:program": { value: "dynamic" },
    "e2e:teamRoles": { value: JSON.stringify(TEAM) },
    "e2e:scmAppCode": { value: emulator.sample.scmAppCode, secret: true },
    "e2e:org2BaseUrl": { value: emulator.baseUrl },
    "e2e:org2Token": { value: GLOBEX_TOKEN, secret: true },
  });
  // `pulumi config set --path codesec:connections.org2.baseUrl ...` and `--secret --path ....token`.
  await stack.setConfig("codesec:connections.org2.baseUrl", { value: emulator.baseUrl }, true);
  await stack.setConfig("codesec:connections.org2.token", { value: GLOBEX_TOKEN, secret: true }, true);
  // No preview: the creation is the set-up, not what is tested.
  const up = await pulumi(stack, emulator, "up", "--yes", "--skip-preview");
  expect(summaryOf(up)).to.include({ created: 5 });
  expect(rolesOf(emulator, "1001", "502", "503")).to.deep.equal(TEAM);
  const resources = codesecResources(await stateResources(stack));
  expect(resources.map((r) => r.type).sort()).to.deep.equal(DYNAMIC_TYPES);
  for (const resource of resources) expect(resource.outputs?.__provider, resource.urn).to.be.a("string");
  return { dir, stack };
}

/** A part of this file: its emulator, and its stack of the dynamic program created against it. */
interface Part {
  readonly emulator: EmulatorHandle;
  readonly dir: string;
  readonly stack: Stack;
}

/**
 * An emulator of its own, `prepare`d, and the dynamic program's stack created against it (the emulator
 * closed again if the stack fails).
 */
async function partWithDynamicStack(
  name: string,
  prepare: (emulator: EmulatorHandle) => void = () => undefined,
): Promise<Part> {
  const emulator = await startEmulator({ quiet: true });
  try {
    prepare(emulator);
    return { emulator, ...(await dynamicStack(emulator, name)) };
  } catch (error) {
    await emulator.close();
    throw error;
  }
}

/** Switches the stack's program to the native one (its SDK alone installed), or back to the dynamic one. */
async function useProgram(stack: Stack, dir: string, program: "native" | "dynamic"): Promise<void> {
  await stack.setConfig("e2e:program", { value: program });
  useModules(dir, installedModules(program === "native" ? packedNativeSdk() : packedPackage()));
}

/** What a move changes: every codesec resource updated in place, the stack unchanged, `providers` created. */
function moveSummary(providers: number): Record<string, number> {
  return { same: 1, update: 4, ...(providers > 0 ? { create: providers } : {}) };
}

/**
 * A move's preview and `up`: every codesec resource updated in place (each state's shape changes), the stack
 * unchanged, nothing else created (but `providers` new explicit Provider resources), deleted or replaced,
 * no write, no secret printed. Returns the preview's output.
 */
async function move(stack: Stack, emulator: EmulatorHandle, providers = 0): Promise<string> {
  emulator.control.clearRequests();
  const preview = await stack.preview({ diff: true, color: "never" });
  const previewed = preview.stdout + preview.stderr;
  expect(preview.changeSummary, previewed).to.deep.equal(moveSummary(providers));
  expect(writes(emulator), "the preview's writes").to.deep.equal([]);
  for (const secret of [emulator.sample.scmAppCode, emulator.apiToken, GLOBEX_TOKEN])
    expect(previewed).not.to.include(secret);
  await moveUp(stack, emulator, providers);
  return previewed;
}

/**
 * A move's `up` alone, checked as in move(): a later part's set-up, whose preview a test above asserts on
 * the same program and state.
 */
async function moveUp(stack: Stack, emulator: EmulatorHandle, providers = 0): Promise<void> {
  emulator.control.clearRequests();
  const up = await stack.up({ color: "never" });
  console.log(`      move: ${JSON.stringify(up.summary.resourceChanges)}`);
  expect(up.summary.resourceChanges, up.stdout).to.deep.equal(moveSummary(providers));
  expect(writes(emulator), "the move's writes").to.deep.equal([]);
  for (const text of [up.stdout, up.stderr]) {
    for (const secret of [emulator.sample.scmAppCode, emulator.apiToken, GLOBEX_TOKEN])
      expect(text).not.to.include(secret);
  }
}

describe("moves between the dynamic resources and the native provider", function () {
  before(() => console.log(`      using ${requirePulumiCli()}`));
  const part = partsMadeAtOnce({
    "user-roles": () => partWithDynamicStack("user-roles"),
    explicit: () => partWithDynamicStack("explicit"),
    // A second admin of 2002 (the platform refuses to demote the last one): a demotion of 601 would go
    // through, and show.
    "explicit-back": () =>
      partWithDynamicStack("explicit-back", (emulator) =>
        emulator.control.setUserRole("504", { deploymentId: "2002", role: "ORG_ROLE_ADMIN" }),
      ),
  });

  /**
   * One stack's way to the native provider and back: the team's map moved, one entry changed through the
   * native provider, then the dynamic resources again.
   */
  describe("moving dynamic UserRoles to the native provider", function () {
    let emulator: EmulatorHandle;
    let stack: Stack;
    let dir: string;

    before(async function () {
      ({ emulator, dir, stack } = await part("user-roles"));
    });

    it("one up: no write, no replacement, nobody demoted, no __provider left, the app's code still ciphertext", async () => {
      await useProgram(stack, dir, "native");
      await move(stack, emulator);
      const resources = await stateResources(stack);
      expect(
        codesecResources(resources)
          .map((r) => r.type)
          .sort(),
      ).to.deep.equal(NATIVE_TYPES);
      expect(resources.filter((r) => r.outputs?.__provider !== undefined).map((r) => r.urn)).to.deep.equal(
        [],
      );
      const team = resources.find((r) => r.type === "codesec:index:UserRoles")!;
      expect(team.outputs?.roles).to.deep.equal(TEAM);
      expect(rolesOf(emulator, "1001", "502", "503")).to.deep.equal(TEAM);
      expectCodeStoredEncrypted(stack, emulator);
      emulator.control.clearRequests();
      await pulumi(stack, emulator, "preview", "--expect-no-changes");
      expect(writes(emulator)).to.deep.equal([]);
    });

    it("a change of one entry is one write, through the native provider", async () => {
      await stack.setConfig("e2e:teamRoles", { value: JSON.stringify(CHANGED_TEAM) });
      emulator.control.clearRequests();
      const up = await pulumi(stack, emulator, "up", "--yes", "--skip-preview");
      expect(summaryOf(up)).to.include({ updated: 1 });
      expect(writes(emulator)).to.deep.equal(["updateUserRole:502:200"]);
      expect(rolesOf(emulator, "1001", "502", "503")).to.deep.equal(CHANGED_TEAM);
    });

    // The same stack, on the native provider now, back to the dynamic resources.
    describe("moving back from the native provider to the dynamic resources", function () {
      before(async () => {
        await useProgram(stack, dir, "dynamic");
      });

      it("without an alias on the dynamic classes, the engine would create every resource anew and delete the native ones", async () => {
        emulator.control.clearRequests();
        const preview = await pulumi(stack, emulator, "preview");
        expect(preview).to.match(/\+ 4 to create/);
        expect(preview).to.match(/- 4 to delete/);
        expect(writes(emulator)).to.deep.equal([]);
      });

      it('with `aliases: [{ type: "codesec:index:<Kind>" }]`: one up, no write, no replacement, __provider back', async () => {
        await stack.setConfig("e2e:backAliases", { value: "true" });
        await move(stack, emulator);
        const resources = codesecResources(await stateResources(stack));
        expect(resources.map((r) => r.type).sort()).to.deep.equal(DYNAMIC_TYPES);
        for (const resource of resources) {
          expect(resource.outputs?.__provider, `${resource.urn}: outputs`).to.be.a("string");
          expect(resource.inputs?.__provider, `${resource.urn}: inputs`).to.be.a("string");
        }
        expectCodeStoredEncrypted(stack, emulator);
        expect(rolesOf(emulator, "1001", "502", "503")).to.deep.equal(CHANGED_TEAM);
      });

      it("the dynamic provider runs it again: no changes, a refresh with no write, destroy applies the role on leaving", async () => {
        emulator.control.clearRequests();
        await pulumi(stack, emulator, "preview", "--expect-no-changes");
        // The refresh finds nothing to change (the recorded __provider is what the dynamic provider reads
        // back), and after it a preview still shows none: no update on every run of a drift check.
        await pulumi(stack, emulator, "refresh", "--yes", "--skip-preview", "--expect-no-changes");
        await pulumi(stack, emulator, "preview", "--expect-no-changes");
        expect(writes(emulator)).to.deep.equal([]);
        await pulumi(stack, emulator, "destroy", "--yes", "--skip-preview");
        expect(writes(emulator)).to.deep.equal(["updateUserRole:502:200", "updateUserRole:503:200"]);
        expect(rolesOf(emulator, "1001", "502", "503")).to.deep.equal({
          "502": "ORG_ROLE_MEMBER",
          "503": "ORG_ROLE_MEMBER",
        });
      });
    });
  });

  describe("moving to the native provider and to an explicit Provider in the same step", function () {
    let emulator: EmulatorHandle;
    let stack: Stack;
    let dir: string;

    before(async function () {
      ({ emulator, dir, stack } = await part("explicit"));
      await useProgram(stack, dir, "native");
      await stack.setConfig("e2e:explicitProvider", { value: "true" });
    });

    it("a Provider on another platform than the resources': the preview stops, naming both, and nothing is written", async () => {
      // Another emulator: another platform, where the same token is valid.
      const other = await startEmulator({ quiet: true });
      try {
        await stack.setConfig("e2e:org2BaseUrl", { value: other.baseUrl });
        const output = await refusedPreview(stack, emulator, other);
        // The engine stops at the first of the two resources it diffs.
        expect(output, output).to.match(
          new RegExp(
            `codesec:(UserRole 2002/601|ScmWebhookSubscription 2002/scmcfg-2002-a) was created on the platform ` +
              `at ${emulator.baseUrl}, but its connection \\(the baseUrl and token inputs of provider "org2"\\) now ` +
              `points to ${other.baseUrl}\\.`,
          ),
        );
        // The way on it names is the Provider's own input, not stack config (which it does not read).
        expect(output).to.include(
          `set the movedFrom input of provider "org2" (\`movedFrom: "${emulator.baseUrl}"\`), then run \`pulumi up\``,
        );
        expect(output).not.to.include("pulumi config set codesec:movedFrom");
      } finally {
        await stack.setConfig("e2e:org2BaseUrl", { value: emulator.baseUrl });
        await other.close();
      }
    });

    it("the same platform: one up, no write, no replacement; the resources are the Provider's", async () => {
      const preview = await move(stack, emulator, 1);
      // The explicit Provider is created; the resources change provider (the engine asks the new provider's
      // DiffConfig, which never replaces) and are updated in place.
      expect(preview).to.match(
        /\+ pulumi:providers:codesec: \(create\)\s+\[urn=\S+::pulumi:providers:codesec::org2\]/,
      );
      for (const kind of ["UserRole", "ScmWebhookSubscription"]) {
        expect(preview).to.match(
          new RegExp(
            `~ codesec:index:${kind}: \\(update\\)[^~]*\\[provider: \\S+pulumi-nodejs::default::\\S+ => \\S+::pulumi:providers:codesec::org2::`,
          ),
        );
      }
      expect(preview).not.to.match(/\((replace|create-replacement|delete-replaced|delete)\)/);
      // The connection the move drops is a name, which holds no token: the diff shows it, not `[secret]`.
      expect(preview).to.match(/- connection\s*: "org2"/);
      expect(preview).not.to.match(/connection\s*: \[secret\]/);
      const resources = await stateResources(stack);
      const provider = resources.find(
        (r) => r.type === "pulumi:providers:codesec" && r.urn.endsWith("::org2"),
      )!;
      expect(provider, "the explicit provider").not.to.equal(undefined);
      for (const name of ["org2-admin", "org2-hooks"]) {
        const resource = resources.find((r) => r.urn.endsWith(`::${name}`))!;
        expect((resource as { provider?: string }).provider, name).to.equal(
          `${provider.urn}::${provider.id}`,
        );
        expect(resource.inputs, name).not.to.have.property("connection");
      }
      expect(
        codesecResources(resources)
          .map((r) => r.type)
          .sort(),
      ).to.deep.equal(NATIVE_TYPES);
      expectCodeStoredEncrypted(stack, emulator);
      expect(exportStackAsStored(stack)).not.to.include(GLOBEX_TOKEN);
      expect(rolesOf(emulator, "2002", "601")).to.deep.equal({ "601": "ORG_ROLE_ADMIN" });
    });

    it("the stack needs the named connection no more: preview, refresh (which reads 601's own role) and destroy run through the Provider", async () => {
      await stack.removeConfig("codesec:connections");
      emulator.control.clearRequests();
      await pulumi(stack, emulator, "preview", "--expect-no-changes");
      await pulumi(stack, emulator, "refresh", "--yes", "--skip-preview", "--expect-no-changes");
      // A refresh reads back the role of the credentials' own user only: 601's drift shows with the
      // Provider's (the second organization's) token, and with no other.
      emulator.control.setUserRole("601", { deploymentId: "2002", role: "ORG_ROLE_READONLY" });
      const drift = await runPulumi(
        stack,
        ["refresh", "--preview-only", "--expect-no-changes", "--diff", "--color", "never"],
        `migration-paths-${process.pid}`,
      );
      expect(drift.code, drift.output).not.to.equal(0);
      expect(drift.output).to.match(/role\s*: "ORG_ROLE_ADMIN" => "ORG_ROLE_READONLY"/);
      emulator.control.setUserRole("601", { deploymentId: "2002", role: "ORG_ROLE_ADMIN" });
      expect(writes(emulator)).to.deep.equal([]);
      await pulumi(stack, emulator, "destroy", "--yes", "--skip-preview");
      // The map's roles on leaving, once each, as the dynamic provider applies them; the other organization's
      // resources have none to apply.
      expect(writes(emulator)).to.deep.equal(["updateUserRole:502:200", "updateUserRole:503:200"]);
      expect(rolesOf(emulator, "1001", "502", "503")).to.deep.equal({
        "502": "ORG_ROLE_MEMBER",
        "503": "ORG_ROLE_MEMBER",
      });
      expect(rolesOf(emulator, "2002", "601")).to.deep.equal({ "601": "ORG_ROLE_ADMIN" });
    });
  });

  /**
   * The way back from an explicit `codesec.Provider`: the second organization's resources
   * on a Provider move to the dynamic classes with a named connection (stack config `codesec:connections`)
   * and an alias to the native type each, and the Provider leaves the program in the same step. 601's
   * UserRole demotes on destroy, so a delete of the native resource through the Provider would show as a
   * demotion: the move must make none.
   */
  describe("moving back from an explicit Provider to the dynamic resources and a named connection", function () {
    const ORG2_ROLE_ON_DESTROY = "ORG_ROLE_MEMBER";
    let emulator: EmulatorHandle;
    let stack: Stack;
    let dir: string;

    /** The roles the move must leave as they are: the team's, and 601's in the second organization. */
    function expectNobodyDemoted(): void {
      expect(rolesOf(emulator, "1001", "502", "503")).to.deep.equal(TEAM);
      expect(rolesOf(emulator, "2002", "601")).to.deep.equal({ "601": "ORG_ROLE_ADMIN" });
    }

    before(async function () {
      ({ emulator, dir, stack } = await part("explicit-back"));
      await stack.setConfig("e2e:org2RoleOnDestroy", { value: ORG2_ROLE_ON_DESTROY });
      // To the native resources and the second organization's to an explicit Provider (the path tested
      // above); the stack then needs the named connection no more, and drops it.
      await useProgram(stack, dir, "native");
      await stack.setConfig("e2e:explicitProvider", { value: "true" });
      await moveUp(stack, emulator, 1);
      await stack.removeConfig("codesec:connections");
      const resources = await stateResources(stack);
      const org2Admin = resources.find((r) => r.urn.endsWith("::org2-admin"))!;
      expect((org2Admin as { provider?: string }).provider).to.match(/::pulumi:providers:codesec::org2::/);
      expect(org2Admin.inputs?.roleOnDestroy).to.equal(ORG2_ROLE_ON_DESTROY);
      expectNobodyDemoted();
      await useProgram(stack, dir, "dynamic");
      await stack.setConfig("e2e:backAliases", { value: "true" });
    });

    it("before the named connection is back in stack config, the preview stops and nothing is written", async () => {
      const output = await refusedPreview(stack, emulator);
      // The engine stops at the first of the two resources it checks.
      expect(output, output).to.match(
        new RegExp(
          "pulumi-nodejs:dynamic/codesec:(UserRole resource 'org2-admin'|ScmWebhookSubscription resource " +
            "'org2-hooks') has a problem: connection names no connection defined in stack config " +
            "codesec:connections \\(none is defined\\)\\.",
        ),
      );
      // A failing run prints no secret either (docs/migrating-to-native.md: no command prints one).
      for (const secret of [emulator.sample.scmAppCode, emulator.apiToken, GLOBEX_TOKEN])
        expect(output).not.to.include(secret);
    });

    it("one up, the Provider dropped in the same step: no write, no replacement, nobody demoted, the resources the dynamic provider's", async () => {
      // `pulumi config set --path codesec:connections.org2.baseUrl ...` and `--secret --path ....token`: the
      // connection with the Provider's base URL and token.
      await stack.setConfig("codesec:connections.org2.baseUrl", { value: emulator.baseUrl }, true);
      await stack.setConfig("codesec:connections.org2.token", { value: GLOBEX_TOKEN, secret: true }, true);
      const expected = { same: 1, update: 4, delete: 1 };
      emulator.control.clearRequests();
      const preview = await stack.preview({ diff: true, color: "never" });
      const previewed = preview.stdout + preview.stderr;
      expect(preview.changeSummary, previewed).to.deep.equal(expected);
      expect(writes(emulator), "the preview's writes").to.deep.equal([]);
      // The second organization's resources leave the Provider for the dynamic provider, updated in place
      // (the engine asks the new provider's DiffConfig; the dynamic provider answers UNIMPLEMENTED, which the
      // engine takes as no replacement), and take `connection` back; the Provider, used by nothing now, is
      // deleted, which calls no resource's delete.
      for (const kind of ["UserRole", "ScmWebhookSubscription"]) {
        expect(previewed).to.match(
          new RegExp(
            `~ pulumi-nodejs:dynamic/codesec:${kind}: \\(update\\)[^~]*\\[provider: \\S+::pulumi:providers:codesec::org2::\\S+ => \\S+::pulumi:providers:pulumi-nodejs::default::`,
          ),
        );
      }
      expect(previewed.match(/\+ connection\s*: "org2"/g)).to.have.length(2);
      expect(previewed).to.match(
        /- pulumi:providers:codesec: \(delete\)\s+\[id=\S+\]\s+\[urn=\S+::pulumi:providers:codesec::org2\]/,
      );
      expect(previewed).not.to.match(/\((replace|create-replacement|delete-replaced|create)\)/);
      const up = await stack.up({ color: "never" });
      console.log(`      move back: ${JSON.stringify(up.summary.resourceChanges)}`);
      expect(up.summary.resourceChanges, up.stdout).to.deep.equal(expected);
      expect(writes(emulator), "the move's writes").to.deep.equal([]);
      for (const text of [previewed, up.stdout, up.stderr]) {
        for (const secret of [emulator.sample.scmAppCode, emulator.apiToken, GLOBEX_TOKEN])
          expect(text).not.to.include(secret);
      }
      expectNobodyDemoted();
      const resources = await stateResources(stack);
      expect(resources.filter((r) => r.type === "pulumi:providers:codesec").map((r) => r.urn)).to.deep.equal(
        [],
      );
      const moved = codesecResources(resources);
      expect(moved.map((r) => r.type).sort()).to.deep.equal(DYNAMIC_TYPES);
      for (const resource of moved) {
        expect(resource.outputs?.__provider, `${resource.urn}: outputs`).to.be.a("string");
        expect((resource as { provider?: string }).provider, resource.urn).to.match(
          /::pulumi:providers:pulumi-nodejs::default/,
        );
      }
      for (const name of ["org2-admin", "org2-hooks"]) {
        const resource = moved.find((r) => r.urn.endsWith(`::${name}`))!;
        expect(resource.inputs?.connection, name).to.equal("org2");
      }
      expect(moved.find((r) => r.urn.endsWith("::org2-admin"))!.inputs?.roleOnDestroy).to.equal(
        ORG2_ROLE_ON_DESTROY,
      );
      expectCodeStoredEncrypted(stack, emulator);
      expect(exportStackAsStored(stack)).not.to.include(GLOBEX_TOKEN);
    });

    it("the dynamic provider runs it: a refresh and a preview with no changes and no write; destroy demotes 601 through the named connection", async () => {
      emulator.control.clearRequests();
      await pulumi(stack, emulator, "refresh", "--preview-only", "--expect-no-changes");
      await pulumi(stack, emulator, "preview", "--expect-no-changes");
      expect(writes(emulator)).to.deep.equal([]);
      expectNobodyDemoted();
      await pulumi(stack, emulator, "destroy", "--yes", "--skip-preview");
      expect(writes(emulator)).to.deep.equal([
        "updateUserRole:502:200",
        "updateUserRole:503:200",
        "updateUserRole:601:200",
      ]);
      expect(rolesOf(emulator, "2002", "601")).to.deep.equal({ "601": ORG2_ROLE_ON_DESTROY });
    });
  });
});
