/**
 * The `--state` file, a snapshot of the whole state: its format, how it is written (atomically: a temporary
 * copy fsynced and renamed over it) and read back (checked like a fixture set), and the temporary copies a
 * crash can leave behind (they hold secrets). The changes since the snapshot are in its journal
 * (./stateJournal); no in-memory state here: ./store keeps that.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { fixtureSetProblems } from "./fixtureChecks";
import { withAllCollections, type FixtureFile, type FixtureSet } from "./fixtureSchema";

/** Marks a JSON file as an emulator state file. */
export const STATE_FORMAT = "codesec-emulator-state";
/** Version 2: the file is a snapshot, followed by the journal that names it (./stateJournal). */
export const STATE_VERSION = 2;
/** Versions this emulator reads (version 1 files have no journal). */
const READABLE_VERSIONS: readonly number[] = [1, STATE_VERSION];

/** What a `--state` file holds: the data (same shape as a fixture set) and the JWT signing key. */
export interface StateFileContents {
  format: typeof STATE_FORMAT;
  version: number;
  savedAt: string;
  /** HS256 key for user JWTs (and cursor tokens), base64url. A secret. */
  signingKey: string;
  /** The journal that continues this snapshot names it with this id (absent in version 1). */
  journalId?: string;
  data: FixtureSet;
}

/** A fresh path for a temporary copy of `file`, next to it: `.<name>.<pid>.<12 hex>.tmp`. */
export function temporaryCopyPath(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
}

/**
 * Removes the temporary copies of `file` that an interrupted `writeFileAtomically` left in its directory
 * (a process killed between writing and renaming: they hold tokens, one-time codes and the signing key).
 * Only names of exactly that pattern are touched. Returns the names removed.
 */
export function removeStaleTemporaryCopies(file: string): string[] {
  const dir = dirname(file);
  const escaped = basename(file).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`^\\.${escaped}\\.\\d+\\.[0-9a-f]{12}\\.tmp$`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // no directory yet: nothing was ever written there
  }
  const stale = names.filter((name) => pattern.test(name));
  for (const name of stale) rmSync(join(dir, name), { force: true });
  return stale;
}

/**
 * Writes `text` to `file` so that a reader (or a crash) sees either the old or the new contents, never a
 * mix: write a temporary file in the same directory, fsync it, rename it over the target, fsync the
 * directory. The file is readable by its owner only, since it holds credentials.
 */
export function writeFileAtomically(file: string, text: string): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const tmp = temporaryCopyPath(file);
  const fd = openSync(tmp, "wx", 0o600);
  try {
    const bytes = Buffer.from(text, "utf8");
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  try {
    const dirFd = openSync(dir, "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // Some platforms cannot open or fsync a directory; the rename itself is still atomic there.
  }
}

/** A fresh random HS256 key (256 bits, base64url). */
export function generateSigningKey(): string {
  return randomBytes(32).toString("base64url");
}

/** Reads and checks a state file; throws a message saying what is wrong with it. */
export function readStateFile(file: string): StateFileContents {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`state file ${file} cannot be read as JSON: ${(error as Error).message}`);
  }
  const state = parsed as Partial<StateFileContents> | null;
  if (!state || state.format !== STATE_FORMAT || !READABLE_VERSIONS.includes(Number(state.version))) {
    throw new Error(
      `state file ${file} is not an emulator state file (expected format "${STATE_FORMAT}" version ${READABLE_VERSIONS.join(" or ")}); ` +
        "move it away or point --state at another file",
    );
  }
  if (typeof state.signingKey !== "string" || Buffer.from(state.signingKey, "base64url").length < 32) {
    throw new Error(`state file ${file} has no usable signingKey`);
  }
  const problems = fixtureSetProblems(state.data);
  if (problems.length > 0) {
    throw new Error(`state file ${file} holds invalid data:\n  - ${problems.join("\n  - ")}`);
  }
  // The state file's data follows the fixture file's rules: a collection left out by hand is empty.
  return { ...(state as StateFileContents), data: withAllCollections(state.data as FixtureFile) };
}

/** Writes a snapshot of `data` (atomically, owner-only); returns its size in bytes. */
export function writeStateFile(
  file: string,
  snapshot: { signingKey: string; journalId: string; data: FixtureSet },
): number {
  const contents: StateFileContents = {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    savedAt: new Date().toISOString(),
    signingKey: snapshot.signingKey,
    journalId: snapshot.journalId,
    data: snapshot.data,
  };
  const text = `${JSON.stringify(contents, null, 2)}\n`;
  writeFileAtomically(file, text);
  return Buffer.byteLength(text, "utf8");
}
