import { expect } from "chai";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { defaultFixtures } from "../../emulator/defaultFixtures";
import {
  STATE_FORMAT,
  removeStaleTemporaryCopies,
  temporaryCopyPath,
  writeFileAtomically,
  type StateFileContents,
} from "../../emulator/stateFile";
import { EmulatorStore } from "../../emulator/store";
import { bytesCopiedDuring, fixturesWithRules } from "../support/largeFixtures";

/** Bytes of the heap still reachable, after full collections (Node's gc, exposed for this file). */
function liveHeap(): number {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe("emulator store", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "codesec-store-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  describe("in memory", () => {
    it("seeds from the fixtures and answers queries", () => {
      const store = EmulatorStore.open({ fixtures: defaultFixtures() });
      expect(store.loadedFromStateFile).to.equal(false);
      expect(store.deployment("1001")?.name).to.equal("acme");
      expect(store.roleOf("501", "1001")).to.equal("ORG_ROLE_ADMIN");
      expect(store.roleOf("501", "2002")).to.equal(undefined);
      expect(store.adminCount("1001")).to.equal(1);
      expect(store.projects("1001").map((p) => p.id)).to.include.members(["7001", "7004"]);
      expect(store.projects("1001").map((p) => p.id)).not.to.include("8001");
      expect(store.notificationRules("1001").map((r) => r.id)).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
      expect(store.signingKey.length).to.equal(32);
    });

    it("holds one copy of a large data set's objects, so a major collection marks the data once", () => {
      // At 50,000 rules a second copy (the fixtures kept for reset) put a mark-compact of the start-up's
      // garbage inside the first few hundred writes and doubled their cost (bench/emulatorWrites.ts).
      const fixtures = fixturesWithRules(20_000);
      const text = JSON.stringify(fixtures);
      const before = liveHeap();
      const held: unknown[] = [JSON.parse(text)];
      const oneCopy = liveHeap() - before;
      held.length = 0;
      const empty = liveHeap();
      const store = EmulatorStore.open({ fixtures });
      const stored = liveHeap() - empty;
      // One copy of the objects, the reset text and the indexes: 2.2 copies measured; with the second
      // copy of the objects it was 3.2.
      expect(stored / oneCopy).to.be.below(2.6);
      expect(store.notificationRules("1001")).to.have.length(20_007);
    });

    it("hands out copies, so callers cannot change the state behind its back", () => {
      const store = EmulatorStore.open({ fixtures: defaultFixtures() });
      const user = store.user("501");
      if (!user) throw new Error("fixture user 501 missing");
      user.roles["1001"] = "ORG_ROLE_READONLY";
      expect(store.roleOf("501", "1001")).to.equal("ORG_ROLE_ADMIN");
    });

    it("takes its own copy of the fixtures: what the caller changes in them after open reaches neither the state nor a reset", () => {
      // The one copy of a caller's fixture set (the fixtures option, a file's parse): the emulator copies it nowhere else.
      const fixtures = defaultFixtures();
      const store = EmulatorStore.open({ fixtures });
      fixtures.users.find((user) => user.id === "501")!.roles["1001"] = "ORG_ROLE_READONLY";
      fixtures.deployments.find((deployment) => deployment.id === "1001")!.name = "changed";
      expect(store.roleOf("501", "1001")).to.equal("ORG_ROLE_ADMIN");
      expect(store.deployment("1001")?.name).to.equal("acme");
      store.reset();
      expect(store.roleOf("501", "1001")).to.equal("ORG_ROLE_ADMIN");
      expect(store.deployment("1001")?.name).to.equal("acme");
    });

    it("sets and removes roles", () => {
      const store = EmulatorStore.open({ fixtures: defaultFixtures() });
      store.setRole("502", "1001", "ORG_ROLE_ADMIN");
      expect(store.adminCount("1001")).to.equal(2);
      store.setRole("502", "1001", null);
      expect(store.roleOf("502", "1001")).to.equal(undefined);
      expect(store.members("1001").map((u) => u.id)).not.to.include("502");
    });

    it("lists joinable deployments the user is not a member of", () => {
      const store = EmulatorStore.open({ fixtures: defaultFixtures() });
      expect(store.joinableDeployments("501").map((d) => d.id)).to.deep.equal(["3003"]);
      store.setRole("501", "3003", "ORG_ROLE_MEMBER");
      expect(store.joinableDeployments("501")).to.deep.equal([]);
      expect(store.joinableDeployments("601")).to.deep.equal([]);
    });

    it("completes SCM app requests and edits apps", () => {
      const store = EmulatorStore.open({ fixtures: defaultFixtures() });
      const done = store.completeScmAppRequest("apprq-1001-a", new Date("2025-07-01T00:00:00.123Z"));
      expect(done.state).to.equal("completed");
      expect(done.completedAt).to.equal("2025-07-01T00:00:00Z");
      store.updateScmApp("apprq-1001-a", { slug: "renamed" });
      expect(store.scmAppRequest("apprq-1001-a")?.app.slug).to.equal("renamed");
    });

    it("revokes an API token once: its first revocation time is kept", () => {
      const store = EmulatorStore.open({ fixtures: defaultFixtures() });
      const first = store.revokeApiToken("tok-1001-member", new Date("2025-07-01T00:00:00.500Z"));
      expect(first.revokedAt).to.equal("2025-07-01T00:00:00Z");
      store.revokeApiToken("tok-1001-member", new Date("2025-08-01T00:00:00Z"));
      expect(store.apiToken("tok-1001-member")?.revokedAt).to.equal("2025-07-01T00:00:00Z");
      expect(store.apiToken("tok-1001-admin")).not.to.have.property("revokedAt");
      expect(() => store.revokeApiToken("tok-nope", new Date())).to.throw(/unknown API token/);
    });

    it("hands out copies of listed rules and of the snapshot: changing them changes nothing", () => {
      const store = EmulatorStore.open({ fixtures: defaultFixtures() });
      const [first] = store.notificationRules("1001");
      if (!first) throw new Error("fixture rule missing");
      first.name = "changed";
      first.policy_slugs.push("changed");
      const page = store.notificationRulePage("1001", { limit: 1 });
      page.rules[0].config.channel = "changed";
      const snapshot = store.snapshot();
      snapshot.users[0].roles["1001"] = "ORG_ROLE_READONLY";
      snapshot.notificationRules.length = 0;
      expect(store.snapshot()).to.deep.equal(defaultFixtures());
    });

    it("pages the rules of a deployment by ascending id from after a given id, with or without a filter", () => {
      const store = EmulatorStore.open({ fixtures: fixturesWithRules(20) });
      const first = store.notificationRulePage("1001", { limit: 3 });
      expect(first.rules.map((r) => r.id)).to.deep.equal([1, 2, 3]);
      expect(first.more).to.equal(true);
      const middle = store.notificationRulePage("1001", { afterId: 1005, limit: 4 });
      expect(middle.rules.map((r) => r.id)).to.deep.equal([1006, 1007, 1008, 1009]);
      const email = store.notificationRulePage("1001", {
        afterId: 1005,
        limit: 2,
        matches: (rule) => rule.channel === "email",
      });
      expect(email.rules.map((r) => r.id)).to.deep.equal([1006, 1008]);
      const last = store.notificationRulePage("1001", { afterId: 1017, limit: 5 });
      expect(last.rules.map((r) => r.id)).to.deep.equal([1018, 1019, 1020]);
      expect(last.more).to.equal(false);
      const exact = store.notificationRulePage("1001", { afterId: 1017, limit: 3 });
      expect(exact.more).to.equal(false);
      expect(store.notificationRulePage("2002", { limit: 50 }).rules.map((r) => r.id)).to.deep.equal([8]);
      expect(store.notificationRulePage("9999", { limit: 50 })).to.deep.equal({ rules: [], more: false });
    });

    it("copies only what a request touches, however large the store (10,000 rules)", async () => {
      const fixtures = fixturesWithRules(10_000);
      const store = EmulatorStore.open({ fixtures });
      const oneRule = JSON.stringify(fixtures.notificationRules[5000]).length;
      // A role write copies the user it changes, not the data set.
      expect(await bytesCopiedDuring(() => store.setRole("502", "1001", "ORG_ROLE_ADMIN"))).to.be.below(
        2_000,
      );
      // Reads copy what they return.
      expect(await bytesCopiedDuring(() => store.user("502"))).to.be.below(1_000);
      const token = "cst_1001_admin_5b7e0c1d9a2f4e68";
      expect(await bytesCopiedDuring(() => store.apiTokenByValue(token))).to.be.below(1_000);
      // A page from the middle of the listing copies that page, not the rules before or after it.
      const page = await bytesCopiedDuring(() =>
        store.notificationRulePage("1001", { afterId: 6000, limit: 50 }),
      );
      expect(page).to.be.below(oneRule * 60);
    });

    it("adds generated notification rules after the highest id, in one change", () => {
      const store = EmulatorStore.open({ fixtures: defaultFixtures() });
      const added = store.addNotificationRules("1001", 3);
      expect(added).to.deep.equal({ firstId: 9, lastId: 11 });
      const ids = store.notificationRules("1001").map((r) => r.id);
      expect(ids).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 9, 10, 11]);
      expect(store.notificationRules("2002").map((r) => r.id)).to.deep.equal([8]);
      expect(() => store.addNotificationRules("9999", 1)).to.throw(/unknown deployment 9999/);
    });

    it("leaves the state unchanged when a mutation fails", () => {
      const store = EmulatorStore.open({ fixtures: defaultFixtures() });
      expect(() => store.setRole("nobody", "1001", "ORG_ROLE_ADMIN")).to.throw(/unknown user/);
      expect(store.snapshot()).to.deep.equal(defaultFixtures());
    });

    it("reset restores the fixtures and keeps the signing key", () => {
      const store = EmulatorStore.open({ fixtures: defaultFixtures() });
      const key = Buffer.from(store.signingKey).toString("hex");
      store.setRole("502", "1001", "ORG_ROLE_ADMIN");
      store.addApiToken({
        id: "tok-x",
        value: "cst_extra_token_0000000000",
        name: "x",
        deploymentId: "1001",
        userId: "502",
        webApi: true,
        scoped: false,
      });
      store.reset();
      expect(store.snapshot()).to.deep.equal(defaultFixtures());
      expect(Buffer.from(store.signingKey).toString("hex")).to.equal(key);
    });

    it("redacts every secret from the exported state", () => {
      const store = EmulatorStore.open({ fixtures: defaultFixtures() });
      const text = JSON.stringify(store.redactedSnapshot());
      for (const token of defaultFixtures().apiTokens) expect(text).not.to.include(token.value);
      for (const request of defaultFixtures().scmAppRequests) expect(text).not.to.include(request.code);
      expect(text).not.to.include(Buffer.from(store.signingKey).toString("base64url"));
      expect(text).to.include("tok-1001-admin");
    });
  });

  describe("state file", () => {
    it("is written at open, after every mutation, and loaded by the next open", () => {
      const file = join(dir, "nested", "state.json");
      const first = EmulatorStore.open({ fixtures: defaultFixtures(), stateFile: file });
      const written = JSON.parse(readFileSync(file, "utf8")) as StateFileContents;
      expect(written.format).to.equal(STATE_FORMAT);
      expect(written.data).to.deep.equal(defaultFixtures());
      first.setRole("502", "1001", "ORG_ROLE_ADMIN");

      const second = EmulatorStore.open({ fixtures: defaultFixtures(), stateFile: file });
      expect(second.loadedFromStateFile).to.equal(true);
      expect(second.roleOf("502", "1001")).to.equal("ORG_ROLE_ADMIN");
      expect(Buffer.from(second.signingKey).equals(Buffer.from(first.signingKey))).to.equal(true);
    });

    it("a mutation whose save fails changes nothing in memory either, and throws", () => {
      const folder = join(dir, "folder");
      const file = join(folder, "state.json");
      const store = EmulatorStore.open({ fixtures: defaultFixtures(), stateFile: file });
      // The state file's directory becomes a plain file: every save from now on fails.
      rmSync(folder, { recursive: true });
      writeFileSync(folder, "not a directory");
      expect(() => store.setRole("502", "1001", "ORG_ROLE_ADMIN")).to.throw();
      expect(store.roleOf("502", "1001")).to.equal("ORG_ROLE_MEMBER");
      expect(store.adminCount("1001")).to.equal(1);
      const token = {
        id: "tok-x",
        value: "cst_extra_token_0000000000",
        name: "x",
        deploymentId: "1001",
        userId: "502",
        webApi: true,
        scoped: false,
      };
      expect(() => store.addApiToken(token)).to.throw();
      expect(store.apiTokenByValue(token.value)).to.equal(undefined);
      expect(store.apiToken("tok-x")).to.equal(undefined);
      expect(() => store.addNotificationRules("1001", 5)).to.throw();
      expect(() => store.reset()).to.throw();
      expect(store.snapshot()).to.deep.equal(defaultFixtures());
      // Once saving works again, the next change goes through.
      rmSync(folder);
      store.setRole("502", "1001", "ORG_ROLE_ADMIN");
      expect(store.roleOf("502", "1001")).to.equal("ORG_ROLE_ADMIN");
    });

    it("a write appends one line to the journal and leaves the snapshot alone; both owner-only", () => {
      const file = join(dir, "state.json");
      const store = EmulatorStore.open({ fixtures: defaultFixtures(), stateFile: file });
      const snapshot = readFileSync(file, "utf8");
      const inode = statSync(file).ino;
      const journalBefore = readFileSync(`${file}.journal`, "utf8");
      store.setRole("503", "1001", "ORG_ROLE_MEMBER");
      expect(readFileSync(file, "utf8")).to.equal(snapshot);
      expect(statSync(file).ino).to.equal(inode);
      const journal = readFileSync(`${file}.journal`, "utf8");
      expect(journal.startsWith(journalBefore)).to.equal(true);
      const lines = journal.slice(journalBefore.length).split("\n");
      expect(lines).to.have.length(2);
      expect(lines[1]).to.equal("");
      expect(JSON.parse(lines[0])).to.deep.equal({
        changes: [
          { put: "users", item: { ...defaultFixtures().users[2], roles: { "1001": "ORG_ROLE_MEMBER" } } },
        ],
      });
      expect(readdirSync(dir).sort()).to.deep.equal(["state.json", "state.json.journal"]);
      if (process.platform !== "win32") {
        expect(statSync(file).mode & 0o777).to.equal(0o600);
        expect(statSync(`${file}.journal`).mode & 0o777).to.equal(0o600);
      }
    });

    describe("temporary copies left by a crash during a save", () => {
      // What `kill -9` between writing and renaming leaves: `.<name>.<pid>.<12 hex>.tmp`, holding secrets.
      const stale = [".state.json.4242.0123456789ab.tmp", ".state.json.7.ffffffffffff.tmp"];
      // The journal's own temporary copies (written at a compaction).
      const staleJournal = [".state.json.journal.4242.0123456789ab.tmp"];
      // Names that only resemble the pattern, or belong to another file: never touched.
      const others = [
        "state.json.bak",
        ".state.json.tmp",
        ".state.json.4242.tmp",
        ".state.json.x.0123456789ab.tmp",
        ".state.json.4242.0123456789AB.tmp",
        ".other.json.4242.0123456789ab.tmp",
        ".statexjson.4242.0123456789ab.tmp",
      ];
      const plant = () => {
        for (const name of [...stale, ...staleJournal, ...others])
          writeFileSync(join(dir, name), "secret", { mode: 0o600 });
      };

      it("are removed when a store opens an existing state file; nothing else is", () => {
        const file = join(dir, "state.json");
        EmulatorStore.open({ fixtures: defaultFixtures(), stateFile: file }).setRole(
          "502",
          "1001",
          "ORG_ROLE_READONLY",
        );
        plant();
        const reopened = EmulatorStore.open({ fixtures: defaultFixtures(), stateFile: file });
        expect(reopened.roleOf("502", "1001")).to.equal("ORG_ROLE_READONLY");
        expect(readdirSync(dir).sort()).to.deep.equal(["state.json", "state.json.journal", ...others].sort());
      });

      it("are removed when a store seeds a new state file next to them", () => {
        plant();
        EmulatorStore.open({ fixtures: defaultFixtures(), stateFile: join(dir, "state.json") });
        expect(readdirSync(dir).sort()).to.deep.equal(["state.json", "state.json.journal", ...others].sort());
      });

      it("are reported by name; a missing directory has none", () => {
        plant();
        expect(removeStaleTemporaryCopies(join(dir, "state.json")).sort()).to.deep.equal([...stale].sort());
        expect(removeStaleTemporaryCopies(join(dir, "absent", "state.json"))).to.deep.equal([]);
      });

      it("include every name writeFileAtomically gives its temporary copies", () => {
        const file = join(dir, "state.json");
        const copies = [temporaryCopyPath(file), temporaryCopyPath(file)];
        for (const copy of copies) writeFileSync(copy, "secret");
        expect(removeStaleTemporaryCopies(file).sort()).to.deep.equal(copies.map((c) => basename(c)).sort());
      });
    });

    it("refuses a file that is not an emulator state file, naming it", () => {
      const file = join(dir, "state.json");
      writeFileSync(file, JSON.stringify({ hello: "world" }));
      expect(() => EmulatorStore.open({ fixtures: defaultFixtures(), stateFile: file })).to.throw(
        /state\.json is not an emulator state file/,
      );
      writeFileSync(file, "{not json");
      expect(() => EmulatorStore.open({ fixtures: defaultFixtures(), stateFile: file })).to.throw(
        /cannot be read as JSON/,
      );
    });

    it("refuses a state file with invalid data", () => {
      const file = join(dir, "state.json");
      EmulatorStore.open({ fixtures: defaultFixtures(), stateFile: file });
      const state = JSON.parse(readFileSync(file, "utf8")) as StateFileContents;
      state.data.users[0].roles["9999"] = "ORG_ROLE_ADMIN";
      writeFileSync(file, JSON.stringify(state));
      expect(() => EmulatorStore.open({ fixtures: defaultFixtures(), stateFile: file })).to.throw(
        /unknown deploymentId "9999"/,
      );
    });
  });

  describe("writeFileAtomically", () => {
    it("replaces the contents and leaves no temporary file", () => {
      const file = join(dir, "f.json");
      writeFileAtomically(file, "one");
      writeFileAtomically(file, "two");
      expect(readFileSync(file, "utf8")).to.equal("two");
      expect(readdirSync(dir)).to.deep.equal(["f.json"]);
    });

    it("removes its temporary file when the rename fails", () => {
      const target = join(dir, "occupied");
      mkdirSync(join(target, "child"), { recursive: true });
      expect(() => writeFileAtomically(target, "x")).to.throw();
      expect(readdirSync(dir)).to.deep.equal(["occupied"]);
    });
  });
});
