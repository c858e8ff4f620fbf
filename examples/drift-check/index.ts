/**
 * Health report of a code-security organization, for a scheduled CI job (see
 * .github/workflows/drift-check.yml). It declares no resources: it reads the platform with
 * pulumi-codesec's data-source functions, exports the report as the stack output `healthReport`, and,
 * when config `failOnProblems` is true (the default), fails the run with a message listing every problem.
 *
 * Problems: a tracked scan whose status is not in `okScanStatuses` (or that cannot be read), and a
 * notification rule that is disabled or reports a `config_error` (unless its id is in `ignoreRuleIds`).
 */
import * as pulumi from "@pulumi/pulumi";
import * as codesec from "pulumi-codesec";

// Defaults: the emulator's default fixtures (deployment 1001, scan 3001 completed).
const DEFAULT_DEPLOYMENT_ID = "1001";
const DEFAULT_SCAN_IDS = ["3001"];
// The spec names only SCAN_STATUS_RUNNING; anything not listed here (an error, a cancelled scan, a value
// the platform adds later) counts as a problem.
const DEFAULT_OK_SCAN_STATUSES = ["SCAN_STATUS_COMPLETED", "SCAN_STATUS_RUNNING", "SCAN_STATUS_QUEUED"];

interface ScanHealth {
  id: string;
  status?: string;
  projectId?: string;
  completeTime?: string;
  findings?: number;
  ok: boolean;
}

interface RuleHealth {
  id: number;
  name: string;
  channel: string;
  problem: string;
  ignored: boolean;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export = async function driftCheck() {
  const cfg = new pulumi.Config();
  const deploymentId = cfg.get("deploymentId") ?? DEFAULT_DEPLOYMENT_ID;
  const scanIds = cfg.getObject<string[]>("scanIds") ?? DEFAULT_SCAN_IDS;
  const okStatuses = cfg.getObject<string[]>("okScanStatuses") ?? DEFAULT_OK_SCAN_STATUSES;
  const ignoreRuleIds = (cfg.getObject<Array<number | string>>("ignoreRuleIds") ?? []).map(String);
  const failOnProblems = cfg.getBoolean("failOnProblems") ?? true;

  const problems: string[] = [];

  // The API has no "list scans" operation, so the scans to watch are named in config.
  const scans: ScanHealth[] = [];
  for (const scanId of scanIds) {
    try {
      const scan = await codesec.getScan({ deploymentId, scanId });
      const ok = okStatuses.includes(scan.status);
      if (!ok) problems.push(`scan ${scan.id} (project ${scan.projectId}) has status ${scan.status}`);
      scans.push({
        id: scan.id,
        status: scan.status,
        projectId: scan.projectId,
        completeTime: scan.completeTime,
        findings: scan.findingsCounts.total,
        ok,
      });
    } catch (error) {
      problems.push(`scan ${scanId} could not be read: ${messageOf(error)}`);
      scans.push({ id: scanId, ok: false });
    }
  }

  let ruleCount = 0;
  const rulesWithProblems: RuleHealth[] = [];
  try {
    const result = await codesec.getNotificationRules({ deploymentId });
    ruleCount = result.rules.length;
    for (const rule of result.rulesWithProblems) {
      const problem = rule.config_error ? `config_error: ${rule.config_error}` : "disabled";
      const ignored = ignoreRuleIds.includes(String(rule.id));
      rulesWithProblems.push({ id: rule.id, name: rule.name, channel: rule.channel, problem, ignored });
      if (!ignored)
        problems.push(`notification rule ${rule.id} "${rule.name}" (${rule.channel}): ${problem}`);
    }
  } catch (error) {
    problems.push(`notification rules could not be listed: ${messageOf(error)}`);
  }

  const healthReport = {
    deploymentId,
    healthy: problems.length === 0,
    problems,
    scans,
    notificationRules: { total: ruleCount, withProblems: rulesWithProblems },
  };

  if (problems.length > 0) {
    const message =
      `deployment ${deploymentId} has ${problems.length} health problem(s):\n` +
      problems.map((p) => `  - ${p}`).join("\n");
    if (failOnProblems) {
      // A RunError fails the run and prints only the message (no stack trace).
      throw new pulumi.RunError(
        `${message}\n(set config failOnProblems to false to report without failing, ` +
          `or list an intentionally disabled rule in ignoreRuleIds)`,
      );
    }
    void pulumi.log.warn(message);
  } else {
    void pulumi.log.info(
      `deployment ${deploymentId} is healthy: ${scans.length} scan(s), ${ruleCount} notification rule(s)` +
        (rulesWithProblems.length > 0 ? ` (${rulesWithProblems.length} acknowledged in ignoreRuleIds)` : ""),
    );
  }
  return { healthReport };
};
