/**
 * Interrupted `pulumi up` runs, end to end: a stack of 34 resources is interrupted mid-way by SIGINT
 * (Ctrl+C) and by SIGKILL (a crashed runner), then recovered with exactly the steps that
 * docs/interrupted-runs.md gives (read from that page), and checked: nothing lost, nothing duplicated,
 * no pending operation left, the platform as the program declares, destroy working, no process left.
 * A kill can also leave the file backend's checkpoint unreadable (an empty metadata sidecar: see
 * docs/interrupted-runs.md): when it does, the documented repair runs first; a separate test leaves a
 * stack in that state on purpose and proves the repair every time.
 */
import { expect } from "chai";
import type { LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import {
  defaultFixtures,
  startEmulator,
  type EmulatorHandle,
  type FixtureSet,
} from "../../../emulator/index";
import { markdownTable, writeReportSection } from "../../support/reliabilityReport";
import { assertNoUnexpectedErrors } from "../support/cliOutput";
import {
  createStack,
  exportStackAsStored,
  killTaggedProcesses,
  prepareProgram,
  repoRoot,
  requirePulumiCli,
  runPulumi,
  spawnPulumi,
  timeLimitFor,
  waitUntilNoTaggedProcess,
  type PulumiProcess,
} from "../support/harness";

const PROGRAM = path.join(__dirname, "../programs/interrupted");
const DOC = path.join(repoRoot, "docs/interrupted-runs.md");

const DEPLOYMENT_ID = "1001";
/** Users added to the default fixtures, members until the program gives them DECLARED_ROLE. */
const USER_IDS = Array.from({ length: 32 }, (_, i) => String(1100 + i));
const FIXTURE_ROLE = "ORG_ROLE_MEMBER";
const DECLARED_ROLE = "ORG_ROLE_READONLY";
const ROLE_ON_DESTROY = "ORG_ROLE_MEMBER";
const PROJECT_IDS = ["7001", "7002"];
const SCM_CONFIG_ID = "scmcfg-1001-a";

const ROLE_TYPE = "pulumi-nodejs:dynamic/codesec:UserRole";
const DECLARED = [
  "pulumi-nodejs:dynamic/codesec:WorkflowProvisioning::ci",
  ...USER_IDS.map((id) => `${ROLE_TYPE}::role-${id}`),
  "pulumi-nodejs:dynamic/codesec:ScmWebhookSubscription::hooks",
];
const STACK_SIZE = `${DECLARED.length} resources (${USER_IDS.length} UserRole, 1 WorkflowProvisioning, 1 ScmWebhookSubscription)`;

/**
 * Pace of the interrupted run: each role write answers after LATENCY_MS, PARALLEL at a time, so the
 * 32 writes take several seconds and some are always in flight; the run is interrupted once
 * APPLIED_BEFORE_INTERRUPT of them have been answered.
 */
const LATENCY_MS = 1000;
const PARALLEL = 4;
const APPLIED_BEFORE_INTERRUPT = 6;

type Interruption = "SIGINT" | "SIGKILL";

interface ExportedResource {
  urn: string;
  type: string;
}
interface Exported {
  deployment: {
    resources?: ExportedResource[];
    pending_operations?: { type: string; resource: { urn: string } }[];
  };
}

/** The default fixtures plus USER_IDS as members of the deployment. */
function fixtures(): FixtureSet {
  const set = defaultFixtures();
  for (const id of USER_IDS) {
    set.users.push({
      id,
      name: `User ${id}`,
      email: `user-${id}@acme.example`,
      login: `user-${id}`,
      authDetails: [],
      roles: { [DEPLOYMENT_ID]: FIXTURE_ROLE },
    });
  }
  return set;
}

/** The text of the `recovery-steps` block `id` in docs/interrupted-runs.md. */
function documentedBlock(id: string): string {
  const doc = readFileSync(DOC, "utf8");
  const block = new RegExp(`<!-- recovery-steps: ${id} -->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(doc);
  expect(block, `docs/interrupted-runs.md has no recovery-steps block for ${id}`).to.not.equal(null);
  return block![1];
}

/** The commands of the `recovery-steps` block for `signal` in docs/interrupted-runs.md. */
function documentedSteps(signal: Interruption): string[][] {
  const lines = documentedBlock(signal)
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  expect(lines, `recovery steps for ${signal}`).to.have.length.greaterThan(0);
  return lines.map((line) => {
    expect(line, "a recovery step is a plain pulumi command (no quoting, no shell)").to.match(
      /^pulumi( [A-Za-z0-9=_.-]+)+$/,
    );
    return line.split(" ");
  });
}

function roleWritesAnswered(emulator: EmulatorHandle): number {
  return emulator.control.requests().filter((r) => r.operation === "updateUserRole" && r.status === 200)
    .length;
}

function roleOf(emulator: EmulatorHandle, userId: string): string | undefined {
  return emulator.control.state().users.find((u) => u.id === userId)?.roles[DEPLOYMENT_ID];
}

/** Whether the platform holds what the program declares. */
function platformMatchesIntent(emulator: EmulatorHandle): boolean {
  const state = emulator.control.state();
  const rolesSet = USER_IDS.every((id) => roleOf(emulator, id) === DECLARED_ROLE);
  const provisioned = PROJECT_IDS.every((id) => state.projects.find((p) => p.id === id)?.workflow);
  const subscribed = state.scmConfigurations.some(
    (c) => c.deploymentId === DEPLOYMENT_ID && c.configId === SCM_CONFIG_ID && c.subscription,
  );
  return rolesSet && provisioned && Boolean(subscribed);
}

/** The folder of a stack's file backend (its workspace's `file://` PULUMI_BACKEND_URL). */
function backendDir(stack: Stack): string {
  const url = (stack.workspace as LocalWorkspace).envVars.PULUMI_BACKEND_URL;
  expect(url, "a file backend").to.match(/^file:\/\//);
  return url.slice("file://".length);
}

/** Files under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile());
}

const PROJECT = "codesec-e2e-interrupted";

/** The metadata sidecar of a stack's checkpoint in its file backend. */
function checkpointSidecar(stack: Stack): string {
  return path.join(backendDir(stack), ".pulumi", "stacks", PROJECT, `${stack.name}.json.attrs`);
}

/** The backend's metadata sidecars (`*.attrs`) that cannot be read: empty, or cut off before their end. */
function unreadableMetadata(stack: Stack): string[] {
  return filesUnder(path.join(backendDir(stack), ".pulumi"))
    .filter((file) => file.endsWith(".attrs"))
    .filter((file) => {
      try {
        JSON.parse(readFileSync(file, "utf8"));
        return false;
      } catch {
        return true;
      }
    });
}

/**
 * Runs the documented repair of an unreadable checkpoint as a user runs it: the block's commands in a
 * shell, in the program's folder, with the stack's environment, its output checked (cliOutput.ts).
 * Returns what the shell printed.
 */
function repairUnreadableCheckpoint(stack: Stack): string {
  const workspace = stack.workspace as LocalWorkspace;
  const result = spawnSync("bash", ["-euo", "pipefail", "-c", documentedBlock("unreadable-checkpoint")], {
    cwd: workspace.workDir,
    env: { ...process.env, ...workspace.envVars },
    encoding: "utf8",
  });
  const output = `${result.stdout}${result.stderr}`;
  expect(result.status, `the documented repair:\n${output}`).to.equal(0);
  assertNoUnexpectedErrors({ command: "the documented repair", code: result.status, output });
  return output;
}

/** What a failed read of the stack says: `pulumi stack export` must fail on an unreadable checkpoint. */
async function exportFailure(stack: Stack, tag: string): Promise<string> {
  const result = await runPulumi(stack, ["stack", "export", "--stack", stack.name], tag);
  expect(result.code, "pulumi stack export of an unreadable checkpoint").to.not.equal(0);
  return result.output;
}

function exported(stack: Stack): Exported {
  return JSON.parse(exportStackAsStored(stack)) as Exported;
}

/** `type::name` of each resource in the state, in order (a resource recorded twice appears twice). */
function recordedKeys(state: Exported): string[] {
  return (state.deployment.resources ?? []).map((r) => `${r.type}::${r.urn.split("::").pop()}`);
}

function tail(text: string, lines = 40): string {
  return text.split("\n").slice(-lines).join("\n");
}

async function waitForRoleWrites(emulator: EmulatorHandle, run: PulumiProcess): Promise<void> {
  let ended = false;
  const end = () => (ended = true);
  void run.exited.then(end, end);
  const deadline = Date.now() + 120_000;
  while (roleWritesAnswered(emulator) < APPLIED_BEFORE_INTERRUPT) {
    if (ended) throw new Error(`pulumi up ended before it could be interrupted:\n${tail(run.output())}`);
    if (Date.now() > deadline) throw new Error(`no role writes within 120 s:\n${tail(run.output())}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("interrupted `pulumi up` runs through the real Pulumi CLI", function () {
  let emulator: EmulatorHandle;
  /** Tags of the processes each test started, to make sure none is left behind. */
  const tags: string[] = [];
  /** The report's rows per interruption, recorded once its test has passed. */
  const proven = new Map<Interruption, (string | number)[][]>();
  /** The report's rows for an unreadable checkpoint, recorded once its test has passed. */
  let unreadableRepair: string[][] | undefined;

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    emulator = await startEmulator({ fixtures: fixtures(), quiet: true });
  });

  beforeEach(() => {
    emulator.control.reset();
  });

  after(async () => {
    // A failed test may have left a run going: end every process any test started.
    for (const tag of tags) await killTaggedProcesses(tag);
    await emulator?.close();
    if (proven.size === 2 && unreadableRepair) {
      writeReportSection({
        id: "interrupted-runs",
        title: "Interrupted runs",
        markdown: [
          "A stack is interrupted mid-way through `pulumi up` (once some role writes have been applied), then",
          "recovered with the steps of [interrupted-runs.md](interrupted-runs.md), read from that page by",
          "`tests/e2e/reliability/interruptedRuns.test.ts`.",
          "",
          ...(["SIGINT", "SIGKILL"] as const).flatMap((signal) => [
            `### ${signal === "SIGINT" ? "Ctrl+C (SIGINT)" : "Killed (SIGKILL of the CLI and its children)"}`,
            "",
            markdownTable(["measure", "result"], proven.get(signal)!),
            "",
          ]),
          "### A checkpoint the kill left unreadable (an empty metadata sidecar)",
          "",
          markdownTable(["measure", "result"], unreadableRepair),
          "",
        ].join("\n"),
      });
    }
  });

  for (const signal of ["SIGINT", "SIGKILL"] as const) {
    it(`recovers from ${signal} with the documented steps: nothing lost or duplicated, the platform as declared`, async () => {
      const steps = documentedSteps(signal);
      const tag = `interrupted-${signal}-${randomUUID()}`;
      tags.push(tag);
      const programDir = prepareProgram(PROGRAM);
      const stack = await createStack(programDir, `interrupted-${signal.toLowerCase()}`, {
        "codesec:baseUrl": { value: emulator.baseUrl },
        "codesec:token": { value: emulator.apiToken, secret: true },
        "e2e:deploymentId": { value: DEPLOYMENT_ID },
        "e2e:role": { value: DECLARED_ROLE },
        "e2e:roleOnDestroy": { value: ROLE_ON_DESTROY },
        "e2e:userIds": { value: JSON.stringify(USER_IDS) },
        "e2e:projectIds": { value: JSON.stringify(PROJECT_IDS) },
        "e2e:scmConfigId": { value: SCM_CONFIG_ID },
      });
      expect(
        platformMatchesIntent(emulator),
        "the platform does not hold the intent before the run",
      ).to.equal(false);

      // The interrupted run.
      emulator.control.addFault({
        operation: "updateUserRole",
        latencyMs: LATENCY_MS,
        count: USER_IDS.length,
      });
      const run = spawnPulumi(
        stack,
        [
          "up",
          "--stack",
          stack.name,
          "--yes",
          "--skip-preview",
          "--non-interactive",
          "--parallel",
          String(PARALLEL),
        ],
        tag,
      );
      await waitForRoleWrites(emulator, run);
      if (signal === "SIGINT") {
        // A terminal's Ctrl+C goes to the CLI's process group (its plugins have groups of their own).
        process.kill(-run.child.pid!, "SIGINT");
        const { code } = await run.exited;
        expect(code, `pulumi up after SIGINT:\n${tail(run.output())}`).to.not.equal(0);
        expect(run.output()).to.include("update canceled");
        await waitUntilNoTaggedProcess(tag);
      } else {
        const killed = await killTaggedProcesses(tag);
        expect(killed, "the CLI and the processes it started were killed").to.include(run.child.pid);
        expect(killed.length, "the language host and plugins carry the tag").to.be.greaterThan(1);
        expect((await run.exited).signal).to.equal("SIGKILL");
      }
      // The recovery runs at full speed.
      emulator.control.clearFaults();

      // The kill may have emptied the checkpoint's metadata sidecar mid-write: repair as documented.
      const unreadable = unreadableMetadata(stack);
      if (unreadable.length > 0) {
        expect(signal, "only a kill leaves a sidecar half-written").to.equal("SIGKILL");
        // The stack's own checkpoint sidecar stops every read of the stack; another one (the .bak's,
        // written first by the same save) does not, and the same repair removes it.
        if (unreadable.includes(checkpointSidecar(stack))) {
          expect(await exportFailure(stack, tag)).to.include("failed to load checkpoint");
        }
        const repaired = repairUnreadableCheckpoint(stack);
        for (const file of unreadable) expect(repaired).to.include(file);
        expect(unreadableMetadata(stack)).to.deep.equal([]);
        const names = unreadable.map((file) => path.relative(backendDir(stack), file)).join(", ");
        console.log(`      the kill left empty metadata sidecar(s), repaired as documented: ${names}`);
      }

      // What the interruption left.
      const left = exported(stack);
      const rolesRecorded = recordedKeys(left).filter((key) => key.startsWith(`${ROLE_TYPE}::`)).length;
      expect(rolesRecorded, "the run was interrupted mid-way").to.be.below(USER_IDS.length);
      const pending = left.deployment.pending_operations ?? [];
      let leftBehind: string;
      if (signal === "SIGINT") {
        expect(pending, "Ctrl+C lets the steps in flight finish").to.deep.equal([]);
        expect(rolesRecorded).to.be.at.least(APPLIED_BEFORE_INTERRUPT);
        leftBehind = "no pending operation, stack unlocked";
      } else {
        expect(pending.length, "the creates in flight are pending").to.be.greaterThan(0);
        expect(pending.every((op) => op.type === "creating")).to.equal(true);
        // What the next `pulumi up` says, as the page states.
        const next = await runPulumi(stack, ["up", "--stack", stack.name, "--yes"], tag);
        expect(next.code, next.output).to.not.equal(0);
        expect(next.output).to.include("the stack is currently locked by 1 lock(s)");
        leftBehind = "pending creates; the next `pulumi up` fails: stack locked";
      }

      // Recovery, exactly as the page gives it.
      for (const step of steps) {
        const result = await runPulumi(stack, [...step.slice(1), "--stack", stack.name], tag);
        expect(result.code, `${step.join(" ")}:\n${tail(result.output)}`).to.equal(0);
      }

      const recovered = exported(stack);
      const keys = recordedKeys(recovered);
      const urns = (recovered.deployment.resources ?? []).map((r) => r.urn);
      const lost = DECLARED.filter((key) => !keys.includes(key)).length;
      const duplicated = urns.length - new Set(urns).size;
      const pendingLeft = (recovered.deployment.pending_operations ?? []).length;
      const asDeclared = platformMatchesIntent(emulator);
      expect(
        DECLARED.filter((key) => !keys.includes(key)),
        "declared resources missing from the state",
      ).to.deep.equal([]);
      expect(duplicated, "URNs recorded more than once").to.equal(0);
      expect(pendingLeft, "pending operations left").to.equal(0);
      expect(
        USER_IDS.filter((id) => roleOf(emulator, id) !== DECLARED_ROLE),
        "users without the declared role",
      ).to.deep.equal([]);
      expect(asDeclared, "the platform holds what the program declares").to.equal(true);

      const destroy = await runPulumi(
        stack,
        ["destroy", "--stack", stack.name, "--yes", "--skip-preview"],
        tag,
      );
      expect(destroy.code, `pulumi destroy:\n${tail(destroy.output)}`).to.equal(0);
      expect(exported(stack).deployment.resources ?? []).to.deep.equal([]);
      expect(
        USER_IDS.filter((id) => roleOf(emulator, id) !== ROLE_ON_DESTROY),
        "users whose roleOnDestroy was not applied",
      ).to.deep.equal([]);
      await waitUntilNoTaggedProcess(tag);

      proven.set(signal, [
        ["stack size", STACK_SIZE],
        ["left by the interruption", leftBehind],
        ["recovery steps", steps.map((step) => `\`${step.join(" ")}\``).join(", then ")],
        ["resources lost", lost],
        ["resources duplicated", duplicated],
        ["pending operations left", pendingLeft],
        ["platform state equals the program's intent", asDeclared ? "yes" : "no"],
        ["`pulumi destroy --yes` afterwards", "succeeded"],
      ]);
      // The interrupted up, the locked up, the recovery steps, destroy, and the state read in between.
    }).timeout(timeLimitFor(10, 2 * DECLARED.length));
  }

  it("repairs a checkpoint that a kill left unreadable (its metadata sidecar empty) with the documented step", async () => {
    const tag = `unreadable-${randomUUID()}`;
    tags.push(tag);
    const users = USER_IDS.slice(0, 2);
    const stack = await createStack(prepareProgram(PROGRAM), "unreadable", {
      "codesec:baseUrl": { value: emulator.baseUrl },
      "codesec:token": { value: emulator.apiToken, secret: true },
      "e2e:deploymentId": { value: DEPLOYMENT_ID },
      "e2e:role": { value: DECLARED_ROLE },
      "e2e:roleOnDestroy": { value: ROLE_ON_DESTROY },
      "e2e:userIds": { value: JSON.stringify(users) },
      "e2e:projectIds": { value: JSON.stringify(PROJECT_IDS) },
      "e2e:scmConfigId": { value: SCM_CONFIG_ID },
    });
    const up = await runPulumi(stack, ["up", "--stack", stack.name, "--yes", "--skip-preview"], tag);
    expect(up.code, tail(up.output)).to.equal(0);
    const before = recordedKeys(exported(stack));

    // What a kill between the backend's emptying of the sidecar and its write leaves (see the page).
    const sidecar = checkpointSidecar(stack);
    expect(JSON.parse(readFileSync(sidecar, "utf8")), "the checkpoint's sidecar, as written").to.be.an(
      "object",
    );
    writeFileSync(sidecar, "");
    const failure = await exportFailure(stack, tag);
    expect(failure).to.include("failed to load checkpoint: EOF");
    const next = await runPulumi(stack, ["up", "--stack", stack.name, "--yes"], tag);
    expect(next.code, "pulumi up on an unreadable checkpoint").to.not.equal(0);
    expect(next.output).to.include("failed to load checkpoint: EOF");

    expect(repairUnreadableCheckpoint(stack)).to.include(sidecar);
    expect(recordedKeys(exported(stack)), "the checkpoint itself was whole").to.deep.equal(before);
    const again = await runPulumi(stack, ["up", "--stack", stack.name, "--yes", "--skip-preview"], tag);
    expect(again.code, tail(again.output)).to.equal(0);
    expect(users.filter((id) => roleOf(emulator, id) !== DECLARED_ROLE)).to.deep.equal([]);
    const destroy = await runPulumi(
      stack,
      ["destroy", "--stack", stack.name, "--yes", "--skip-preview"],
      tag,
    );
    expect(destroy.code, tail(destroy.output)).to.equal(0);
    await waitUntilNoTaggedProcess(tag);

    unreadableRepair = [
      [
        "left by the kill",
        "`<stack>.json.attrs` empty; every command on the stack fails: `failed to load checkpoint: EOF`",
      ],
      ["repair", "the page's `find ... -name '*.attrs' -empty -delete`, then the steps after a kill"],
      ["resources lost", "0 (the checkpoint itself is whole)"],
      ["`pulumi up --yes` and `pulumi destroy --yes` afterwards", "succeeded"],
    ];
  }).timeout(timeLimitFor(5));
});
