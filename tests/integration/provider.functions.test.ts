import { expect } from "chai";
import * as pulumi from "@pulumi/pulumi";
import {
  getBranch,
  getBranchOutput,
  getCurrentUser,
  getJoinableOrganizations,
  getNotificationRules,
  getScan,
  getScanOutput,
  getScmApp,
  MissingCredentialsError,
} from "../../provider";
import { useEmulator } from "../support/emulator";

/** The value of an Output outside a deployment (test helper). */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((v) => resolve(v)));
}

describe("data-source functions against the emulator", () => {
  const emulator = useEmulator();
  const saved = { base: process.env.CODESEC_BASE_URL, token: process.env.CODESEC_TOKEN };
  const connection = () => ({ baseUrl: emulator().baseUrl, token: emulator().apiToken });

  afterEach(() => {
    for (const [key, value] of [
      ["CODESEC_BASE_URL", saved.base],
      ["CODESEC_TOKEN", saved.token],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it("getScan returns the scan the platform holds", async () => {
    const h = emulator();
    const scan = await getScan(
      { deploymentId: h.deploymentId, scanId: h.sample.scanId },
      { connection: connection() },
    );
    expect(scan).to.deep.equal(h.control.state().scans.find((s) => s.id === h.sample.scanId));
  });

  it("getBranch returns the branch with its integer id", async () => {
    const h = emulator();
    const branch = await getBranch(
      { deploymentId: h.deploymentId, projectId: h.sample.projectId, branchId: h.sample.branchId },
      { connection: connection() },
    );
    expect(branch.id).to.equal(Number(h.sample.branchId));
    expect(branch.name).to.match(/^refs\/heads\//);
  });

  it("getScmApp reads a connected app", async () => {
    const h = emulator();
    const app = await getScmApp(
      { deploymentId: h.deploymentId, requestId: "apprq-1001-done" },
      { connection: connection() },
    );
    expect(app.requestId).to.equal("apprq-1001-done");
    expect(app.slug).to.equal("codesec-acme-legacy");
  });

  it("getCurrentUser falls back to CODESEC_BASE_URL and CODESEC_TOKEN", async () => {
    const h = emulator();
    process.env.CODESEC_BASE_URL = h.baseUrl;
    process.env.CODESEC_TOKEN = h.apiToken;
    const me = await getCurrentUser();
    expect(me.id).to.equal(h.sample.userId);
    expect(me.orgRole).to.equal("ORG_ROLE_ADMIN");
  });

  it("without any credentials fails naming all three ways to set them, before any call", async () => {
    delete process.env.CODESEC_BASE_URL;
    delete process.env.CODESEC_TOKEN;
    let error: Error | undefined;
    await getCurrentUser().catch((e: Error) => (error = e));
    expect(error).to.be.instanceOf(MissingCredentialsError);
    expect(emulator().control.requests()).to.deep.equal([]);
  });

  it("getJoinableOrganizations defaults userId to the caller with a user JWT", async () => {
    const h = emulator();
    const result = await getJoinableOrganizations({}, { connection: { baseUrl: h.baseUrl, token: h.jwt } });
    expect(result.userId).to.equal(h.sample.userId);
    expect(result.orgs.length).to.be.greaterThan(0);
  });

  it("getJoinableOrganizations with an API token explains that it needs a user JWT", async () => {
    let error: Error | undefined;
    await getJoinableOrganizations({}, { connection: connection() }).catch((e: Error) => (error = e));
    expect(error?.message).to.match(/JWT/);
    expect(error?.message).not.to.include(emulator().apiToken);
  });

  it("getNotificationRules follows every page and lists the rules with problems", async () => {
    const h = emulator();
    const expected = h.control
      .state()
      .notificationRules.filter((r) => r.deploymentId === h.deploymentId)
      .map((r) => r.id);
    const result = await getNotificationRules(
      { deploymentId: h.deploymentId, limit: 2 },
      { connection: connection() },
    );
    expect(result.rules.map((r) => r.id)).to.deep.equal(expected);
    const pages = h.control.requests().filter((r) => r.operation === "listNotificationRules").length;
    expect(pages).to.equal(Math.ceil(expected.length / 2));
    expect(result.rulesWithProblems.length).to.be.greaterThan(0);
    for (const rule of result.rulesWithProblems)
      expect(rule.config_error !== "" || !rule.is_enabled).to.equal(true);
  });

  it("getNotificationRules starts from a given cursor", async () => {
    const h = emulator();
    const first = await connectionClientPage(h.deploymentId);
    const rest = await getNotificationRules(
      { deploymentId: h.deploymentId, limit: 3, cursor: first.nextCursor },
      { connection: connection() },
    );
    const all = await getNotificationRules({ deploymentId: h.deploymentId }, { connection: connection() });
    expect([...first.rules, ...rest.rules].map((r) => r.id)).to.deep.equal(all.rules.map((r) => r.id));
  });

  it("the Output forms take Outputs as arguments", async () => {
    const h = emulator();
    const scan = getScanOutput(
      { deploymentId: pulumi.output(h.deploymentId), scanId: pulumi.output(h.sample.scanId) },
      { connection: pulumi.output(connection()) },
    );
    expect((await valueOf(scan)).id).to.equal(h.sample.scanId);
    const branch = getBranchOutput(
      {
        deploymentId: h.deploymentId,
        projectId: h.sample.projectId,
        branchId: pulumi.output(h.sample.branchId),
      },
      { connection: connection() },
    );
    expect((await valueOf(branch)).id).to.equal(Number(h.sample.branchId));
  });

  it("a bad argument fails naming it, before any call", async () => {
    let error: Error | undefined;
    await getScan({ deploymentId: "1001", scanId: "abc" }, { connection: connection() }).catch(
      (e: Error) => (error = e),
    );
    expect(error?.message).to.include("scanId");
    expect(emulator().control.requests()).to.deep.equal([]);
  });

  async function connectionClientPage(deploymentId: string) {
    const { CodeSecClient } = await import("../../client");
    return new CodeSecClient(connection()).listNotificationRules({ deploymentId, limit: 3 });
  }
});
