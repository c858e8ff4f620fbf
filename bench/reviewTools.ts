/**
 * The review tools on large event logs: `codesec-review` (the PR comment's Markdown) on a preview's event
 * log (and on one where every step touches the same user) and `codesec-drift` on a refresh's, of 500,
 * 5,000 and 50,000 steps, each run as a user runs it (the
 * package's bin, a Node.js process of its own, its output to a file). Figures: the wall time and the CPU
 * time of each run (medians of the repetitions) and the CPU time per step, whose staying flat (or falling,
 * as the start-up weighs less) from size to size shows the time is linear in the log's size. Target: under
 * 2 s of wall time at 5,000 steps.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Figure } from "./support/results";
import { median } from "./support/stats";

export const REVIEW_TOOLS_COMPARISON = "review tools";

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The sizes measured, in steps. */
export const REVIEW_TOOL_SIZES = [500, 5_000, 50_000] as const;
/** The wall-time target at 5,000 steps, in seconds. */
const TARGET_SECONDS_AT_5000 = 2;

const ROOT = path.resolve(__dirname, "..");
const ROLE = "pulumi-nodejs:dynamic/codesec:UserRole";
const ROLES = "pulumi-nodejs:dynamic/codesec:UserRoles";
const urnOf = (type: string, name: string) => `urn:pulumi:prod::org-config::${type}::${name}`;
const line = (event: Record<string, unknown>) =>
  `${JSON.stringify({ sequence: 1, timestamp: 1, ...event })}\n`;
const ROLE_NAMES = ["ORG_ROLE_ADMIN", "ORG_ROLE_MEMBER", "ORG_ROLE_IMPERSONATOR", "ORG_ROLE_READONLY"];

function role(i: number, shift = 0): Record<string, unknown> {
  return {
    deploymentId: String(1000 + (i % 7)),
    userId: String(10_000 + i),
    role: ROLE_NAMES[(i + shift) % ROLE_NAMES.length],
    ...(i % 3 === 0 ? { roleOnDestroy: "ORG_ROLE_READONLY" } : {}),
  };
}

/**
 * A preview's event log of `steps` steps, as a large organization's change gives it: creates, updates,
 * replaces and deletes of UserRoles, a UserRoles map every 50 steps, and a policy violation every 100.
 */
export function previewLog(steps: number): string {
  const lines = [line({ policyLoadEvent: {} })];
  for (let i = 0; i < steps; i++) {
    const bulk = i % 50 === 0;
    const type = bulk ? ROLES : ROLE;
    const inputs = (shift: number) =>
      bulk
        ? {
            deploymentId: "1001",
            roles: Object.fromEntries(
              Array.from({ length: 20 }, (_, j) => [String(20_000 + i + j), ROLE_NAMES[(j + shift) % 4]]),
            ),
          }
        : role(i, shift);
    const op = ["create", "update", "replace", "delete"][i % 4];
    const metadata = {
      op,
      urn: urnOf(type, `member-${i}`),
      type,
      ...(op !== "create" ? { old: { type, inputs: inputs(0) } } : {}),
      ...(op !== "delete" ? { new: { type, inputs: inputs(op === "replace" ? 0 : 1) } } : {}),
      ...(op === "replace" ? { keys: ["deploymentId"] } : {}),
    };
    if (op === "replace") metadata.new = { type, inputs: { ...inputs(0), deploymentId: "1002" } };
    lines.push(line({ resourcePreEvent: { metadata } }));
    if (i % 100 === 99) {
      lines.push(
        line({
          policyEvent: {
            policyName: "codesec-admin-count",
            policyPackName: "codesec",
            enforcementLevel: i % 200 === 199 ? "mandatory" : "advisory",
            message: `description\ndeployment ${1000 + (i % 7)} would have too many admins`,
            resourceUrn: urnOf(type, `member-${i}`),
          },
        }),
      );
    }
  }
  lines.push(line({ summaryEvent: { result: "succeeded", resourceChanges: {} } }));
  return lines.join("");
}

/**
 * A preview's event log of `steps` UserRole steps that all touch one user (creates, updates and deletes
 * in turn): the shape where per-user work that is not linear shows, since every access change, warning
 * and net role is of the same user.
 */
export function oneUserLog(steps: number): string {
  const lines = [line({ policyLoadEvent: {} })];
  const inputs = (shift: number) => ({ deploymentId: "1001", userId: "900", role: ROLE_NAMES[shift % 4] });
  for (let i = 0; i < steps; i++) {
    const op = ["create", "update", "delete"][i % 3];
    const metadata = {
      op,
      urn: urnOf(ROLE, `one-user-${i}`),
      type: ROLE,
      ...(op !== "create" ? { old: { type: ROLE, inputs: inputs(i) } } : {}),
      ...(op !== "delete" ? { new: { type: ROLE, inputs: inputs(i + 1) } } : {}),
    };
    lines.push(line({ resourcePreEvent: { metadata } }));
  }
  lines.push(line({ summaryEvent: { result: "succeeded", resourceChanges: {} } }));
  return lines.join("");
}

/** A refresh's event log of `steps` resources, one in ten changed on the platform. */
export function refreshLog(steps: number): string {
  const lines: string[] = [];
  for (let i = 0; i < steps; i++) {
    const urn = urnOf(ROLE, `member-${i}`);
    const state = { type: ROLE, inputs: role(i), outputs: role(i) };
    const now = i % 10 === 0 ? { ...state, outputs: role(i, 1) } : state;
    lines.push(
      line({ resourcePreEvent: { metadata: { op: "refresh", urn, type: ROLE, old: state, new: state } } }),
    );
    const op = now === state ? "same" : "update";
    lines.push(line({ resOutputsEvent: { metadata: { op, urn, type: ROLE, old: state, new: now } } }));
  }
  lines.push(line({ summaryEvent: { result: "succeeded", resourceChanges: {} } }));
  return lines.join("");
}

/** One run of a tool's bin, its stdout to `out`: wall and CPU seconds (bash's `time`), and its exit code. */
function timedRun(bin: string, args: string[], out: string, times: string) {
  // bash's `time` reports the CPU of the process it waits for (user + system), which Node cannot.
  const script = 'TIMEFORMAT="%R %U %S"; { time "$0" "$@" >"$OUT" 2>/dev/null; } 2>"$TIMES"';
  const run = spawnSync("bash", ["-c", script, process.execPath, path.join(ROOT, "bin", bin), ...args], {
    env: { ...process.env, OUT: out, TIMES: times },
    stdio: "ignore",
  });
  if (run.error) throw run.error;
  const [wall, user, system] = readFileSync(times, "utf8").trim().split(/\s+/).map(Number);
  if (![wall, user, system].every(Number.isFinite)) throw new Error(`${bin}: no timing from bash's time`);
  return { wall, cpu: user + system, code: run.status };
}

export interface ReviewToolOptions {
  readonly sizes: readonly number[];
  readonly repetitions: number;
}

/** The figures: per tool and size, the median wall time and the time per step. */
export async function reviewTools(
  options: ReviewToolOptions,
  log: (line: string) => void,
): Promise<Figure[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "codesec-bench-review-"));
  const figures: Figure[] = [];
  try {
    for (const steps of options.sizes) {
      const preview = path.join(dir, `preview-${steps}.jsonl`);
      const refresh = path.join(dir, `refresh-${steps}.jsonl`);
      const oneUser = path.join(dir, `one-user-${steps}.jsonl`);
      writeFileSync(preview, previewLog(steps));
      writeFileSync(refresh, refreshLog(steps));
      writeFileSync(oneUser, oneUserLog(steps));
      const tools = [
        { tool: "codesec-review", bin: "codesec-review.js", args: ["--events", preview], expected: 0 },
        {
          tool: "codesec-review, one user touched by every step",
          bin: "codesec-review.js",
          args: ["--events", oneUser],
          expected: 0,
        },
        { tool: "codesec-drift", bin: "codesec-drift.js", args: [refresh], expected: 2 },
      ];
      for (const { tool, bin, args, expected } of tools) {
        const walls: number[] = [];
        const cpus: number[] = [];
        for (let rep = 0; rep < options.repetitions; rep++) {
          const run = timedRun(bin, args, path.join(dir, "out"), path.join(dir, "times"));
          if (run.code !== expected)
            throw new Error(`${tool} on ${steps} steps exited ${run.code}, not ${expected}`);
          walls.push(run.wall);
          cpus.push(run.cpu);
        }
        const wall = median(walls);
        const cpu = median(cpus);
        log(`[bench] ${tool} on ${steps} steps: ${wall.toFixed(2)} s wall, ${cpu.toFixed(2)} s CPU`);
        const size = `${steps.toLocaleString("en-US")} steps`;
        const spreadOf = (values: number[]) => ({ low: Math.min(...values), high: Math.max(...values) });
        const wallSpread = spreadOf(walls);
        figures.push(
          {
            comparison: REVIEW_TOOLS_COMPARISON,
            name: `${tool}, ${size}, wall time`,
            value: round3(wall),
            unit: "s",
            spread: { low: round3(wallSpread.low), high: round3(wallSpread.high) },
            repetitions: walls.length,
            detail: "the bin as a user runs it (Node.js start-up included), its output to a file",
            ...(steps === 5_000
              ? {
                  target: { op: "<=" as const, value: TARGET_SECONDS_AT_5000 },
                  met: wallSpread.high <= TARGET_SECONDS_AT_5000,
                  medianMet: wall <= TARGET_SECONDS_AT_5000,
                }
              : {}),
          },
          {
            comparison: REVIEW_TOOLS_COMPARISON,
            name: `${tool}, ${size}, CPU time`,
            value: round3(cpu),
            unit: "s",
            spread: { low: round3(Math.min(...cpus)), high: round3(Math.max(...cpus)) },
            repetitions: cpus.length,
            detail: "user + system time of the process",
          },
          {
            comparison: REVIEW_TOOLS_COMPARISON,
            name: `${tool}, ${size}, CPU time per step`,
            value: Math.round((cpu / steps) * 1e6),
            unit: "µs",
            detail: "the CPU time over the steps: flat or falling from size to size when the time is linear",
          },
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
