/**
 * `kill -9` of the emulator with `--state`, 20 times: while concurrent writes are in flight, the process is
 * killed, then started again on the same state file. Every write it acknowledged (a complete 200) must be
 * in the state file and its journal right after the kill and in the state after the restart, the files
 * must always be readable (a journal record cut short by the kill is ignored, never one before it), and no
 * temporary copy of them (they hold secrets) may be left once the emulator runs again. Each restart folds
 * the journal into a new snapshot, so every round tests both: the journal left by a kill, and the
 * snapshot and fresh journal a start writes.
 */
import { expect } from "chai";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultFixtures } from "../../emulator/index";
import { readSavedData } from "../../emulator/stateJournal";
import type { RedactedState } from "../../emulator/store";
import { markdownTable, writeReportSection } from "../support/reliabilityReport";
import { apiHeaders, rawRequest } from "../support/rawHttp";
import { transpileEmulator, type TranspiledEmulator } from "../support/transpiledEmulator";

const KILLS = 20;
/** Member users whose roles the writes set, each to a role that differs from its previous one. */
const USERS = Array.from({ length: 40 }, (_, i) => String(5201 + i));
const ROLES = ["ORG_ROLE_MEMBER", "ORG_ROLE_READONLY", "ORG_ROLE_IMPERSONATOR"] as const;
const WRITERS = 8;
/** The kill comes once this many writes were acknowledged, while the other writers' are in flight. */
const KILL_AFTER_ACKS = 6;
const DEPLOYMENT = "1001";

interface Running {
  child: ChildProcessWithoutNullStreams;
  baseUrl: string;
  apiToken: string;
  exited: Promise<void>;
  stderr: () => string;
}

/** A write the emulator acknowledged: it must survive the kill. */
interface Acknowledged {
  userId: string;
  role: string;
}

function temporaryCopies(dir: string): string[] {
  return readdirSync(dir).filter((name) => /^\.state\.json\..*\.tmp$/.test(name));
}

describe("reliability: kill -9 of the emulator with --state", function () {
  this.timeout(180_000);
  let dir: string;
  let emulator: TranspiledEmulator | undefined;
  let running: Running | undefined;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "codesec-kill-"));
    emulator = transpileEmulator();
  });
  after(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill("SIGKILL");
      await running.exited;
    }
    emulator?.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts `codesec-emulator --state` and resolves with its address and token once it is ready. */
  function start(stateFile: string, fixturesFile: string): Promise<Running> {
    const command = emulator as TranspiledEmulator;
    const child = spawn(
      process.execPath,
      [
        ...command.command,
        "--port",
        "0",
        "--json",
        "--quiet",
        "--state",
        stateFile,
        "--fixtures",
        fixturesFile,
      ],
      { env: command.env, stdio: ["pipe", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    return new Promise((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        const newline = out.indexOf("\n");
        if (newline === -1) return;
        const ready = JSON.parse(out.slice(0, newline)) as { baseUrl: string; apiToken: string };
        resolve({ child, baseUrl: ready.baseUrl, apiToken: ready.apiToken, exited, stderr: () => err });
      });
      void exited.then(() => reject(new Error(`the emulator exited before it was ready: ${err}`)));
    });
  }

  /**
   * Sends role writes from WRITERS concurrent clients and kills the emulator (SIGKILL) once KILL_AFTER_ACKS
   * were acknowledged. Resolves with every write acknowledged before the connection died.
   */
  async function writeAndKill(target: Running, round: number): Promise<Acknowledged[]> {
    const acknowledged: Acknowledged[] = [];
    // Each round starts further along the users and gives each a role other than last round's.
    const queue = USERS.map((_, i) => USERS[(i + round * 7) % USERS.length]);
    let killed = false;
    const writer = async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let userId = queue.shift(); userId !== undefined && !killed; userId = queue.shift()) {
          const role = ROLES[(Number(userId) + round) % ROLES.length] as string;
          const exchange = await rawRequest(
            target.baseUrl,
            "PATCH",
            `/api/agent/deployments/${DEPLOYMENT}/users/${userId}/roles`,
            {
              headers: apiHeaders(target.apiToken, true),
              body: JSON.stringify({ deploymentId: DEPLOYMENT, userId, newRole: role }),
              agent,
            },
          );
          if (exchange.status === 200 && exchange.complete) {
            acknowledged.push({ userId, role });
            if (acknowledged.length >= KILL_AFTER_ACKS && !killed) {
              killed = true;
              target.child.kill("SIGKILL");
            }
          }
        }
      } finally {
        agent.destroy();
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    if (!killed) target.child.kill("SIGKILL"); // every write answered first: kill anyway (then asserted)
    await target.exited;
    return acknowledged;
  }

  it(`keeps every acknowledged write across ${KILLS} kills, with no temporary copy left`, async () => {
    const stateFile = join(dir, "state.json");
    const fixturesFile = join(dir, "fixtures.json");
    const fixtures = defaultFixtures();
    for (const id of USERS) {
      fixtures.users.push({
        id,
        name: `Kill Test ${id}`,
        email: `kill-${id}@acme.example`,
        login: `kill-${id}`,
        authDetails: [],
        roles: { [DEPLOYMENT]: "ORG_ROLE_MEMBER" },
      });
    }
    writeFileSync(fixturesFile, JSON.stringify(fixtures));

    let lost = 0;
    let unreadable = 0;
    let copiesLeft = 0;
    let killsWithAck = 0;
    const problems: string[] = [];
    running = await start(stateFile, fixturesFile);
    for (let round = 0; round < KILLS; round += 1) {
      const acknowledged = await writeAndKill(running, round);
      if (acknowledged.length > 0) killsWithAck += 1;
      else problems.push(`round ${round}: no write was acknowledged before the kill`);
      expect(running.child.signalCode, running.stderr()).to.equal("SIGKILL");

      try {
        // The snapshot and its journal, as the next start reads them (a record cut short is ignored).
        const saved = readSavedData(stateFile);
        for (const { userId, role } of acknowledged) {
          const now = saved.users.find((u) => u.id === userId)?.roles[DEPLOYMENT];
          if (now !== role) throw new Error(`user ${userId} was acknowledged ${role}, the files hold ${now}`);
        }
      } catch (error) {
        unreadable += 1;
        problems.push(`round ${round}: the state file and its journal: ${(error as Error).message}`);
      }

      running = await start(stateFile, fixturesFile);
      const leftover = temporaryCopies(dir);
      copiesLeft += leftover.length;
      if (leftover.length > 0) problems.push(`round ${round}: left ${leftover.join(", ")}`);

      const state = await rawRequest(running.baseUrl, "GET", "/__emulator/state");
      const users = (JSON.parse(state.body.toString("utf8")) as RedactedState).users;
      for (const { userId, role } of acknowledged) {
        const now = users.find((u) => u.id === userId)?.roles[DEPLOYMENT];
        if (now !== role) {
          lost += 1;
          problems.push(`round ${round}: user ${userId} was acknowledged ${role}, the state has ${now}`);
        }
      }
    }
    running.child.kill("SIGTERM");
    await running.exited;
    expect(running.child.exitCode).to.equal(0);

    expect(problems).to.deep.equal([]);
    expect([lost, unreadable, copiesLeft, killsWithAck]).to.deep.equal([0, 0, 0, KILLS]);
    writeReportSection({
      id: "emulator-kill",
      title: "kill -9 of the emulator with --state",
      markdown: [
        `The emulator command runs with \`--state FILE\` while ${WRITERS} clients send role changes at once ` +
          `(updateUserRole, each for a distinct member user and a role other than its previous one). Once ` +
          `${KILL_AFTER_ACKS} were acknowledged, with others in flight, the process gets SIGKILL; it is started ` +
          "again on the same file and the state is read back. An acknowledged write is one answered with a " +
          "complete 200: the emulator appends the change to the state file's journal and fsyncs it before it " +
          "answers. After the kill the state file and its journal are read as the next start reads them " +
          "(a record cut short by the kill is ignored); the start then folds the journal into a new snapshot.",
        "",
        markdownTable(
          ["check", "result"],
          [
            ["kills (SIGKILL while writes are in flight)", KILLS],
            ["kills with at least one acknowledged write before them", `${killsWithAck} of ${KILLS}`],
            ["acknowledged writes missing after the restart", lost],
            [
              "state file and journal unreadable, or missing an acknowledged write, right after a kill",
              unreadable,
            ],
            ["temporary copies of the state file left after the restart", copiesLeft],
          ],
        ),
      ].join("\n"),
    });
  });
});
