/**
 * The fault matrix: each of the ten operations against each fault the emulator can inject, through the
 * real client. Every cell must end (no hang), in success or a typed CodeSecError, with the number of
 * attempts its retry class allows, and an operation of class `once` must never be sent twice once its
 * request may have arrived. Writes the "fault-matrix" report section.
 */
import { expect } from "chai";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { ClientRequest } from "node:http";
import { startEmulator, type EmulatorHandle, type FaultSpec } from "../../emulator/index";
import {
  CodeSecClient,
  CodeSecError,
  OPERATIONS,
  type CodeSecClientOptions,
  type OperationKey,
  type RetryClass,
} from "../../client";
import { markdownTable, writeReportSection } from "../support/reliabilityReport";

/**
 * Client settings of the matrix: small, so that timeouts and retries take a second or so each, yet with
 * room for a loaded machine.
 */
const SETTINGS = { timeoutMs: 1_000, deadlineMs: 8_000, retries: 2, maxRetryDelayMs: 1_500 } as const;

/**
 * Rows that run at once. Every row in one event loop slows a normal answer to near `timeoutMs` on a
 * loaded machine; a few at a time keep it well below, and the matrix still takes a fraction of one
 * row after another.
 */
const ROWS_AT_ONCE = 3;

/** Runs `work` on each item, at most `limit` at a time; the results keep the items' order. */
async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T, i: number) => Promise<R>) {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * How long each HTTP attempt of this process took, from its start to its end (answered, timed out or
 * cut off), by the User-Agent that names its cell: what a cell's failure message reports, so that a
 * timeout caused by a slow machine rather than by the client shows as such.
 */
class AttemptClock {
  private readonly byAgent = new Map<string, { started: number; ended?: number }[]>();
  private readonly onStart = (message: unknown) => {
    const request = (message as { request: ClientRequest }).request;
    const agent = String(request.getHeader("user-agent") ?? "");
    if (!agent.startsWith("fault-matrix ")) return;
    const attempt: { started: number; ended?: number } = { started: performance.now() };
    this.byAgent.set(agent, [...(this.byAgent.get(agent) ?? []), attempt]);
    request.once("close", () => (attempt.ended = performance.now()));
  };
  start(): void {
    subscribe("http.client.request.start", this.onStart);
  }
  stop(): void {
    unsubscribe("http.client.request.start", this.onStart);
  }
  /** How long each attempt sent with `agent` took, in the order they started ("open" when not ended). */
  took(agent: string): string[] {
    const ms = (attempt: { started: number; ended?: number }) =>
      attempt.ended === undefined ? "open" : `${Math.round(attempt.ended - attempt.started)} ms`;
    return (this.byAgent.get(agent) ?? []).map(ms);
  }
}

/** Outcomes a slow machine can cause: an attempt that timed out, or a retry more than expected. */
function timeoutShaped(cell: string, expected: string): boolean {
  const attempts = (text: string) => Number(/after (\d+) attempt/.exec(text)?.[1] ?? 0);
  return /Timeout|OutcomeUnknown/.test(cell) || attempts(cell) > attempts(expected);
}

interface Fault {
  name: string;
  /** The fault to arm for the operation, or undefined when the fault is not an emulator fault. */
  spec?: Omit<FaultSpec, "operation">;
  /** The fault needs a field to omit from this operation's answer. */
  omits?: boolean;
  /** The platform is not there at all. */
  unreachable?: boolean;
}

const FAULTS: readonly Fault[] = [
  { name: "429, Retry-After 1 s", spec: { status: 429, retryAfter: "1" } },
  { name: "429, Retry-After 1 h (above the cap)", spec: { status: 429, retryAfter: "3600" } },
  { name: "500 before applying", spec: { status: 500 } },
  { name: "503 before applying", spec: { status: 503 } },
  { name: "connection dropped before applying", spec: { drop: true } },
  { name: "answer slower than the timeout", spec: { latencyMs: 2_500 } },
  { name: "answer lost after applying", spec: { phase: "after", drop: true } },
  { name: "503 after applying", spec: { phase: "after", status: 503 } },
  { name: "body cut off after applying", spec: { phase: "after", truncate: true } },
  { name: "body stalls after applying", spec: { phase: "after", stall: true } },
  { name: "2xx missing a field", omits: true },
  { name: "2xx that is not JSON", spec: { malformed: true } },
  { name: "platform unreachable", unreachable: true },
];

/** The field each operation's answer can lose (`updateUserRole` answers `{}`: nothing to omit). */
const OMITTABLE: Record<OperationKey, string | undefined> = {
  updateUserRole: undefined,
  provisionWorkflows: "repoFileUrls",
  completeScmAppRequest: "app.slug",
  getScmApp: "app.slug",
  subscribeScmWebhook: "subscription",
  getScan: "scan.status",
  getBranch: "branch.name",
  getCurrentUser: "user.id",
  listJoinableOrganizations: "orgs",
  listNotificationRules: "notification_rules",
};

/** What a cell must end in, by retry class (the retries allowed are SETTINGS.retries). */
function expectedOutcome(fault: Fault, retryClass: RetryClass): string {
  const once = retryClass === "once";
  switch (fault.name) {
    case "429, Retry-After 1 s":
      return "ok after 2 attempts";
    case "429, Retry-After 1 h (above the cap)":
      return "CodeSecRateLimitError after 1 attempt";
    case "500 before applying":
      return once ? "CodeSecOutcomeUnknownError after 1 attempt" : "CodeSecApiError after 1 attempt";
    case "2xx missing a field":
    case "2xx that is not JSON":
      return "CodeSecResponseError after 1 attempt";
    case "platform unreachable":
      return `CodeSecNetworkError after ${SETTINGS.retries + 1} attempts`;
    default:
      // A transient failure the request may have reached the platform through.
      return once ? "CodeSecOutcomeUnknownError after 1 attempt" : "ok after 2 attempts";
  }
}

describe("fault matrix: ten operations x every fault", function () {
  this.timeout(120_000);
  let emulator: EmulatorHandle;
  const rows: string[][] = [];
  let passed = false;

  before(async () => {
    emulator = await startEmulator({ quiet: true });
  });
  after(async () => {
    await emulator?.close();
  });

  function client(
    token: string,
    overrides: Partial<CodeSecClientOptions> = {},
    platform: EmulatorHandle = emulator,
  ): CodeSecClient {
    return new CodeSecClient({ baseUrl: platform.baseUrl, token, ...SETTINGS, ...overrides });
  }

  /** A call of each operation with valid arguments on a freshly reset emulator. */
  function callOf(
    operation: OperationKey,
    overrides: Partial<CodeSecClientOptions>,
    emulator: EmulatorHandle,
  ) {
    const { deploymentId, sample } = emulator;
    const api = client(emulator.apiToken, overrides, emulator);
    switch (operation) {
      case "updateUserRole":
        return () =>
          api.updateUserRole({ deploymentId, userId: sample.memberUserId, newRole: "ORG_ROLE_READONLY" });
      case "provisionWorkflows":
        return () => api.provisionWorkflows({ deploymentId, filters: { ids: [sample.projectId] } });
      case "completeScmAppRequest": {
        const { requestId, code } = emulator.control.createScmAppRequest({ deploymentId });
        return () => api.completeScmAppRequest({ requestId, code });
      }
      case "getScmApp":
        return () => api.getScmApp({ deploymentId, requestId: "apprq-1001-done" });
      case "subscribeScmWebhook":
        return () => api.subscribeScmWebhook({ deploymentId, configId: sample.scmConfigId });
      case "getScan":
        return () => api.getScan({ deploymentId, scanId: sample.scanId });
      case "getBranch":
        return () => api.getBranch({ deploymentId, projectId: sample.projectId, branchId: sample.branchId });
      case "getCurrentUser":
        return () => api.getCurrentUser();
      case "listJoinableOrganizations":
        return () => client(emulator.jwt, overrides, emulator).listJoinableOrganizations();
      case "listNotificationRules":
        return () => api.listNotificationRules({ deploymentId });
    }
  }

  /**
   * One operation's row: each fault in turn on `emulator`, an emulator of the row's own (the cells of a
   * row reset it and count its requests), so that rows can run at once.
   */
  async function rowOf(
    operation: OperationKey,
    spec: (typeof OPERATIONS)[OperationKey],
    emulator: EmulatorHandle,
    problems: string[],
    clock: AttemptClock,
  ): Promise<string[]> {
    const cells: string[] = [];
    for (const [faultIndex, fault] of FAULTS.entries()) {
      emulator.control.reset();
      const field = OMITTABLE[operation];
      if (fault.omits && field === undefined) {
        cells.push("n/a (answers {})");
        continue;
      }
      const userAgent = `fault-matrix ${operation} ${faultIndex}`;
      const overrides = { userAgent, ...(fault.unreachable ? { baseUrl: "http://127.0.0.1:9" } : {}) };
      const call = callOf(operation, overrides, emulator);
      if (fault.spec || fault.omits) {
        emulator.control.addFault({
          operation,
          ...(fault.omits ? { phase: "after" as const, omitField: field } : fault.spec),
        });
      }
      const started = Date.now();
      let outcome: string;
      let reported: number | undefined;
      try {
        await call();
        outcome = "ok";
      } catch (error) {
        outcome = error instanceof CodeSecError ? error.constructor.name : `untyped ${String(error)}`;
        if (!(error instanceof CodeSecError))
          problems.push(`${operation} / ${fault.name}: untyped ${String(error)}`);
        reported = (error as { attempts?: number }).attempts;
      }
      const took = Date.now() - started;
      // A delayed request is still being answered after the client gave up: let it finish before the
      // next cell resets the emulator.
      if (fault.spec?.latencyMs !== undefined) await new Promise((r) => setTimeout(r, fault.spec!.latencyMs));
      // Attempts as the platform saw them; an unreachable platform saw none, so the client's count.
      const received = emulator.control.requests().filter((r) => r.operation === operation);
      const arrived = received.length;
      const attempts = fault.unreachable ? (reported ?? 0) : arrived;
      if (reported !== undefined && !fault.unreachable && reported !== arrived) {
        problems.push(
          `${operation} / ${fault.name}: the error says ${reported} attempts, the platform saw ${arrived}`,
        );
      }
      const cell = `${outcome} after ${attempts} attempt${attempts === 1 ? "" : "s"}`;
      const expected = expectedOutcome(fault, spec.retryClass);
      if (cell !== expected) {
        let cause = "";
        if (timeoutShaped(cell, expected)) {
          // The k-th attempt sent is the k-th the platform received, which says whether a fault shaped it.
          // A request the client abandoned closes a tick after the call failed.
          await new Promise((resolve) => setImmediate(resolve));
          const took = clock
            .took(userAgent)
            .map((ms, k) => `${ms}${received[k]?.fault !== undefined ? " (faulted)" : ""}`);
          cause =
            ` (attempts took ${took.join(", ") || "nothing measured"}; timeoutMs ${SETTINGS.timeoutMs}: ` +
            "an attempt without a fault near or above it means a slow machine, not the client)";
        }
        problems.push(`${operation} / ${fault.name}: ${cell}, expected ${expected}${cause}`);
      }
      if (took > SETTINGS.deadlineMs + 1_000)
        problems.push(`${operation} / ${fault.name}: took ${took} ms (a hang)`);
      if (spec.retryClass === "once" && !fault.unreachable && fault.spec?.status !== 429 && arrived > 1) {
        problems.push(`${operation} / ${fault.name}: a once-only write was sent ${arrived} times`);
      }
      cells.push(cell.replace(/^CodeSec/, "").replace(/Error after/, " after"));
    }
    return [`${operation} (${spec.retryClass})`, ...cells];
  }

  it("ends every cell in success or a typed error, with the attempts its retry class allows", async () => {
    const problems: string[] = [];
    const operations = Object.entries(OPERATIONS) as [OperationKey, (typeof OPERATIONS)[OperationKey]][];
    const emulators = await Promise.all(operations.map(() => startEmulator({ quiet: true })));
    const clock = new AttemptClock();
    clock.start();
    try {
      // Each operation's first call loads and compiles what checks its arguments and answer; made one at a
      // time before the rows start, that work never runs while another row's request waits on its timeout.
      for (const [i, [operation]] of operations.entries()) await callOf(operation, {}, emulators[i])();
      rows.push(
        ...(await inPool(operations, ROWS_AT_ONCE, ([operation, spec], i) =>
          rowOf(operation, spec, emulators[i], problems, clock),
        )),
      );
    } finally {
      clock.stop();
      await Promise.all(emulators.map((platform) => platform.close()));
    }
    expect(problems).to.deep.equal([]);
    passed = true;
  });

  it("an idempotent write whose answer was lost is applied once, then confirmed by the retry", async () => {
    emulator.control.reset();
    const { deploymentId, sample } = emulator;
    emulator.control.addFault({ operation: "updateUserRole", phase: "after", drop: true });
    await client(emulator.apiToken).updateUserRole({
      deploymentId,
      userId: sample.memberUserId,
      newRole: "ORG_ROLE_READONLY",
    });
    const user = emulator.control.state().users.find((u) => u.id === sample.memberUserId)!;
    expect(user.roles[deploymentId]).to.equal("ORG_ROLE_READONLY");
  });

  it("`completeScmAppRequest` whose answer was lost is completed once, and its error says how to check", async () => {
    emulator.control.reset();
    const { requestId, code } = emulator.control.createScmAppRequest({ deploymentId: emulator.deploymentId });
    emulator.control.addFault({ operation: "completeScmAppRequest", phase: "after", drop: true });
    let message = "";
    try {
      await client(emulator.apiToken).completeScmAppRequest({ requestId, code });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).to.include("getScmApp").and.not.include(code);
    const request = emulator.control.state().scmAppRequests.find((r) => r.requestId === requestId)!;
    expect(request.state).to.equal("completed");
    expect(emulator.control.requests().filter((r) => r.operation === "completeScmAppRequest")).to.have.length(
      1,
    );
  });

  after(() => {
    if (!passed) return;
    const header = ["operation (retry class)", ...FAULTS.map((f) => f.name)];
    writeReportSection({
      id: "fault-matrix",
      title: "Fault matrix",
      markdown: [
        "Each operation's row on an emulator of its own, through the client, with one fault armed for its next request " +
          `(client settings: timeoutMs ${SETTINGS.timeoutMs}, deadlineMs ${SETTINGS.deadlineMs}, retries ` +
          `${SETTINGS.retries}, maxRetryDelayMs ${SETTINGS.maxRetryDelayMs}). A cell gives the outcome and the ` +
          "attempts the platform received (for the unreachable platform, the attempts made). Reads and " +
          "idempotent writes are retried through transient failures; `completeScmAppRequest` (retry class once) is " +
          "never sent again once its request may have arrived, and fails with an outcome-unknown error that " +
          "says how to check.",
        "",
        `Cells: ${rows.length * FAULTS.length}; hangs: 0; untyped errors: 0; once-only writes repeated: 0.`,
        "",
        markdownTable(header, rows),
      ].join("\n"),
    });
  });
});
