/**
 * The two commands, `codesec-review` and `codesec-drift`, as functions of their arguments and input
 * (bin/ runs them with the process's): each prints its report on stdout, and its usage or what went wrong
 * on stderr, and returns its exit code.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { redactCommandOutput, withoutUrlCredentials } from "../../client/redaction";
import { mapWithLimit } from "./boundedConcurrency";
import { DRIFT_EXIT, driftJson, driftMarkdown, driftReport, type DriftReport } from "./driftReport";
import { EngineOutputError, parseEngineOutput, type EngineOutput } from "./engineOutput";
import { COMMENT_LIMIT } from "./markdownBudget";
import { policyAnnotations, policySarif } from "./policyResults";
import { commentMarker, upsertComment, type CommentTarget } from "./prComment";
import { reviewSummary, summaryTitle } from "./reviewSummary";
import { sourcePositionsOfState } from "./sourceLocations";
import {
  cliRefresh,
  projectName,
  projectStacks,
  StackListError,
  stopRefreshes,
  type RefreshRun,
  type RefreshStack,
} from "./stackRefresh";
import {
  BaselineError,
  parseBaseline,
  refreshDrift,
  stacksDrift,
  stacksDriftJson,
  stacksDriftMarkdown,
  type Baseline,
  type DriftScope,
} from "./stacksDrift";
import { parseUrn } from "./urn";
import { jsonWithoutWorkflowCommands, withoutWorkflowCommands } from "./workflowCommands";

export interface CommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The standard input, read whole (when no file is named). */
  readonly stdin: () => string;
}

const REVIEW_USAGE = `usage: codesec-review [PREVIEW_JSON] [--events EVENT_LOG] [--format FORMAT]
                      [--state STACK_EXPORT] [--project-dir DIR]
  The reviewer's summary of a preview, on stdout.
  PREVIEW_JSON   what \`pulumi preview --json\` printed ("-" or absent: standard input)
  --events       the engine's event log of the same preview (PULUMI_DEBUG_COMMANDS=true pulumi preview
                 --event-log FILE): the policy violations, which \`--json\` leaves out; alone, it is enough
  --format       markdown (default: for a pull-request comment), sarif (SARIF 2.1.0 of the policy
                 violations, for GitHub code scanning) or annotations (GitHub workflow commands)
  --state        what \`pulumi stack export\` printed: where each resource was declared, for sarif and
                 annotations (the event log's states carry it when the engine records it there)
  --project-dir  the project's folder (holding Pulumi.yaml) relative to the repository's root (default .)
  --post-comment post the summary as the pull request's comment, or update the one posted before (found
                 by a hidden marker among --comment-author's comments, default github-actions[bot]), with
                 GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL and the pull request of GITHUB_EVENT_PATH
  --stack        the stack as organization/project/stack (what \`pulumi stack --show-name
                 --fully-qualify-stack-names\` prints): needed by --post-comment, whose marker names it
  --pr           the pull request's number, for --post-comment outside a pull_request event
Exit codes: 0 summary written (a preview that failed, did not run or did not finish included: the
summary's headline says so), 1 the input could not be read or the comment could not be posted.
`;

/** Refreshes run at once by default: a shared CI runner has few cores, and each refresh is a CLI process. */
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 32;

const DRIFT_USAGE = `usage: codesec-drift EVENT_LOG [--format markdown|json]
       codesec-drift (--stack STACK ... | --all-stacks) [--cwd DIR] [--concurrency N]
                     [--baseline FILE] [--format markdown|json]
  One stack: the drift report of \`PULUMI_DEBUG_COMMANDS=true pulumi refresh --preview-only --event-log
  EVENT_LOG\`. Many stacks: runs that refresh of each stack with the Pulumi CLI on PATH, and reports each
  stack and the total.
  --stack        a stack of the project in --cwd (repeat it for each stack)
  --all-stacks   every stack of the project in --cwd (its Pulumi.yaml's name) that \`pulumi stack ls\` lists
  --cwd          the project's folder, holding Pulumi.yaml (default .)
  --concurrency  refreshes run at once, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})
  --baseline     the last run's JSON report of this project and backend, which this run reads (absent:
                 every drift is new) and, when every refresh finished, replaces: only drift it did not
                 report is alerted
  --format       markdown (default; for a CI job summary) or json (for tools)
Exit codes: 0 no drift (many stacks: no new drift), 2 drift (new drift), 1 a refresh failed, did not run
or did not finish, or an input could not be read.
`;

function read(file: string | undefined, io: CommandIo): string {
  return file === undefined || file === "-" ? io.stdin() : readFileSync(file, "utf8");
}

/** An expected failure (bad arguments, a file that cannot be read, input that is no CLI output) prints its
 * message and the usage; anything else is a bug and prints its stack. */
/** A failure to read the input (a file that cannot be opened, output that is no CLI output), not a bug. */
function isInputError(error: unknown): error is Error {
  return (
    error instanceof EngineOutputError ||
    (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string")
  );
}

function failure(error: unknown, usage: string, io: CommandIo): number {
  const expected = isInputError(error) || error instanceof TypeError;
  const stack = error instanceof Error ? error.stack : undefined;
  io.stderr(expected ? `${error.message}\n${usage}` : `${stack ?? String(error)}\n`);
  return 1;
}

/**
 * A JSON preview with what only the same run's event log holds: the policy violations and the run's
 * result. A preview with a plan ran, whatever the log says; a log without its summary then means the run
 * (and so its policy checks) did not finish.
 */
function withEvents(preview: EngineOutput, events: EngineOutput): EngineOutput {
  const { notRun, unfinished, ...plan } = preview;
  return {
    ...plan,
    violations: events.violations,
    policiesKnown: true,
    ...(events.policyPackLoaded ? { policyPackLoaded: events.policyPackLoaded } : {}),
    errors: [...preview.errors, ...events.errors.filter((e) => !preview.errors.includes(e))],
    ...(events.result !== undefined ? { result: events.result } : {}),
    ...(notRun
      ? { notRun }
      : unfinished || events.notRun || events.unfinished
        ? { unfinished: true as const }
        : {}),
  };
}

const REVIEW_OPTIONS = {
  events: { type: "string" },
  format: { type: "string", default: "markdown" },
  state: { type: "string" },
  "project-dir": { type: "string", default: "." },
  "post-comment": { type: "boolean" },
  pr: { type: "string" },
  stack: { type: "string" },
  "comment-author": { type: "string", default: "github-actions[bot]" },
  help: { type: "boolean", short: "h" },
} as const;

/** What `codesec-review` prints, and the comment to post it as (`--post-comment`). */
interface Review {
  readonly text: string;
  readonly comment?: { readonly target: CommentTarget; readonly marker: string };
  /** The run failed once the stack was known: the comment posted says so, and the command fails with this error. */
  readonly failed?: unknown;
}

/**
 * The comment that replaces a stack's summary when the review fails: the summary posted for an earlier
 * push must not stand as this one's.
 */
function failedSummary(error: unknown): string {
  const what = isInputError(error) ? "could not read the preview's output" : "failed";
  return (
    `${summaryTitle()}\n\n` +
    `❗ The summary could not be written: codesec-review ${what} (see the job's log). Nothing here describes this push.\n`
  );
}

/**
 * The preview's output: the JSON preview with the event log's policy events, or either alone. A JSON
 * preview that cannot be read beside an event log that can is left aside: the event log holds the same
 * plan, and says by itself whether the run finished.
 */
function readOutput(preview: string | undefined, events: string | undefined, io: CommandIo): EngineOutput {
  const log = events !== undefined ? parseEngineOutput(read(events, io)) : undefined;
  if (log === undefined) return parseEngineOutput(read(preview, io));
  if (preview === undefined) return log;
  let plan: EngineOutput;
  try {
    plan = parseEngineOutput(read(preview, io));
  } catch (error) {
    if (error instanceof EngineOutputError) return log;
    throw error;
  }
  return withEvents(plan, log);
}

/** Where `--post-comment` posts: the workflow's repository, token and pull request (`--pr`, or the event's). */
function commentTarget(pr: string | undefined, author: string, env: NodeJS.ProcessEnv): CommentTarget {
  const token = env.GITHUB_TOKEN || env.GH_TOKEN;
  if (!token) throw new TypeError("--post-comment needs the workflow's token in GITHUB_TOKEN (or GH_TOKEN)");
  const repository = env.GITHUB_REPOSITORY ?? "";
  if (!/^[\w.-]+\/[\w.-]+$/.test(repository)) {
    throw new TypeError(`--post-comment needs GITHUB_REPOSITORY as owner/name, got "${repository}"`);
  }
  let number = pr;
  if (number === undefined && env.GITHUB_EVENT_PATH) {
    const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, "utf8")) as {
      pull_request?: { number?: unknown };
    };
    const fromEvent = event.pull_request?.number;
    number = typeof fromEvent === "number" || typeof fromEvent === "string" ? String(fromEvent) : undefined;
  }
  if (number === undefined || !/^[1-9]\d*$/.test(number)) {
    throw new TypeError(
      `--post-comment needs the pull request's number (--pr N, or a pull_request event), got ${number ?? "none"}`,
    );
  }
  return {
    apiUrl: env.GITHUB_API_URL || "https://api.github.com",
    repository,
    pullRequest: Number(number),
    token,
    author,
  };
}

// Organization, project and stack names: letters, digits, `-`, `_` and `.`.
const STACK_PATH = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/** `--stack`, checked to be organization/project/stack. */
function stackPath(stack: string | undefined): string {
  if (stack === undefined) {
    throw new TypeError(
      "--post-comment needs the stack as --stack organization/project/stack (what `pulumi stack --show-name --fully-qualify-stack-names` prints): the comment is found again by it",
    );
  }
  if (!STACK_PATH.test(stack)) {
    throw new TypeError(
      `--stack must be organization/project/stack (letters, digits, "-", "_" and "."), got ${JSON.stringify(stack)}`,
    );
  }
  return stack;
}

/**
 * The stack whose comment `--post-comment` keeps: `--stack` as organization/project/stack, known even
 * when the preview did not run; a preview of another project or stack is refused, since its summary
 * would replace that stack's comment.
 */
function commentStack(given: string | undefined, output: EngineOutput): string {
  const stack = stackPath(given);
  const [, project, name] = stack.split("/");
  const urns = [
    ...output.steps.map((step) => step.urn),
    ...output.refreshed.map((step) => step.urn),
    ...output.violations.map((violation) => violation.urn),
  ];
  const other = urns
    .map(parseUrn)
    .find((urn) => urn !== undefined && (urn.project !== project || urn.stack !== name));
  if (other !== undefined) {
    throw new TypeError(
      `--stack ${stack}: the preview is of another project or stack; give the stack that was previewed`,
    );
  }
  return stack;
}

function review(args: readonly string[], io: CommandIo, env: NodeJS.ProcessEnv): Review {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: REVIEW_OPTIONS,
    allowPositionals: true,
  });
  if (values.help) return { text: REVIEW_USAGE };
  if (positionals.length > 1) throw new TypeError(`one preview at a time, got ${positionals.length}`);
  const format = values.format;
  if (format !== "markdown" && format !== "sarif" && format !== "annotations") {
    throw new TypeError(`--format must be markdown, sarif or annotations, got ${format}`);
  }
  if (values["post-comment"] && format !== "markdown") {
    throw new TypeError("--post-comment posts the Markdown summary: leave out --format, or give markdown");
  }
  const target = values["post-comment"] ? commentTarget(values.pr, values["comment-author"], env) : undefined;
  if (target !== undefined) stackPath(values.stack);
  let output: EngineOutput;
  try {
    output = readOutput(positionals[0], values.events, io);
  } catch (error) {
    if (target === undefined) throw error;
    const marker = commentMarker(stackPath(values.stack));
    return { text: `${marker}\n${failedSummary(error)}`, comment: { target, marker }, failed: error };
  }
  if (format === "markdown") {
    if (target === undefined) return { text: withoutWorkflowCommands(reviewSummary(output)) };
    // A preview of another stack posts nothing: this stack's comment is not its to replace.
    const marker = commentMarker(commentStack(values.stack, output));
    try {
      const summary = withoutWorkflowCommands(reviewSummary(output, COMMENT_LIMIT - marker.length - 1));
      return { text: `${marker}\n${summary}`, comment: { target, marker } };
    } catch (error) {
      return { text: `${marker}\n${failedSummary(error)}`, comment: { target, marker }, failed: error };
    }
  }
  if (!output.policiesKnown) {
    throw new EngineOutputError(
      `--format ${format} lists policy violations, which \`pulumi preview --json\` leaves out: give the event log (--events)`,
    );
  }
  const locations = {
    projectDir: values["project-dir"],
    ...(values.state !== undefined
      ? { positions: sourcePositionsOfState(readFileSync(values.state, "utf8")) }
      : {}),
  };
  return {
    text:
      format === "sarif"
        ? jsonWithoutWorkflowCommands(policySarif(output, locations))
        : policyAnnotations(output, locations),
  };
}

/**
 * `codesec-review` without `--post-comment` (which posts, asynchronously: {@link reviewMain}).
 */
export function reviewCommand(args: readonly string[], io: CommandIo, env: NodeJS.ProcessEnv = {}): number {
  try {
    const { text, comment } = review(args, io, env);
    if (comment !== undefined) throw new TypeError("--post-comment: run codesec-review (reviewMain) to post");
    io.stdout(text);
    return 0;
  } catch (error) {
    return failure(error, REVIEW_USAGE, io);
  }
}

/**
 * `codesec-review` as bin/ runs it: the summary on stdout, and with `--post-comment` the pull request's
 * comment created or updated. A comment that cannot be posted fails the command (exit 1).
 */
export async function reviewMain(
  args: readonly string[],
  io: CommandIo,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  let posting: Review;
  try {
    posting = review(args, io, env);
  } catch (error) {
    return failure(error, REVIEW_USAGE, io);
  }
  // A failure once the stack is known fails the command, after its note replaces the stack's summary.
  const code = posting.failed !== undefined ? failure(posting.failed, REVIEW_USAGE, io) : 0;
  if (posting.failed === undefined) io.stdout(posting.text);
  if (posting.comment === undefined) return code;
  try {
    const { action, url } = await upsertComment(posting.comment.target, posting.comment.marker, posting.text);
    io.stderr(`codesec-review: ${action} the pull request's comment${url ? ` ${url}` : ""}\n`);
    return code;
  } catch (error) {
    io.stderr(
      `codesec-review: could not post the summary: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
}

/** `codesec-drift`. */
export function driftCommand(args: readonly string[], io: CommandIo): number {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { format: DRIFT_OPTIONS.format, help: DRIFT_OPTIONS.help },
      allowPositionals: true,
    });
    if (values.help) {
      io.stdout(DRIFT_USAGE);
      return DRIFT_EXIT.none;
    }
    if (values.format !== "markdown" && values.format !== "json") {
      throw new TypeError(`--format must be markdown or json, got ${values.format}`);
    }
    if (positionals.length > 1) throw new TypeError(`one event log at a time, got ${positionals.length}`);
    const output = parseEngineOutput(read(positionals[0], io));
    if (output.refreshed.length === 0 && !output.policiesKnown) {
      throw new EngineOutputError(
        "this is `pulumi ... --json` output, which shows no refreshed value: give the engine's event log " +
          "(PULUMI_DEBUG_COMMANDS=true pulumi refresh --preview-only --event-log FILE)",
      );
    }
    const report = driftReport(output);
    io.stdout(
      values.format === "json"
        ? jsonWithoutWorkflowCommands(driftJson(report))
        : withoutWorkflowCommands(driftMarkdown(report)),
    );
    return report.exitCode;
  } catch (error) {
    return failure(error, DRIFT_USAGE, io);
  }
}

const DRIFT_OPTIONS = {
  format: { type: "string", default: "markdown" },
  help: { type: "boolean", short: "h" },
  stack: { type: "string", multiple: true },
  "all-stacks": { type: "boolean" },
  cwd: { type: "string", default: "." },
  concurrency: { type: "string", default: String(DEFAULT_CONCURRENCY) },
  baseline: { type: "string" },
} as const;

/** The flags of the many-stack check alone. */
const MANY_STACKS_ONLY = ["--cwd", "--concurrency", "--baseline"];

// A stack as `pulumi --stack` takes it: a name, project/name or organization/project/name.
const STACK_NAME = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_.][A-Za-z0-9_.-]*){0,2}$/;

/** Environment variables whose values are secrets, redacted from every error the report shows. */
const SECRET_VARIABLES = [
  "CODESEC_TOKEN",
  "PULUMI_ACCESS_TOKEN",
  "PULUMI_CONFIG_PASSPHRASE",
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AZURE_STORAGE_KEY",
  "AZURE_STORAGE_SAS_TOKEN",
  "AZURE_CLIENT_SECRET",
  "ARM_CLIENT_SECRET",
  "GOOGLE_CREDENTIALS",
];

/**
 * The secrets the Pulumi CLI may quote in its errors: the values of {@link SECRET_VARIABLES}, the
 * password of PULUMI_BACKEND_URL (a CLI may quote it away from its URL) and the content of
 * PULUMI_CONFIG_PASSPHRASE_FILE. URLs' credentials are redacted wherever they appear
 * ({@link redactCommandOutput}).
 */
function secretsOf(env: NodeJS.ProcessEnv): string[] {
  const secrets = SECRET_VARIABLES.map((name) => env[name] ?? "");
  try {
    const backend = new URL(env.PULUMI_BACKEND_URL ?? "");
    secrets.push(decodeURIComponent(backend.password));
  } catch {
    // No backend URL, or none with a password.
  }
  if (env.PULUMI_CONFIG_PASSPHRASE_FILE) {
    try {
      const passphrase = readFileSync(env.PULUMI_CONFIG_PASSPHRASE_FILE, "utf8");
      secrets.push(passphrase, passphrase.trim());
    } catch {
      // Unreadable: the CLI cannot read it either, and says so without its content.
    }
  }
  return [...new Set(secrets.filter((value) => value !== ""))];
}

/** How the many-stack check gets its stacks and their refreshes (the CLI; tests inject their own). */
export interface StackRefresher {
  /** The project's name (its Pulumi.yaml's). */
  readonly project: string;
  readonly refresh: RefreshStack;
  readonly listStacks: () => Promise<string[]>;
}

function concurrencyOf(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_CONCURRENCY) {
    throw new TypeError(
      `--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY} (refreshes run at once), got ${JSON.stringify(value)}`,
    );
  }
  return Number(value);
}

/** The project and backend a run checks, as its report records them. */
function scopeOf(project: string, env: NodeJS.ProcessEnv): DriftScope {
  const backend = env.PULUMI_BACKEND_URL;
  return { project, ...(backend ? { backend: withoutUrlCredentials(backend) } : {}) };
}

function describeScope(scope: DriftScope): string {
  return `project ${scope.project} on ${scope.backend ?? "the backend the Pulumi CLI is logged in to"}`;
}

function readBaseline(file: string, io: CommandIo, scope: DriftScope): Baseline | undefined {
  let content: string;
  try {
    content = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    io.stderr(
      `codesec-drift: no baseline at ${file} yet (a first run): every drift counts as new; this run writes it.\n`,
    );
    return undefined;
  }
  let baseline: Baseline;
  try {
    baseline = parseBaseline(content);
  } catch (error) {
    throw new BaselineError(
      `the baseline ${file} cannot be read: ${(error as Error).message}. It must be the JSON report a run of ` +
        "codesec-drift with --baseline wrote: restore the job's last one, or delete the file to start over " +
        "(every drift then counts as new).",
    );
  }
  const of = baseline.scope;
  if (of !== undefined && (of.project !== scope.project || of.backend !== scope.backend)) {
    throw new BaselineError(
      `the baseline ${file} is the report of ${describeScope(of)}, and this run checks ${describeScope(scope)}: ` +
        "give --baseline this project's own file (one file per project and backend), or delete the file to " +
        "start over (every drift then counts as new).",
    );
  }
  return baseline;
}

/** Lines of a failed stack's CLI output shown on stderr: the end, where the CLI says why it stopped. */
const CLI_TAIL_LINES = 20;

/** The end of what the CLI printed for a failed stack, redacted, for the job's log. */
function cliOutputTail(stack: string, output: string, secrets: readonly string[]): string {
  const lines = redactCommandOutput(output, secrets).split("\n").slice(-CLI_TAIL_LINES);
  return withoutWorkflowCommands(
    `codesec-drift: the end of the Pulumi CLI's output for stack ${stack}:\n${lines.map((line) => `  ${line}\n`).join("")}`,
  );
}

/** The baseline could not be written (the report was printed). */
class BaselineWriteError extends Error {}

/**
 * Writes the baseline whole or not at all: a partial file renamed over it, so that a reader (or a run
 * stopped while writing) sees the last baseline or the new one, never part of one.
 */
function writeBaseline(file: string, content: string, exitCode: number): void {
  const partial = `${file}.${process.pid}.partial`;
  try {
    writeFileSync(partial, content);
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "its folder does not exist"
        : code === "EISDIR"
          ? "a folder is in its place"
          : (error as Error).message;
    throw new BaselineWriteError(
      `could not write the baseline ${file} (${why}): give --baseline a file in a folder that exists and can ` +
        "be written. The next run compares with the last baseline written, so this run's drift is alerted " +
        `again (without this failure the check would exit ${exitCode}).`,
    );
  }
}

/** The check of many stacks (--stack / --all-stacks). */
async function stacksDriftCommand(
  values: {
    stack?: string[];
    "all-stacks"?: boolean;
    cwd: string;
    concurrency: string;
    baseline?: string;
    format: string;
  },
  io: CommandIo,
  env: NodeJS.ProcessEnv,
  refresher: StackRefresher,
  stopped: () => NodeJS.Signals | undefined,
): Promise<number> {
  const limit = concurrencyOf(values.concurrency);
  if (values.stack !== undefined && values["all-stacks"]) {
    throw new TypeError("give --stack or --all-stacks, not both");
  }
  const secrets = secretsOf(env);
  const scope = scopeOf(refresher.project, env);
  const baseline = values.baseline !== undefined ? readBaseline(values.baseline, io, scope) : undefined;
  let stacks: string[];
  try {
    stacks = values.stack ?? (await refresher.listStacks());
  } catch (error) {
    const said =
      error instanceof StackListError ? `\n${redactCommandOutput(error.cliOutput.trim(), secrets)}` : "";
    throw new StackListError(`${(error as Error).message}${said}`, "");
  }
  if (stacks.length === 0) throw new TypeError(`no stack to check: the project in ${values.cwd} has none`);
  const bad = stacks.find((stack) => !STACK_NAME.test(stack));
  if (bad !== undefined) {
    throw new TypeError(
      `${JSON.stringify(bad)} is no stack name (letters, digits, "-", "_" and ".", as name, project/name or organization/project/name)`,
    );
  }
  if (new Set(stacks).size !== stacks.length) throw new TypeError("a stack is named twice");
  const outputs = new Map<string, string>();
  const reports = await mapWithLimit(stacks, limit, async (stack): Promise<DriftReport> => {
    const signal = stopped();
    if (signal !== undefined) {
      return {
        stack,
        drifted: [],
        unseen: [],
        errors: [`not started: the check was stopped (${signal})`],
        exitCode: DRIFT_EXIT.error,
      };
    }
    let run: RefreshRun;
    try {
      run = await refresher.refresh(stack);
    } catch (error) {
      run = {
        events: "",
        cliOutput: `error: could not run the Pulumi CLI: ${(error as Error).message}`,
        exitCode: null,
        signal: null,
      };
    }
    outputs.set(stack, run.cliOutput);
    return refreshDrift(stack, run);
  });
  const report = stacksDrift(scope, reports, baseline, secrets);
  io.stdout(
    values.format === "json"
      ? jsonWithoutWorkflowCommands(stacksDriftJson(report))
      : withoutWorkflowCommands(stacksDriftMarkdown(report)),
  );
  for (const stack of report.stacks) {
    const output = outputs.get(stack.stack)?.trim() ?? "";
    if (stack.status !== "error" || output === "") continue;
    io.stderr(cliOutputTail(stack.stack, output, secrets));
  }
  const signal = stopped();
  if (signal !== undefined) {
    io.stderr(
      `codesec-drift: stopped (${signal}) before every refresh finished${values.baseline !== undefined ? `: the baseline ${values.baseline} is left as it was` : ""}.\n`,
    );
    return DRIFT_EXIT.error;
  }
  if (values.baseline === undefined) return report.exitCode;
  if (report.total.failed > 0) {
    // Writing it would record this run's new drift as reported while the job fails for another
    // reason: the next run would then not alert it.
    const kept = existsSync(values.baseline) ? "is left as it was" : "is not written";
    io.stderr(
      `codesec-drift: a refresh failed: the baseline ${values.baseline} ${kept}, so this run's new drift is alerted again by the next run.\n`,
    );
    return report.exitCode;
  }
  writeBaseline(values.baseline, stacksDriftJson(report), report.exitCode);
  return report.exitCode;
}

/**
 * \`codesec-drift\` as bin/ runs it: one event log ({@link driftCommand}), or the refreshes of many stacks,
 * run by the Pulumi CLI (\`refresher\`: tests inject their own). SIGINT or SIGTERM stops the refreshes
 * still running; the report still shows every stack, and the baseline is left as it was.
 */
export async function driftMain(
  args: readonly string[],
  io: CommandIo,
  env: NodeJS.ProcessEnv,
  refresher?: StackRefresher,
): Promise<number> {
  let values: ReturnType<typeof parseDriftArgs>["values"];
  try {
    values = parseDriftArgs(args).values;
  } catch (error) {
    return failure(error, DRIFT_USAGE, io);
  }
  if (values.stack === undefined && !values["all-stacks"]) {
    const manyOnly = MANY_STACKS_ONLY.filter((flag) =>
      args.some((arg) => arg === flag || arg.startsWith(`${flag}=`)),
    );
    if (manyOnly.length > 0) {
      return failure(
        new TypeError(`${manyOnly.join(", ")}: for many stacks, with --stack or --all-stacks`),
        DRIFT_USAGE,
        io,
      );
    }
    return driftCommand(args, io);
  }
  let signal: NodeJS.Signals | undefined;
  const stop = (received: NodeJS.Signals) => {
    signal = received;
    stopRefreshes(received);
  };
  const watched = refresher === undefined;
  if (watched) {
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  }
  try {
    const cwd = path.resolve(values.cwd);
    const project = refresher?.project ?? projectName(cwd);
    const used = refresher ?? {
      project,
      refresh: cliRefresh(cwd, env),
      listStacks: () => projectStacks(cwd, env, project),
    };
    if (values.format !== "markdown" && values.format !== "json") {
      throw new TypeError(`--format must be markdown or json, got ${values.format}`);
    }
    return await stacksDriftCommand(values, io, env, used, () => signal);
  } catch (error) {
    if (
      error instanceof BaselineError ||
      error instanceof BaselineWriteError ||
      error instanceof StackListError
    ) {
      io.stderr(`codesec-drift: ${error.message}\n`);
      return DRIFT_EXIT.error;
    }
    return failure(error, DRIFT_USAGE, io);
  } finally {
    if (watched) {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    }
  }
}

function parseDriftArgs(args: readonly string[]) {
  const parsed = parseArgs({ args: [...args], options: DRIFT_OPTIONS, allowPositionals: true });
  if ((parsed.values.stack !== undefined || parsed.values["all-stacks"]) && parsed.positionals.length > 0) {
    throw new TypeError("give an event log, or --stack / --all-stacks to run the refreshes, not both");
  }
  return parsed;
}

/** The process's own input and output, for bin/. */
export const processIo: CommandIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: () => readFileSync(0, "utf8"),
};
