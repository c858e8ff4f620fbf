/**
 * Persistence of the emulator's state with `--state FILE`: a snapshot (FILE, ./stateFile) and a journal
 * (FILE.journal) of the changes made since, so that a write costs what it touches, not the whole store.
 *
 * - The journal starts with a header naming its snapshot (`journalId`), then one JSON line per mutation:
 *   the items it changed, each whole (`{"changes":[{"put":"users","item":{...}}]}`: the item added, or
 *   replacing the one with its key). A mutation's line is written and fsynced before its answer.
 * - When the journal outgrows its snapshot (COMPACTION_FACTOR times, and at least COMPACTION_MIN_BYTES),
 *   after a reset, at every start that found changes, and when an append fails, the state is compacted:
 *   a new snapshot with a new id, then a new journal naming it (each written atomically). A crash between
 *   the two leaves a journal naming the old snapshot, which is then ignored: its changes are in the new one.
 * - At start: the snapshot, then the journal's complete lines in order. A last line cut short by a crash
 *   (its write was never acknowledged) is ignored; an unreadable line followed by a readable one is
 *   corruption and stops the start.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  existsSync,
  fdatasyncSync,
  ftruncateSync,
  fstatSync,
  openSync,
  readFileSync,
  writeSync,
} from "node:fs";
import type { FixtureSet } from "./fixtureSchema";
import { COLLECTION_KEYS, type CollectionName } from "./indexedData";
import {
  generateSigningKey,
  readStateFile,
  removeStaleTemporaryCopies,
  writeFileAtomically,
  writeStateFile,
} from "./stateFile";

/** Marks the first line of a journal. */
export const JOURNAL_FORMAT = "codesec-emulator-journal";
/** Compaction when the journal is larger than this many times its snapshot... */
export const COMPACTION_FACTOR = 2;
/** ...and larger than this (a small store is not rewritten every few writes). */
export const COMPACTION_MIN_BYTES = 1024 * 1024;

/** One change of a mutation: the item of a collection as it is now (added, or replacing the one with its key). */
export interface StoredChange {
  put: CollectionName;
  item: unknown;
}

/** The journal of the state file `file`. */
export function journalPathOf(file: string): string {
  return `${file}.journal`;
}

interface JournalHeader {
  format: typeof JOURNAL_FORMAT;
  version: 1;
  /** The `journalId` of the snapshot this journal continues. */
  of: string;
}

/** What a journal holds for a snapshot. */
export interface JournalContents {
  /** The changes of each complete record, oldest first. */
  records: StoredChange[][];
  /** Whether a last record was cut short (a crash while it was written; never acknowledged). */
  tornTail: boolean;
  /** Whether the journal continues this snapshot (false: none, or one of an older snapshot). */
  matches: boolean;
}

function parseRecord(line: string): StoredChange[] | undefined {
  try {
    const record = JSON.parse(line) as { changes?: unknown };
    if (!Array.isArray(record.changes)) return undefined;
    const changes = record.changes as StoredChange[];
    return changes.every(
      (c) => typeof c.put === "string" && c.put in COLLECTION_KEYS && typeof c.item === "object",
    )
      ? changes
      : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the journal `file` of the snapshot `journalId`; throws when a record other than the last is unreadable. */
export function readJournal(file: string, journalId: string | undefined): JournalContents {
  if (journalId === undefined || !existsSync(file)) return { records: [], tornTail: false, matches: false };
  const lines = readFileSync(file, "utf8").split("\n");
  let header: Partial<JournalHeader> | undefined;
  try {
    header = JSON.parse(lines[0] ?? "") as Partial<JournalHeader>;
  } catch {
    header = undefined;
  }
  if (header?.format !== JOURNAL_FORMAT || header.of !== journalId) {
    return { records: [], tornTail: false, matches: false };
  }
  const records: StoredChange[][] = [];
  let unreadableAt: number | undefined;
  // The text after the last newline is a record cut short, or "" when the last record is whole.
  for (let i = 1; i < lines.length; i += 1) {
    const line = lines[i];
    const complete = i < lines.length - 1;
    const record = complete ? parseRecord(line) : undefined;
    if (record !== undefined && unreadableAt !== undefined) {
      throw new Error(
        `journal ${file} is corrupt: line ${unreadableAt + 1} cannot be read but later lines can; ` +
          "move it away (the changes it holds are lost) or restore it",
      );
    }
    if (record !== undefined) records.push(record);
    else if (line !== "" || complete) unreadableAt ??= i;
  }
  return { records, tornTail: unreadableAt !== undefined, matches: true };
}

/** Applies journaled changes to `data` (its arrays are changed in place), in order. */
export function applyChanges(data: FixtureSet, records: readonly StoredChange[][]): void {
  const positions = new Map<CollectionName, Map<string, number>>();
  const positionsOf = (name: CollectionName) => {
    let byKey = positions.get(name);
    if (!byKey) {
      const keyOf = COLLECTION_KEYS[name] as (item: unknown) => string;
      byKey = new Map((data[name] as unknown[]).map((item, position) => [keyOf(item), position]));
      positions.set(name, byKey);
    }
    return byKey;
  };
  for (const changes of records) {
    for (const { put, item } of changes) {
      const items = data[put] as unknown[];
      const key = (COLLECTION_KEYS[put] as (item: unknown) => string)(item);
      const byKey = positionsOf(put);
      const position = byKey.get(key);
      if (position === undefined) {
        byKey.set(key, items.length);
        items.push(item);
      } else items[position] = item;
    }
  }
}

/**
 * The data a state file and its journal hold, as the next start would load it (for tests and tools: it
 * changes nothing on disk). Throws like a start would on an unreadable file or a corrupt journal.
 */
export function readSavedData(stateFile: string): FixtureSet {
  const state = readStateFile(stateFile);
  applyChanges(state.data, readJournal(journalPathOf(stateFile), state.journalId).records);
  return state.data;
}

/** When the journal is folded into a new snapshot (defaults: COMPACTION_FACTOR, COMPACTION_MIN_BYTES). */
export interface CompactionPolicy {
  factor: number;
  minBytes: number;
}

/** What `StatePersistence.open` found or made. */
export interface OpenedState {
  persistence: StatePersistence;
  data: FixtureSet;
  signingKey: string;
  /** Whether the data came from an existing state file (rather than the seed). */
  loaded: boolean;
  /** Set when a record cut short by a crash was ignored (for a warning). */
  tornTail: boolean;
}

/** A state file and its journal: appends each mutation's changes, compacts when due. */
export class StatePersistence {
  private readonly journalFile: string;
  private snapshotBytes = 0;
  private journalBytes = 0;
  /** Set when an append failed: the journal may end with a partial line, so the next save compacts. */
  private needsCompaction = false;

  private constructor(
    private readonly stateFile: string,
    private readonly signingKey: string,
    private readonly policy: CompactionPolicy,
  ) {
    this.journalFile = journalPathOf(stateFile);
  }

  /**
   * Opens `stateFile`: its snapshot and journal when it exists (then compacted when the journal held
   * changes), else `seed` (written at once). Temporary copies a crash left behind are removed first: the
   * state file serves one emulator at a time, so no other save can be under way.
   */
  static open(stateFile: string, seed: FixtureSet, compaction: Partial<CompactionPolicy> = {}): OpenedState {
    const policy = { factor: COMPACTION_FACTOR, minBytes: COMPACTION_MIN_BYTES, ...compaction };
    removeStaleTemporaryCopies(stateFile);
    removeStaleTemporaryCopies(journalPathOf(stateFile));
    if (!existsSync(stateFile)) {
      const persistence = new StatePersistence(stateFile, generateSigningKey(), policy);
      persistence.compact(seed);
      return { persistence, data: seed, signingKey: persistence.signingKey, loaded: false, tornTail: false };
    }
    const state = readStateFile(stateFile);
    const journal = readJournal(journalPathOf(stateFile), state.journalId);
    applyChanges(state.data, journal.records);
    const persistence = new StatePersistence(stateFile, state.signingKey, policy);
    if (journal.matches && journal.records.length === 0 && !journal.tornTail) {
      persistence.snapshotBytes = readFileSync(stateFile).length;
      persistence.journalBytes = readFileSync(persistence.journalFile).length;
    } else {
      persistence.compact(state.data);
    }
    return {
      persistence,
      data: state.data,
      signingKey: state.signingKey,
      loaded: true,
      tornTail: journal.tornTail,
    };
  }

  /**
   * Makes one mutation's changes durable before it returns: one journal line, fsynced. `current` is the
   * whole data with the changes applied, for a compaction (when the journal is due for one, or the append
   * fails). Throws when neither works; the caller then undoes the mutation.
   */
  append(changes: readonly StoredChange[], current: () => FixtureSet): void {
    if (changes.length === 0) return;
    if (!this.needsCompaction) {
      try {
        this.journalBytes += this.appendLine(`${JSON.stringify({ changes })}\n`);
      } catch {
        // Whatever the append left, a compaction replaces it; if that fails too, the mutation fails.
        this.needsCompaction = true;
      }
    }
    if (this.needsCompaction) {
      this.compact(current());
      return;
    }
    if (this.compactionDue()) {
      try {
        this.compact(current());
      } catch {
        // The change is durable in the journal already, so the mutation stands; the next write tries again.
      }
    }
  }

  /** Replaces the whole state (a reset): a new snapshot and an empty journal. */
  rewrite(data: FixtureSet): void {
    this.compact(data);
  }

  private compactionDue(): boolean {
    return this.journalBytes > Math.max(this.policy.minBytes, this.policy.factor * this.snapshotBytes);
  }

  /** A new snapshot of `data` with a new id, then a new journal naming it. */
  private compact(data: FixtureSet): void {
    const journalId = randomBytes(12).toString("base64url");
    this.snapshotBytes = writeStateFile(this.stateFile, { signingKey: this.signingKey, journalId, data });
    const header: JournalHeader = { format: JOURNAL_FORMAT, version: 1, of: journalId };
    const text = `${JSON.stringify(header)}\n`;
    writeFileAtomically(this.journalFile, text);
    this.journalBytes = Buffer.byteLength(text, "utf8");
    this.needsCompaction = false;
  }

  /**
   * Appends `text` to the journal and fsyncs it. The journal is opened for each append, never created
   * here (a journal that vanished is not silently started again without its header), and cut back to its
   * size before the append when the write fails half-way.
   */
  private appendLine(text: string): number {
    const fd = openSync(this.journalFile, constants.O_WRONLY | constants.O_APPEND);
    try {
      const sizeBefore = fstatSync(fd).size;
      const bytes = Buffer.from(text, "utf8");
      try {
        let offset = 0;
        while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
        fdatasyncSync(fd);
      } catch (error) {
        try {
          ftruncateSync(fd, sizeBefore);
        } catch {
          // The compaction that follows replaces the journal anyway.
        }
        throw error;
      }
      return bytes.length;
    } finally {
      closeSync(fd);
    }
  }
}
