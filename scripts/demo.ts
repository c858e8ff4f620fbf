/**
 * `npm run demo`: the organization declared in the root Pulumi.yaml, applied to a local emulator of the
 * platform through the real Pulumi engine (Automation API), with the engine's progress streamed here;
 * then a summary, a drift check, and a clean-up. Nothing leaves the machine: the state lives in a
 * temporary folder, secrets are encrypted with a throwaway passphrase.
 */
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { guardFile } from "./fileGuard";
import { bold, useColor } from "./terminalColor";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../emulator/index";

const repoRoot = path.resolve(__dirname, "..");
const STACK = "demo";
const colored = useColor(process.stdout, process.env);
/** The engine's colours follow the demo's. */
const color = colored ? "always" : "never";

function heading(text: string): void {
  console.log(`\n${bold(`== ${text}`, colored)}`);
}

function requirePulumi(): void {
  try {
    const version = execFileSync("pulumi", ["version"], { encoding: "utf8" }).trim();
    console.log(`Pulumi CLI ${version}`);
  } catch {
    throw new Error(
      "No Pulumi CLI on PATH. Run `npm run setup` first (it finds or builds one), then `npm run demo`.",
    );
  }
}

type Outputs = Record<string, { value: unknown }>;

function printSummary(outputs: Outputs, created: number): void {
  const value = <T>(key: string) => outputs[key]?.value as T;
  const user = value<{ login: string; orgRole: string }>("currentUser");
  const scan = value<{ id: string; status: string; branch: string; findings: number }>("latestScan");
  const problems =
    value<{ id: number; name: string; channel: string; problem: string }[]>("notificationRuleProblems");
  const roles = value<Record<string, string>>("teamRoles");
  const files = value<Record<string, string>>("workflowFiles");
  const app = value<{ slug: string; scmName: string }>("scmApp");

  heading("Summary");
  console.log(`Resources created: ${created}`);
  console.log(
    `Team roles:        ${Object.entries(roles)
      .map(([u, r]) => `${u}=${r}`)
      .join(", ")}`,
  );
  console.log(
    `CI workflow in:    ${Object.keys(files).length} repositories (${Object.keys(files).join(", ")})`,
  );
  console.log(`Webhook events:    ${(value<string[]>("webhookEvents") ?? []).join(", ")}`);
  console.log(`SCM app:           ${app.slug} (${app.scmName})`);
  console.log(`Current user:      ${user.login} (${user.orgRole})`);
  console.log(`Latest scan:       #${scan.id} on ${scan.branch}: ${scan.status}, ${scan.findings} findings`);
  console.log(`Notification rules with problems: ${problems.length}`);
  for (const rule of problems) console.log(`  - #${rule.id} ${rule.name} (${rule.channel}): ${rule.problem}`);
}

/** Runs the Pulumi CLI from the repository root; resolves with its exit code and output. */
function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("pulumi", args, { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

async function driftCheck(stack: Stack, emulator: EmulatorHandle, requestId: string): Promise<void> {
  heading("Drift check: someone renames the SCM app in the platform's UI");
  emulator.control.editScmApp(requestId, { scmName: "renamed-by-hand" });
  // The CLI itself, as a scheduled CI job runs it: the Automation API's refresh has no --diff.
  const args = ["refresh", "--preview-only", "--expect-no-changes", "--diff", "--color", "never"];
  console.log(`$ pulumi ${args.slice(0, 3).join(" ")}`);
  // Not spawnSync: the emulator answering the CLI runs in this process's event loop.
  const check = await runCli([...args, "--stack", stack.name], {
    ...process.env,
    ...(stack.workspace as LocalWorkspace).envVars,
  });
  const lines = check.output
    .split("\n")
    .filter((line) => /~ scmName|no changes were expected|codesec:ScmApp/.test(line));
  for (const line of lines.slice(0, 6)) console.log(`  ${line.trim()}`);
  if (check.code === 0) {
    throw new Error("The drift check passed although the SCM app was changed out of band: that is a bug.");
  }
  console.log("Drift detected: the check fails, as a scheduled CI job would (examples/drift-check).");
}

async function main(): Promise<void> {
  requirePulumi();
  const scratch = mkdtempSync(path.join(os.tmpdir(), "codesec-demo-"));
  // The engine keeps the stack's settings next to Pulumi.yaml; a user's own file of that name survives.
  const restoreStackFile = guardFile(path.join(repoRoot, `Pulumi.${STACK}.yaml`));
  heading("Starting the platform emulator");
  const emulator = await startEmulator({ quiet: true });
  console.log(`Emulator at ${emulator.baseUrl} (deployment ${emulator.deploymentId})`);
  let stack: Stack | undefined;
  try {
    stack = await LocalWorkspace.createOrSelectStack(
      { stackName: STACK, workDir: repoRoot },
      {
        envVars: {
          PULUMI_BACKEND_URL: `file://${scratch}`,
          PULUMI_CONFIG_PASSPHRASE: randomBytes(16).toString("hex"),
          PULUMI_HOME: path.join(scratch, ".pulumi"),
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_NODEJS_TRANSPILE_ONLY: "true",
          PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
        },
      },
    );
    const requestId = emulator.sample.scmAppRequestId;
    await stack.setAllConfig({
      "codesec:baseUrl": { value: emulator.baseUrl },
      "codesec:token": { value: emulator.apiToken, secret: true },
      "codesec-org:scmAppRequestId": { value: requestId },
      "codesec-org:scmAppCode": { value: emulator.sample.scmAppCode, secret: true },
    });

    heading("pulumi up (the organization in Pulumi.yaml)");
    const up = await stack.up({ onOutput: (out) => process.stdout.write(out), color });
    printSummary(up.outputs, up.summary.resourceChanges?.create ?? 0);

    await driftCheck(stack, emulator, requestId);

    heading("Cleaning up: pulumi destroy");
    await stack.destroy({ onOutput: (out) => process.stdout.write(out), color });
    console.log("\nDemo finished: the stack was destroyed; roleOnDestroy demoted the users that declare it.");
  } finally {
    if (stack) await stack.workspace.removeStack(STACK, { force: true }).catch(() => undefined);
    restoreStackFile();
    rmSync(scratch, { recursive: true, force: true });
    await emulator.close();
  }
}

main().catch((error) => {
  console.error(`\ndemo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
