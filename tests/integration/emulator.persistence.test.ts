/** `--state`: the state survives a restart, and the file is replaced atomically. */
import { expect } from "chai";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { readSavedData } from "../../emulator/stateJournal";
import { callApi } from "../support/emulator";

describe("emulator persistence (--state)", () => {
  let dir: string;
  let running: EmulatorHandle | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "codesec-state-"));
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps data, tokens and JWTs valid across a restart", async () => {
    const stateFile = join(dir, "state.json");
    const first = await startEmulator({ quiet: true, stateFile });
    running = first;
    const { scmAppRequestId, scmAppCode } = first.sample;
    expect(
      (
        await callApi(first, "PATCH", "/api/agent/deployments/1001/users/502/roles", {
          body: { deploymentId: "1001", userId: "502", newRole: "ORG_ROLE_ADMIN" },
        })
      ).status,
    ).to.equal(200);
    expect(
      (
        await callApi(first, "PUT", "/api/scm/app_request_complete", {
          body: { requestId: scmAppRequestId, code: scmAppCode },
        })
      ).status,
    ).to.equal(200);
    const minted = await first.control.mintCredential({
      deploymentId: "1001",
      userId: "503",
      kind: "apiToken",
    });
    const oldJwt = first.jwt;
    await first.close();
    running = undefined;

    const second = await startEmulator({ quiet: true, stateFile });
    running = second;
    expect(second.apiToken).to.equal(first.apiToken);
    expect(second.sample).to.deep.equal(first.sample);
    const me = await callApi(second, "GET", "/api/auth/users/current", { credential: oldJwt });
    expect(me.status, "a JWT of the first run is still valid").to.equal(200);
    expect(
      (await callApi(second, "GET", "/api/auth/users/current", { credential: minted.credential })).status,
    ).to.equal(200);
    const app = await callApi(second, "GET", `/api/scm/deployments/1001/scm_apps/${scmAppRequestId}`);
    expect(app.status, "the completed app is still there").to.equal(200);
    const state = second.control.state();
    expect(state.users.find((u) => u.id === "502")?.roles["1001"]).to.equal("ORG_ROLE_ADMIN");
    const again = await callApi(second, "PUT", "/api/scm/app_request_complete", {
      body: { requestId: scmAppRequestId, code: scmAppCode },
    });
    expect(again.status, "the one-time code stays used").to.equal(409);
  });

  it("saves every write before its answer as a journal line, without rewriting the state file; reads write nothing", async () => {
    const stateFile = join(dir, "state.json");
    running = await startEmulator({ quiet: true, stateFile });
    const snapshot = readFileSync(stateFile, "utf8");
    const journalSize = statSync(`${stateFile}.journal`).size;
    await callApi(running, "PUT", "/api/scm/deployments/1001/subscriptions/scmcfg-1001-a");
    expect(readFileSync(stateFile, "utf8")).to.equal(snapshot);
    expect(statSync(`${stateFile}.journal`).size).to.be.greaterThan(journalSize);
    expect(readdirSync(dir).sort()).to.deep.equal(["state.json", "state.json.journal"]);
    expect(
      readSavedData(stateFile).scmConfigurations.find((c) => c.configId === "scmcfg-1001-a")?.subscription,
    ).to.not.equal(undefined);
    // Reads write nothing.
    const afterWrite = statSync(`${stateFile}.journal`).size;
    await callApi(running, "GET", "/api/v2/deployments/1001/scans/3001");
    expect(statSync(`${stateFile}.journal`).size).to.equal(afterWrite);
    expect(readFileSync(stateFile, "utf8")).to.equal(snapshot);
  });

  it("refuses to start on a file that is not a state file, without touching it", async () => {
    const stateFile = join(dir, "state.json");
    writeFileSync(stateFile, '{"something":"else"}');
    let failure: Error | undefined;
    try {
      running = await startEmulator({ quiet: true, stateFile });
    } catch (error) {
      failure = error as Error;
    }
    expect(failure?.message).to.match(/is not an emulator state file/);
    expect(readFileSync(stateFile, "utf8")).to.equal('{"something":"else"}');
  });

  it("starts from a fixture file when the state file does not exist yet", async () => {
    const stateFile = join(dir, "state.json");
    running = await startEmulator({
      quiet: true,
      stateFile,
      fixtures: join(__dirname, "..", "..", "emulator", "fixtures.example.json"),
    });
    expect(running.deploymentId).to.equal("4242");
    expect((await callApi(running, "GET", "/api/v2/deployments/4242/scans/300")).status).to.equal(200);
  });
});
