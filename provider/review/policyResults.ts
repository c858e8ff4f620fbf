/**
 * A preview's policy violations where reviewers look: SARIF 2.1.0 for GitHub code scanning, and GitHub
 * workflow commands (`::error file=...,line=...::`) that annotate the pull request's diff. Each points at
 * the program line that declared the resource (./sourceLocations.ts). A run whose policies were not all
 * checked (no policy pack, a run that failed or did not finish) says so, and claims no clean result.
 */
import { createHash } from "node:crypto";
import { type EngineOutput, type PolicyViolation } from "./engineOutput";
import { typeName } from "./kindView";
import { visibleText } from "./markdownText";
import { withoutWorkflowCommands } from "./workflowCommands";
import { isStackWide, nameOfUrn, typeOfUrn } from "./urn";
import { locationOf, type LocationOptions, type SourceLocation } from "./sourceLocations";

const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";
const TOOL = "codesec-policy";

/** Why the violations listed are not all there are; undefined when every policy was checked. */
export function policyGap(output: EngineOutput): string | undefined {
  if (!output.policiesKnown)
    return "`pulumi preview --json` leaves policy events out: give the event log (--events)";
  if (output.notRun) return "the preview did not run: nothing was checked";
  if (output.policyPackLoaded !== true && output.violations.length === 0) return "no policy pack ran";
  if (output.unfinished) return "the preview did not finish: policies were not fully checked";
  const mandatory = output.violations.some((v) => v.enforcementLevel === "mandatory");
  if (output.errors.length > 0 || (output.result === "failed" && !mandatory)) {
    return "the preview failed: policies were not fully checked";
  }
  return undefined;
}

function subject(violation: PolicyViolation): string {
  return isStackWide(violation.urn)
    ? "stack"
    : `${typeName(typeOfUrn(violation.urn))} "${nameOfUrn(violation.urn)}"`;
}

// A SARIF message's text shows its invisible characters as in the summary, and makes no link: `[` and
// `]` (which open an embedded link), and a `\` before them, are escaped with a backslash (SARIF 2.1.0).
const sarifText = (text: string) => visibleText(text, 1000).replace(/\\(?=[[\]])|[[\]]/g, "\\$&");

const levelOf = (violation: PolicyViolation) =>
  violation.enforcementLevel === "mandatory" ? "error" : "warning";

function sorted(violations: readonly PolicyViolation[]): PolicyViolation[] {
  return [...violations].sort(
    (a, b) =>
      Number(b.enforcementLevel === "mandatory") - Number(a.enforcementLevel === "mandatory") ||
      a.policyName.localeCompare(b.policyName) ||
      a.urn.localeCompare(b.urn),
  );
}

function region(location: SourceLocation): Record<string, number> {
  return {
    startLine: location.line,
    ...(location.column !== undefined ? { startColumn: location.column } : {}),
  };
}

/** The SARIF 2.1.0 log of a preview's policy violations (one document, with a final newline). */
export function policySarif(output: EngineOutput, options: LocationOptions = {}): string {
  const violations = sorted(output.violations);
  const ruleIds = [...new Set(violations.map((v) => v.policyName))].sort();
  const rules = ruleIds.map((id) => {
    const first = violations.find((v) => v.policyName === id)!;
    return {
      id,
      name: id,
      shortDescription: { text: first.description ?? id },
      defaultConfiguration: { level: levelOf(first) },
      properties: { policyPack: first.policyPackName },
    };
  });
  const results = violations.map((violation) => {
    const location = locationOf(violation.urn, output, options);
    return {
      ruleId: violation.policyName,
      ruleIndex: ruleIds.indexOf(violation.policyName),
      level: levelOf(violation),
      message: { text: sarifText(`${subject(violation)}: ${violation.message}`) },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: location.file }, region: region(location) },
          ...(violation.urn !== ""
            ? {
                logicalLocations: [
                  { name: nameOfUrn(violation.urn), fullyQualifiedName: violation.urn, kind: "resource" },
                ],
              }
            : {}),
        },
      ],
      partialFingerprints: {
        "codesecViolation/v1": createHash("sha256")
          .update(`${violation.policyName}\0${violation.urn}`)
          .digest("hex"),
      },
    };
  });
  const gap = policyGap(output);
  const log = {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: TOOL, rules } },
        invocations: [
          {
            executionSuccessful: gap === undefined,
            ...(gap !== undefined
              ? {
                  toolExecutionNotifications: [
                    { level: "warning", message: { text: `Policies not fully checked: ${gap}.` } },
                  ],
                }
              : {}),
          },
        ],
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

// A workflow command's data ends at a line break (which would let the rest run as a command of its own);
// its properties also end at `,` and `:`. Control and bidi characters are written out, as in the summary,
// and `##[` is broken (the runner would take it as a command of its own).
const escapeData = (text: string) =>
  withoutWorkflowCommands(visibleText(text, 1000))
    .replace(/%/g, "%25")
    .replace(/\r/g, "%0D")
    .replace(/\n/g, "%0A");
const escapeProperty = (text: string) => escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** GitHub workflow commands, one line each: an error per mandatory violation, a warning per advisory one. */
export function policyAnnotations(output: EngineOutput, options: LocationOptions = {}): string {
  const lines = sorted(output.violations).map((violation) => {
    const location = locationOf(violation.urn, output, options);
    const properties = [
      `file=${escapeProperty(location.file)}`,
      `line=${location.line}`,
      ...(location.column !== undefined ? [`col=${location.column}`] : []),
      `title=${escapeProperty(`${violation.enforcementLevel} policy ${violation.policyName}`)}`,
    ].join(",");
    return `::${levelOf(violation)} ${properties}::${escapeData(`${subject(violation)}: ${violation.message}`)}`;
  });
  const gap = policyGap(output);
  if (gap !== undefined) lines.push(`::warning title=codesec policies not fully checked::${escapeData(gap)}`);
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}
