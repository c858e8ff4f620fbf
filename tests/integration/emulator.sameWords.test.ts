/**
 * The emulator and the client check with the same rules and word a failure with the same formatter
 * (pulumi-codesec/api's schemaIssues): the same bad value, passed to the client or sent raw to the
 * emulator, is refused by both with the same sentence, the emulator's only naming where the value was
 * (`body.` before a body field, `path parameter ` before a path parameter).
 */
import { expect } from "chai";
import { CodeSecClient, CodeSecInputError } from "../../client";
import { callApi, errorOf, useEmulator } from "../support/emulator";
import { rejection } from "../support/fakeServer";

describe("the emulator and the client word a bad value the same way", () => {
  const emulator = useEmulator();

  function client(): CodeSecClient {
    const e = emulator();
    return new CodeSecClient({ baseUrl: e.baseUrl, token: e.apiToken, maxRetryDelayMs: 20 });
  }

  async function clientMessage(call: Promise<unknown>): Promise<string> {
    return (await rejection(call, CodeSecInputError)).message;
  }

  async function emulatorMessage(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; message: string }> {
    const res = await callApi(emulator(), method, path, body === undefined ? {} : { body });
    return { status: res.status, message: errorOf(res).message };
  }

  it("a date-time that names no real instant (the calendar rule of api/schemas/common.ts)", async () => {
    for (const lastScanSince of ["2025-02-30T00:00:00Z", "2026-01-02T24:00:00Z", "2026-01-02", 20260102]) {
      const args = { deploymentId: "1001", filters: { lastScanSince } };
      const fromClient = await clientMessage(client().provisionWorkflows(args as never));
      const fromEmulator = await emulatorMessage(
        "POST",
        "/api/agent/deployments/1001/repos/_provision",
        args,
      );
      expect(fromEmulator.status, String(lastScanSince)).to.equal(400);
      expect(fromClient, String(lastScanSince)).to.match(/^filters\.lastScanSince /);
      expect(fromEmulator.message, String(lastScanSince)).to.equal(`body.${fromClient}`);
    }
  });

  it("a bad numeric id in a body array", async () => {
    const args = { deploymentId: "1001", filters: { ids: ["7001", "70x2"] } };
    const fromClient = await clientMessage(client().provisionWorkflows(args));
    const fromEmulator = await emulatorMessage("POST", "/api/agent/deployments/1001/repos/_provision", args);
    expect(fromClient).to.equal('filters.ids[1] must be a numeric id (digits only), got "70x2"');
    expect(fromEmulator.message).to.equal(`body.${fromClient}`);
  });

  it("a bad OpaqueId, in the path and in a body (the OpaqueId explainer)", async () => {
    for (const requestId of ["a/b", "x ", "a?b", "a#b", "a\\b"]) {
      const fromClient = await clientMessage(client().getScmApp({ deploymentId: "1001", requestId }));
      const fromEmulator = await emulatorMessage(
        "GET",
        `/api/scm/deployments/1001/scm_apps/${encodeURIComponent(requestId)}`,
      );
      expect(fromEmulator.status, requestId).to.equal(400);
      expect(fromClient, requestId).to.match(/^requestId must not /);
      expect(fromEmulator.message, requestId).to.equal(`path parameter ${fromClient}`);

      const args = { requestId, code: "otc-1001-a-7Hq2Zp9L" };
      const inBody = await emulatorMessage("PUT", "/api/scm/app_request_complete", args);
      expect(inBody.message, requestId).to.equal(
        `body.${await clientMessage(client().completeScmAppRequest(args))}`,
      );
    }
  });

  it("a bad NumericId path parameter (the NumericId explainer)", async () => {
    for (const scanId of ["30x1", "1".repeat(21)]) {
      const fromClient = await clientMessage(client().getScan({ deploymentId: "1001", scanId }));
      const fromEmulator = await emulatorMessage("GET", `/api/v2/deployments/1001/scans/${scanId}`);
      expect(fromEmulator.message, scanId).to.equal(`path parameter ${fromClient}`);
    }
  });

  it("a bad one-time code: the same words, and neither shows the code", async () => {
    const code = " otc-1001-a-7Hq2Zp9L";
    const args = { requestId: "apprq-1001-a", code };
    const fromClient = await clientMessage(client().completeScmAppRequest(args));
    const fromEmulator = await emulatorMessage("PUT", "/api/scm/app_request_complete", args);
    expect(fromClient).to.match(/^code .*, got a string$/);
    expect(fromEmulator.message).to.equal(`body.${fromClient}`);
    expect(fromEmulator.message).not.to.include(code.trim());
  });
});
