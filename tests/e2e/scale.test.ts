/**
 * An organization-scale stack through the real Pulumi CLI: 1,000 UserRoles against an emulator that
 * enforces 50 requests per second per credential, with the client limited to the same rate in stack
 * config. The up converges with no failed resource and at most 1% of requests refused (429); a preview
 * without changes calls the platform once (the credential check); a refresh reads `getCurrentUser` once for
 * all 1,000 roles; an up that changes k roles writes k times. Calls are counted with the emulator's
 * cumulative counters (its request log keeps only the last 1,000).
 */
import { expect } from "chai";
import type { Stack } from "@pulumi/pulumi/automation";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { fixturesWithMembers, scaleMemberIds } from "../support/largeFixtures";
import {
  createStack,
  prepareProgram,
  requirePulumiCli,
  stateResources,
  timeLimitFor,
} from "./support/harness";

const COUNT = 1000;
const RATE = 50;

describe(`an organization-scale stack: ${COUNT} UserRoles against a platform limited to ${RATE} requests per second`, function () {
  let emulator: EmulatorHandle;
  let stack: Stack;

  /** Calls since the last look, as `operation:status` with their counts. */
  function callsSinceLastLook(): Record<string, number> {
    const counts = emulator.control.requestCounts();
    emulator.control.resetRequestCounts();
    const calls: Record<string, number> = {};
    for (const [operation, byStatus] of Object.entries(counts.byOperation)) {
      for (const [status, n] of Object.entries(byStatus)) calls[`${operation}:${status}`] = n;
    }
    return calls;
  }

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    emulator = await startEmulator({ quiet: true, fixtures: fixturesWithMembers(COUNT), rateLimit: RATE });
    const programDir = prepareProgram(path.join(__dirname, "programs/scale"));
    stack = await createStack(programDir, "scale", {
      "codesec:baseUrl": { value: emulator.baseUrl },
      "codesec:token": { value: emulator.apiToken, secret: true },
      "codesec:requestsPerSecond": { value: String(RATE) },
      "e2e:deploymentId": { value: emulator.deploymentId },
      "e2e:firstUserId": { value: scaleMemberIds(1)[0] },
      "e2e:count": { value: String(COUNT) },
    });
    emulator.control.resetRequestCounts();
  });

  after(async () => {
    await emulator?.close();
  });

  it("up creates every role with no failed resource and at most 1% of requests refused", async () => {
    const up = await stack.up();
    expect(up.summary.result).to.equal("succeeded");
    expect(up.summary.resourceChanges).to.deep.equal({ create: COUNT + 1 }); // and the stack
    const calls = callsSinceLastLook();
    const total = Object.values(calls).reduce((a, b) => a + b, 0);
    const refused = Object.entries(calls)
      .filter(([key]) => key.endsWith(":429"))
      .reduce((a, [, n]) => a + n, 0);
    expect(refused, JSON.stringify(calls)).to.be.at.most(Math.floor(total / 100));
    expect(calls["updateUserRole:200"], JSON.stringify(calls)).to.equal(COUNT);
    const members = new Set(scaleMemberIds(COUNT));
    const readonly = emulator.control
      .state()
      .users.filter((u) => members.has(u.id) && u.roles[emulator.deploymentId] === "ORG_ROLE_READONLY");
    expect(readonly).to.have.length(COUNT);
  }).timeout(timeLimitFor(1, COUNT));

  it("a preview without changes calls the platform once: the credential check", async () => {
    const preview = await stack.preview({ expectNoChanges: true });
    expect(preview.changeSummary).to.deep.equal({ same: COUNT + 1 });
    expect(callsSinceLastLook()).to.deep.equal({ "getCurrentUser:200": 1 });
  }).timeout(timeLimitFor(1, COUNT));

  it("a refresh reads `getCurrentUser` once for all the roles", async () => {
    const refresh = await stack.refresh();
    expect(refresh.summary.resourceChanges).to.deep.equal({ same: COUNT + 1 });
    expect(callsSinceLastLook()).to.deep.equal({ "getCurrentUser:200": 1 });
    expect(await stateResources(stack)).to.have.length(COUNT + 2); // the stack and its default provider too
  }).timeout(timeLimitFor(2, COUNT));

  it("an up that changes 5 roles makes exactly 5 writes", async () => {
    await stack.setConfig("e2e:changed", { value: "5" });
    await stack.setConfig("e2e:changedRole", { value: "ORG_ROLE_MEMBER" });
    const up = await stack.up();
    expect(up.summary.resourceChanges).to.deep.equal({ update: 5, same: COUNT - 4 });
    expect(callsSinceLastLook()).to.deep.equal({ "getCurrentUser:200": 1, "updateUserRole:200": 5 });
  }).timeout(timeLimitFor(1, COUNT));
});
