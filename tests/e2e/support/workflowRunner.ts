/**
 * Runs one job of a GitHub Actions workflow file on this machine, as a runner would: its `run:` steps
 * exactly as written, in order, with bash, and each `uses:` step through a stand-in the test supplies
 * (a step whose action has no stand-in fails the run: nothing is skipped quietly). What the runner
 * provides is provided for real: `${{ }}` expressions (the contexts `vars`, `secrets`, `github`, `env`,
 * `steps` and the status functions), `if:` conditions, `env:` at workflow, job and step level,
 * `working-directory`, the default shell (`bash -e {0}`), `GITHUB_API_URL` (from `github.api_url`), and
 * the files `GITHUB_OUTPUT` (read back into `steps.<id>.outputs`) and `GITHUB_STEP_SUMMARY` (one per
 * step, joined as the job summary).
 * Workflow features this runner does not implement (`GITHUB_ENV`, `GITHUB_PATH`, other shells,
 * `continue-on-error`, matrices, services, any key it does not know, and `${{ }}` inside a `run:` script,
 * which GitHub substitutes into the script's text) make it throw before any step runs, so a workflow that
 * starts using one fails the test instead of running differently. So does a `run:` script that calls
 * `npm exec` or `npx` without `--no`: npm (which assumes `--yes` in CI) would fetch and run a registry
 * package of that name, with the job's secrets in its environment, when the local one is missing.
 *
 * Each step runs in a process group of its own, ended whole when the step ends (GitHub ends leftover
 * processes at the job's end; no step here starts one a later step needs) or when its time is up:
 * `timeout-minutes` of the step (a failed step, as on GitHub), of the job, or the test's `stepTimeoutMs`
 * (either of these throws: the job is cut short, which the test must not read as a result).
 *
 * A `run:` step's output goes through the e2e suite's check (cliOutput.ts): one that exits 0 showing an
 * error the test did not name in `expectErrors`, or any that shows a provider's crash, throws.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { assertNoUnexpectedErrors } from "./cliOutput";

// js-yaml (a devDependency; also what @pulumi/pulumi parses YAML with) ships no typings of its own.
const yaml = require("js-yaml") as { load(text: string): unknown };

export interface WorkflowStep {
  id?: string;
  name?: string;
  uses?: string;
  with?: Record<string, unknown>;
  run?: string;
  env?: Record<string, unknown>;
  if?: unknown;
  shell?: string;
  "working-directory"?: string;
  "timeout-minutes"?: number;
}

export interface WorkflowJob {
  if?: unknown;
  env?: Record<string, unknown>;
  defaults?: { run?: { shell?: string; "working-directory"?: string } };
  strategy?: unknown;
  services?: unknown;
  container?: unknown;
  "timeout-minutes"?: number;
  steps: WorkflowStep[];
}

export interface Workflow {
  name?: string;
  env?: Record<string, unknown>;
  defaults?: { run?: { shell?: string; "working-directory"?: string } };
  jobs: Record<string, WorkflowJob>;
}

/** The workflow file, parsed. */
export function readWorkflow(file: string): Workflow {
  const parsed = yaml.load(readFileSync(file, "utf8")) as Workflow;
  if (!parsed || typeof parsed.jobs !== "object") throw new Error(`${file}: no jobs`);
  return parsed;
}

/** A `uses:` step's stand-in: it gets the step's `with:` inputs (expressions evaluated). */
export type ActionStandIn = (
  inputs: Record<string, string>,
  job: { env: Record<string, string> },
) => ActionResult | Promise<ActionResult>;

export interface ActionResult {
  /** Folders the action puts first on PATH for the steps after it (as setup actions do). */
  addPath?: string[];
  outputs?: Record<string, string>;
}

export interface RunnerOptions {
  /** GITHUB_WORKSPACE: the checkout, and every step's default working directory. */
  workspace: string;
  /** RUNNER_TEMP, emptied of nothing: the job's scratch folder. */
  runnerTemp: string;
  /** HOME of the steps: a runner's own home, not the test's. */
  home: string;
  /** PATH entries of the runner image before any setup action (the system's come after). */
  path: string[];
  vars: Record<string, string>;
  secrets: Record<string, string>;
  /** The `github` context (event, repository, ...). */
  github: Record<string, unknown>;
  /** Stand-ins by action name without the version: `actions/checkout`. */
  actions: Record<string, ActionStandIn>;
  /** Extra environment of every step that a runner also has (e.g. TMPDIR). */
  extraEnv?: Record<string, string>;
  /** The longest a step may take here, whatever the workflow allows (default: 10 minutes). */
  stepTimeoutMs?: number;
  /** Names of the `run:` steps whose output may show an error although they exit 0 (the test asserts it). */
  expectErrors?: string[];
}

export interface StepResult {
  name: string;
  id?: string;
  /** `skipped` when its `if:` was false. */
  outcome: "success" | "failure" | "skipped";
  /** The shell's exit code (`run:` steps that ran; null when it was killed). */
  exitCode?: number | null;
  /** The step's `timeout-minutes` ran out (it was killed and failed). */
  timedOut?: true;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  /** What the step appended to GITHUB_STEP_SUMMARY. */
  summary: string;
}

export interface JobResult {
  conclusion: "success" | "failure" | "skipped";
  steps: StepResult[];
  /** The job summary: the steps' summaries in order, as GitHub shows it. */
  summary: string;
}

// ---- expressions -------------------------------------------------------------------------------------

type Value = string | number | boolean | null | Record<string, unknown> | unknown[];

interface ExpressionContext {
  contexts: Record<string, unknown>;
  status: { failed: boolean };
}

const TOKEN =
  /\s*(?:(\|\||&&|==|!=|<=|>=|[()!<>])|'((?:[^']|'')*)'|(-?\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_*][A-Za-z0-9_-]*)*))/y;

function tokenize(expression: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < expression.length) {
    if (/^\s*$/.test(expression.slice(at))) break;
    TOKEN.lastIndex = at;
    const match = TOKEN.exec(expression);
    if (!match) throw new Error(`expression not supported here: ${expression} (at ${at})`);
    if (match[2] !== undefined) tokens.push(`'${match[2]}`);
    else tokens.push(match[1] ?? match[3] ?? match[4]);
    at = TOKEN.lastIndex;
  }
  return tokens;
}

/** GitHub's coercion for comparisons of different types: to a number (null 0, '' 0, true 1). */
function toNumber(value: Value): number {
  if (value === null) return 0;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return value;
  if (typeof value === "string") return value.trim() === "" ? 0 : Number(value);
  return NaN;
}

function equal(a: Value, b: Value): boolean {
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b && (typeof a !== "object" || a === null)) return a === b;
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) return a === b;
  return toNumber(a) === toNumber(b);
}

function truthy(value: Value): boolean {
  return !(value === false || value === null || value === "" || value === 0 || Number.isNaN(value));
}

function lookup(contexts: Record<string, unknown>, dotted: string): Value {
  let value: unknown = contexts;
  for (const part of dotted.split(".")) {
    if (value === null || typeof value !== "object") return null;
    const record = value as Record<string, unknown>;
    const key = Object.keys(record).find((k) => k.toLowerCase() === part.toLowerCase());
    value = key === undefined ? null : record[key];
  }
  return (value ?? null) as Value;
}

const STATUS_FUNCTIONS: Record<string, (status: { failed: boolean }) => boolean> = {
  success: (s) => !s.failed,
  failure: (s) => s.failed,
  cancelled: () => false,
  always: () => true,
};

function evaluate(expression: string, context: ExpressionContext): Value {
  const tokens = tokenize(expression);
  let i = 0;
  const peek = () => tokens[i];
  const take = (expected?: string) => {
    const token = tokens[i++];
    if (expected !== undefined && token !== expected) {
      throw new Error(`expected ${expected} in ${expression}, got ${token}`);
    }
    return token;
  };
  const or = (): Value => {
    let left = and();
    while (peek() === "||") {
      take();
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const and = (): Value => {
    let left = comparison();
    while (peek() === "&&") {
      take();
      const right = comparison();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const comparison = (): Value => {
    const left = unary();
    const op = peek();
    if (op === "==" || op === "!=") {
      take();
      const same = equal(left, unary());
      return op === "==" ? same : !same;
    }
    if (op === "<" || op === ">" || op === "<=" || op === ">=") {
      throw new Error(`ordering comparisons are not supported by this runner: ${expression}`);
    }
    return left;
  };
  const unary = (): Value => {
    if (peek() === "!") {
      take();
      return !truthy(unary());
    }
    return primary();
  };
  const primary = (): Value => {
    const token = take();
    if (token === undefined) throw new Error(`unexpected end of ${expression}`);
    if (token === "(") {
      const value = or();
      take(")");
      return value;
    }
    if (token.startsWith("'")) return token.slice(1).replace(/''/g, "'");
    if (/^-?\d/.test(token)) return Number(token);
    if (token === "true" || token === "false") return token === "true";
    if (token === "null") return null;
    if (peek() === "(") {
      const fn = STATUS_FUNCTIONS[token];
      if (!fn) throw new Error(`function ${token}() is not supported by this runner: ${expression}`);
      take("(");
      take(")");
      return fn(context.status);
    }
    const root = token.split(".")[0];
    if (!(root in context.contexts)) throw new Error(`context ${root} is not available: ${expression}`);
    return lookup(context.contexts, token);
  };
  const value = or();
  if (i !== tokens.length) throw new Error(`unexpected ${tokens[i]} in ${expression}`);
  return value;
}

function asText(value: Value): string {
  if (value === null) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** A string with its `${{ }}` parts evaluated. */
function interpolate(text: string, context: ExpressionContext): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => asText(evaluate(expression, context)));
}

/** An `if:` condition: `${{ }}` optional, and `success() &&` implied unless it calls a status function. */
function condition(raw: unknown, context: ExpressionContext): boolean {
  if (raw === undefined) return !context.status.failed;
  if (typeof raw === "boolean") return raw && !context.status.failed;
  if (typeof raw !== "string") throw new Error(`if: ${JSON.stringify(raw)} is not supported by this runner`);
  let text = raw.trim();
  const wrapped = /^\$\{\{(.*)\}\}$/s.exec(text);
  if (wrapped) text = wrapped[1];
  const callsStatus = /\b(success|failure|cancelled|always)\s*\(/.test(text);
  return truthy(evaluate(callsStatus ? text : `success() && (${text})`, context));
}

function evaluatedEnv(
  env: Record<string, unknown> | undefined,
  context: ExpressionContext,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env ?? {})) out[name] = interpolate(String(value), context);
  return out;
}

// ---- the job -----------------------------------------------------------------------------------------

/** Lines `name=value` and blocks `name<<DELIMITER` ... `DELIMITER`, as GitHub reads GITHUB_OUTPUT. */
function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === "") continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) value.push(lines[i]);
      if (i >= lines.length) throw new Error(`GITHUB_OUTPUT: no closing ${heredoc[2]}`);
      outputs[heredoc[1]] = value.join("\n");
      continue;
    }
    const eq = line.indexOf("=");
    if (eq < 1) throw new Error(`GITHUB_OUTPUT: cannot read line ${JSON.stringify(line)}`);
    outputs[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return outputs;
}

/** Ends a step's process group (the shell and whatever it started); gone already is fine. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

function runScript(
  args: string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    // A group of its own, so that a timeout or the step's end can end everything the script started.
    const child = spawn("bash", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutMs);
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // The shell's exit: what it left running (holding the pipes open, or not) ends with it.
    child.once("exit", () => killGroup(child));
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** The shell command line of a `run:` step, as GitHub builds it for bash (other shells: not here). */
function shellArgs(shell: string | undefined, script: string): string[] {
  if (shell === undefined) return ["-e", script];
  if (shell === "bash") return ["--noprofile", "--norc", "-eo", "pipefail", script];
  throw new Error(`shell ${shell} is not supported by this runner`);
}

// The keys this runner implements (or, like `permissions`, that change nothing on this machine).
const WORKFLOW_KEYS = new Set([
  "name",
  "run-name",
  "on",
  "permissions",
  "concurrency",
  "env",
  "defaults",
  "jobs",
]);
const JOB_KEYS = new Set([
  "name",
  "runs-on",
  "if",
  "permissions",
  "env",
  "defaults",
  "timeout-minutes",
  "steps",
]);
const STEP_KEYS = new Set([
  "id",
  "name",
  "uses",
  "with",
  "run",
  "env",
  "if",
  "shell",
  "working-directory",
  "timeout-minutes",
]);
const DEFAULTS_RUN_KEYS = new Set(["shell", "working-directory"]);

function unknownKeys(where: string, value: unknown, known: Set<string>): string[] {
  if (value === undefined) return [];
  if (typeof value !== "object" || value === null) return [`${where} is not a mapping`];
  return Object.keys(value)
    .filter((key) => !known.has(key))
    .map((key) => `${where}.${key} is not supported by this runner`);
}

// `npm exec` / `npx` wherever they appear as words (a comment's too: erring on the side of refusing),
// and the rest of the line, whose options before `--` must hold `--no`.
const NPM_EXEC = /(?<![\w-])(?:npm\s+exec|npx)(?![\w-])([^\n]*)/gm;

/**
 * What in job `jobName` of `workflow` this runner would run differently from GitHub, or must not run:
 * one line each (none: it can run).
 */
export function workflowProblems(workflow: Workflow, jobName: string): string[] {
  const problems = unknownKeys("workflow", workflow, WORKFLOW_KEYS);
  problems.push(...unknownKeys("workflow.defaults", workflow.defaults, new Set(["run"])));
  problems.push(...unknownKeys("workflow.defaults.run", workflow.defaults?.run, DEFAULTS_RUN_KEYS));
  const job = workflow.jobs[jobName];
  if (!job) return [...problems, `no job ${jobName}`];
  const at = `jobs.${jobName}`;
  problems.push(...unknownKeys(at, job, JOB_KEYS));
  problems.push(...unknownKeys(`${at}.defaults`, job.defaults, new Set(["run"])));
  problems.push(...unknownKeys(`${at}.defaults.run`, job.defaults?.run, DEFAULTS_RUN_KEYS));
  for (const [index, step] of (job.steps ?? []).entries()) {
    const where = `${at}.steps[${index}] (${step.name ?? step.uses ?? "unnamed"})`;
    problems.push(...unknownKeys(where, step, STEP_KEYS));
    if (step.run === undefined) continue;
    if (step.run.includes("${{")) {
      problems.push(
        `${where}: \${{ }} in run: GitHub substitutes it into the script's text (pass it through env: instead)`,
      );
    }
    for (const match of step.run.matchAll(NPM_EXEC)) {
      const options = match[1].split(/\s--(?:\s|$)/)[0];
      if (!/(?:^|\s)--no(?:\s|$)/.test(options)) {
        problems.push(
          `${where}: \`${match[0].trim()}\` without --no: npm would fetch and run a registry package of that name when the local bin is missing`,
        );
      }
    }
  }
  return problems;
}

/** Runs job `jobName` of `workflow` to its end and returns what a reader of the run would see. */
export async function runJob(
  workflow: Workflow,
  jobName: string,
  options: RunnerOptions,
): Promise<JobResult> {
  const problems = workflowProblems(workflow, jobName);
  if (problems.length > 0) throw new Error(problems.join("\n"));
  const job = workflow.jobs[jobName];
  const stepLimitMs = options.stepTimeoutMs ?? 10 * 60_000;
  const jobDeadline =
    job["timeout-minutes"] === undefined ? Infinity : Date.now() + job["timeout-minutes"] * 60_000;
  const status = { failed: false };
  const steps: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }> = {};
  const base = { vars: options.vars, secrets: options.secrets, github: options.github };
  const workflowEnv = evaluatedEnv(workflow.env, { contexts: { ...base }, status });
  const jobEnv = {
    ...workflowEnv,
    ...evaluatedEnv(job.env, { contexts: { ...base, env: workflowEnv }, status }),
  };
  if (!condition(job.if, { contexts: { ...base }, status })) {
    return { conclusion: "skipped", steps: [], summary: "" };
  }
  const defaults = { ...workflow.defaults?.run, ...job.defaults?.run };
  let pathEntries = [...options.path];
  const results: StepResult[] = [];

  for (const [index, step] of job.steps.entries()) {
    const name = step.name ?? step.uses ?? `step ${index + 1}`;
    const stepContext = (env: Record<string, string>): ExpressionContext => ({
      contexts: { ...base, env, steps },
      status,
    });
    if (!condition(step.if, stepContext(jobEnv))) {
      results.push({
        name,
        id: step.id,
        outcome: "skipped",
        stdout: "",
        stderr: "",
        outputs: {},
        summary: "",
      });
      if (step.id) steps[step.id] = { outputs: {}, outcome: "skipped", conclusion: "skipped" };
      continue;
    }
    const env = { ...jobEnv, ...evaluatedEnv(step.env, stepContext(jobEnv)) };
    const context = stepContext(env);
    let result: StepResult;

    if (step.uses !== undefined) {
      const action = step.uses.replace(/@.*$/, "");
      const standIn = options.actions[action];
      if (!standIn) throw new Error(`${name}: no stand-in for action ${step.uses}`);
      const inputs = Object.fromEntries(
        Object.entries(step.with ?? {}).map(([key, value]) => [key, interpolate(String(value), context)]),
      );
      const done = await standIn(inputs, { env });
      pathEntries = [...(done.addPath ?? []), ...pathEntries];
      result = {
        name,
        id: step.id,
        outcome: "success",
        stdout: "",
        stderr: "",
        outputs: done.outputs ?? {},
        summary: "",
      };
    } else if (step.run !== undefined) {
      const dir = path.join(options.runnerTemp, "_runner", `step-${index + 1}`);
      mkdirSync(dir, { recursive: true });
      const files = {
        script: path.join(dir, "script.sh"),
        GITHUB_OUTPUT: path.join(dir, "output"),
        GITHUB_STEP_SUMMARY: path.join(dir, "summary.md"),
        GITHUB_ENV: path.join(dir, "env"),
        GITHUB_PATH: path.join(dir, "path"),
      };
      for (const file of Object.values(files)) writeFileSync(file, "");
      writeFileSync(files.script, step.run);
      const workingDirectory = step["working-directory"] ?? defaults["working-directory"];
      const cwd = path.resolve(
        options.workspace,
        workingDirectory === undefined ? "." : interpolate(workingDirectory, context),
      );
      const stepLimit = step["timeout-minutes"] === undefined ? Infinity : step["timeout-minutes"] * 60_000;
      const jobLeft = jobDeadline - Date.now();
      const timeoutMs = Math.max(0, Math.min(stepLimit, jobLeft, stepLimitMs));
      const run = await runScript(
        shellArgs(step.shell ?? defaults.shell, files.script),
        cwd,
        {
          ...options.extraEnv,
          HOME: options.home,
          PATH: [...pathEntries, "/usr/local/bin", "/usr/bin", "/bin"].join(path.delimiter),
          LANG: "C.UTF-8",
          CI: "true",
          GITHUB_ACTIONS: "true",
          GITHUB_WORKSPACE: options.workspace,
          GITHUB_REPOSITORY: asText(lookup({ github: options.github }, "github.repository")),
          GITHUB_EVENT_NAME: asText(lookup({ github: options.github }, "github.event_name")),
          // The REST API's address, as every runner sets it: `github.api_url` of the context (a test's
          // stand-in of GitHub), else GitHub's.
          GITHUB_API_URL:
            asText(lookup({ github: options.github }, "github.api_url")) || "https://api.github.com",
          RUNNER_OS: "Linux",
          RUNNER_TEMP: options.runnerTemp,
          GITHUB_OUTPUT: files.GITHUB_OUTPUT,
          GITHUB_STEP_SUMMARY: files.GITHUB_STEP_SUMMARY,
          GITHUB_ENV: files.GITHUB_ENV,
          GITHUB_PATH: files.GITHUB_PATH,
          ...env,
        },
        timeoutMs,
      );
      if (run.timedOut && timeoutMs < stepLimit) {
        const limit =
          timeoutMs === stepLimitMs ? `the test's limit of ${stepLimitMs} ms` : "the job's timeout-minutes";
        throw new Error(
          `${name}: killed after ${limit} (this runner does not model a job cut short)\n${run.stdout}${run.stderr}`,
        );
      }
      assertNoUnexpectedErrors(
        { command: `step "${name}"`, code: run.code, output: run.stdout + run.stderr },
        options.expectErrors?.includes(name),
      );
      for (const unsupported of ["GITHUB_ENV", "GITHUB_PATH"] as const) {
        if (readFileSync(files[unsupported], "utf8") !== "") {
          throw new Error(`${name}: writes ${unsupported}, which this runner does not implement`);
        }
      }
      result = {
        name,
        id: step.id,
        outcome: run.code === 0 && !run.timedOut ? "success" : "failure",
        exitCode: run.code,
        ...(run.timedOut ? { timedOut: true as const } : {}),
        stdout: run.stdout,
        stderr: run.stderr,
        outputs: parseOutputFile(readFileSync(files.GITHUB_OUTPUT, "utf8")),
        summary: readFileSync(files.GITHUB_STEP_SUMMARY, "utf8"),
      };
    } else {
      throw new Error(`${name}: neither run nor uses`);
    }
    if (result.outcome === "failure") status.failed = true;
    if (step.id)
      steps[step.id] = { outputs: result.outputs, outcome: result.outcome, conclusion: result.outcome };
    results.push(result);
  }
  return {
    conclusion: status.failed ? "failure" : "success",
    steps: results,
    summary: results.map((r) => r.summary).join(""),
  };
}

/** The run as a log reader sees it (each step's outcome and output), for an assertion's message. */
export function runLog(job: JobResult): string {
  return job.steps
    .map((step) => `--- ${step.name}: ${step.outcome} (exit ${step.exitCode})\n${step.stdout}${step.stderr}`)
    .join("\n");
}
