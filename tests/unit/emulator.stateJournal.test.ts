/**
 * `--state`: the snapshot and its journal (emulator/stateJournal.ts). A write costs one journal line; a
 * start replays the journal; a record cut short by a crash is ignored, never one before it; compaction
 * folds the journal into a new snapshot, and a crash half-way through it applies nothing twice.
 */
import { expect } from "chai";
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultFixtures } from "../../emulator/defaultFixtures";
import { STATE_FORMAT, readStateFile, type StateFileContents } from "../../emulator/stateFile";
import { journalPathOf, readJournal, readSavedData } from "../../emulator/stateJournal";
import { EmulatorStore } from "../../emulator/store";

describe("emulator state journal", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "codesec-journal-"));
    file = join(dir, "state.json");
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (compaction?: { factor?: number; minBytes?: number }) =>
    EmulatorStore.open({
      fixtures: defaultFixtures(),
      stateFile: file,
      ...(compaction ? { compaction } : {}),
    });
  const journalRecords = () => readJournal(journalPathOf(file), readStateFile(file).journalId).records;

  it("a restart replays every journaled write, in order, then folds them into a new snapshot", () => {
    const store = open();
    store.setRole("502", "1001", "ORG_ROLE_ADMIN");
    store.setRole("502", "1001", "ORG_ROLE_READONLY");
    store.addApiToken({
      id: "tok-new",
      value: "cst_1001_new_token_000000000",
      name: "new",
      deploymentId: "1001",
      userId: "502",
      webApi: true,
      scoped: false,
    });
    store.addNotificationRules("1001", 3);
    store.revokeApiToken("tok-new", new Date("2026-01-02T03:04:05Z"));
    expect(journalRecords()).to.have.length(5);
    const expected = store.snapshot();

    const reopened = open();
    expect(reopened.loadedFromStateFile).to.equal(true);
    expect(reopened.snapshot()).to.deep.equal(expected);
    expect(readStateFile(file).data).to.deep.equal(expected);
    expect(journalRecords()).to.deep.equal([]);
    expect(open().snapshot()).to.deep.equal(expected);
  });

  it("ignores a last record cut short by a crash, and keeps every record before it", () => {
    const store = open();
    store.setRole("502", "1001", "ORG_ROLE_ADMIN");
    store.setRole("503", "1001", "ORG_ROLE_MEMBER");
    // What a kill -9 in the middle of an append leaves: part of a line, no newline.
    appendFileSync(journalPathOf(file), '{"changes":[{"put":"users","item":{"id":"504","na');
    const reopened = open();
    expect(reopened.ignoredTornRecord).to.equal(true);
    expect(reopened.roleOf("502", "1001")).to.equal("ORG_ROLE_ADMIN");
    expect(reopened.roleOf("503", "1001")).to.equal("ORG_ROLE_MEMBER");
    expect(reopened.roleOf("504", "1001")).to.equal("ORG_ROLE_IMPERSONATOR");
    // The cut-short record is gone for good: writes after the restart follow whole lines.
    reopened.setRole("504", "1001", "ORG_ROLE_READONLY");
    const again = open();
    expect(again.ignoredTornRecord).to.equal(false);
    expect(again.roleOf("504", "1001")).to.equal("ORG_ROLE_READONLY");
  });

  it("also ignores a tail of zeros (an append the file system had not written out)", () => {
    open().setRole("502", "1001", "ORG_ROLE_ADMIN");
    appendFileSync(journalPathOf(file), Buffer.alloc(64));
    const reopened = open();
    expect(reopened.ignoredTornRecord).to.equal(true);
    expect(reopened.roleOf("502", "1001")).to.equal("ORG_ROLE_ADMIN");
  });

  it("refuses to start when a record other than the last cannot be read, touching nothing", () => {
    const store = open();
    store.setRole("502", "1001", "ORG_ROLE_ADMIN");
    const journal = journalPathOf(file);
    const lines = readFileSync(journal, "utf8").split("\n");
    lines.splice(1, 0, "{not json");
    writeFileSync(journal, lines.join("\n"));
    const before = readFileSync(journal, "utf8");
    expect(() => open()).to.throw(
      /journal .*state\.json\.journal is corrupt: line 2 cannot be read but later lines can/,
    );
    expect(readFileSync(journal, "utf8")).to.equal(before);
  });

  it("folds the journal into a new snapshot once it outgrows it, and starts an empty journal", () => {
    const store = open({ factor: 0, minBytes: 2000 });
    const firstId = readStateFile(file).journalId;
    const roles = ["ORG_ROLE_READONLY", "ORG_ROLE_MEMBER"] as const;
    for (let i = 0; i < 12; i += 1) store.setRole("502", "1001", roles[i % 2]);
    const state = readStateFile(file);
    expect(state.journalId).not.to.equal(firstId);
    expect(readFileSync(journalPathOf(file), "utf8").length).to.be.lessThan(2000);
    expect(readSavedData(file)).to.deep.equal(store.snapshot());
    expect(open().snapshot()).to.deep.equal(store.snapshot());
  });

  it("a write stands once its journal line is written, even when the compaction after it fails", () => {
    const store = open({ factor: 0, minBytes: 1 }); // every write is followed by a compaction
    const snapshot = readFileSync(file);
    // The snapshot cannot be replaced from now on (a directory in its place): every compaction fails.
    rmSync(file);
    mkdirSync(file);
    store.setRole("502", "1001", "ORG_ROLE_ADMIN");
    expect(store.roleOf("502", "1001")).to.equal("ORG_ROLE_ADMIN");
    rmSync(file, { recursive: true });
    writeFileSync(file, snapshot);
    expect(open().roleOf("502", "1001")).to.equal("ORG_ROLE_ADMIN");
  });

  it("ignores a journal of an older snapshot (a crash between the new snapshot and its journal)", () => {
    const store = open();
    store.addNotificationRules("1001", 2);
    const oldJournal = join(dir, "old-journal");
    copyFileSync(journalPathOf(file), oldJournal);
    // A restart compacts: new snapshot, new journal. Putting the old journal back is what a crash right
    // after the new snapshot leaves; replaying it would add the two rules a second time.
    const expected = open().snapshot();
    copyFileSync(oldJournal, journalPathOf(file));
    expect(open().snapshot()).to.deep.equal(expected);
    expect(expected.notificationRules).to.have.length(defaultFixtures().notificationRules.length + 2);
  });

  it("reset writes the fixtures as a new snapshot with an empty journal", () => {
    const store = open();
    store.setRole("502", "1001", "ORG_ROLE_ADMIN");
    store.reset();
    expect(journalRecords()).to.deep.equal([]);
    expect(readStateFile(file).data).to.deep.equal(defaultFixtures());
    expect(open().snapshot()).to.deep.equal(defaultFixtures());
  });

  it("loads a state file of version 1 (no journal) and continues it as version 2", () => {
    const v1: StateFileContents = {
      format: STATE_FORMAT,
      version: 1,
      savedAt: "2025-01-01T00:00:00Z",
      signingKey: Buffer.alloc(32, 7).toString("base64url"),
      data: {
        ...defaultFixtures(),
        users: defaultFixtures().users.map((u) =>
          u.id === "502" ? { ...u, roles: { "1001": "ORG_ROLE_ADMIN" as const } } : u,
        ),
      },
    };
    writeFileSync(file, JSON.stringify(v1));
    const store = open();
    expect(store.roleOf("502", "1001")).to.equal("ORG_ROLE_ADMIN");
    expect(readStateFile(file).version).to.equal(2);
    store.setRole("502", "1001", "ORG_ROLE_MEMBER");
    expect(open().roleOf("502", "1001")).to.equal("ORG_ROLE_MEMBER");
  });
});
