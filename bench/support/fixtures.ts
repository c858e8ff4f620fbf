/**
 * Fixture sets at organization scale for the emulator: the default fixtures plus `members` extra members
 * of deployment 1001 (one per UserRole of a bench stack) and exactly `rules` notification rules.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { defaultFixtures, type FixtureFile } from "../../emulator/index";

/** The deployment every bench stack manages. */
export const BENCH_DEPLOYMENT = "1001";

/** Id of the i-th bench member (0-based); the programs under bench/programs compute the same ids. */
export function benchUserId(i: number): string {
  return String(100_000 + i);
}

/** The default fixtures with `members` extra members and `rules` notification rules in deployment 1001. */
export function benchFixtures(options: { members?: number; rules?: number }): FixtureFile {
  const base = defaultFixtures();
  const members = Array.from({ length: options.members ?? 0 }, (_, i) => ({
    id: benchUserId(i),
    name: `Bench Member ${i}`,
    email: `bench.member.${i}@acme.example`,
    login: `bench-member-${i}`,
    authDetails: [],
    roles: { [BENCH_DEPLOYMENT]: "ORG_ROLE_MEMBER" as const },
  }));
  const template = base.notificationRules[0];
  const rules =
    options.rules === undefined
      ? base.notificationRules
      : Array.from({ length: options.rules }, (_, i) => ({
          ...template,
          id: 50_000 + i,
          name: `bench-rule-${i}`,
          deploymentId: BENCH_DEPLOYMENT,
          // Every tenth rule is broken, as in a real organization: the function's consumers filter on it.
          config_error: i % 10 === 9 ? "webhook url unreachable" : "",
        }));
  return { ...base, users: [...base.users, ...members], notificationRules: rules };
}

/** Writes a fixture set to `dir/name.json` (for emulators started as a command) and returns the path. */
export function writeFixtureFile(dir: string, name: string, fixtures: FixtureFile): string {
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(fixtures));
  return file;
}
