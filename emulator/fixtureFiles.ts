/**
 * Fixture files: checking a fixture set given as a value or read from a JSON file, and where the example
 * file that ships with the package is (`emulator/fixtures.example.json`, docs/api-behaviour.md).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureSetProblems } from "./fixtureChecks";
import { withAllCollections, type FixtureFile, type FixtureSet } from "./fixtureSchema";

const EXAMPLE_NAME = "fixtures.example.json";

/**
 * Where the example fixture file is: it ships in the package's root, which is this module's folder when
 * run from source and its parent when run from `dist/`.
 */
export function exampleFixturesPath(): string {
  const candidates = [join(__dirname, EXAMPLE_NAME), join(__dirname, "..", EXAMPLE_NAME)];
  return candidates.find((file) => existsSync(file)) ?? candidates[1];
}

/**
 * Checks `value` and returns it as a complete fixture set (absent collections empty), or throws one error
 * listing every problem and where to find a valid example. The set shares `value`'s objects and changes
 * none of them: the store takes its own copy at open (EmulatorStore.open), the one copy a set needs.
 */
export function parseFixtureSet(value: unknown, source: string): FixtureSet {
  const problems = fixtureSetProblems(value);
  if (problems.length > 0) {
    throw new Error(
      `invalid fixture set (${source}):\n  - ${problems.join("\n  - ")}\n` +
        `Fix the fields named above; every collection may be left out (absent = empty). ` +
        `A valid example: ${exampleFixturesPath()}`,
    );
  }
  return withAllCollections(value as FixtureFile);
}

/** Reads and checks a JSON fixture file. */
export function loadFixtureFile(file: string): FixtureSet {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`cannot read fixture file ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`fixture file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  return parseFixtureSet(json, file);
}
