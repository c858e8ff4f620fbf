/**
 * The UserRoles map at the documented maximum of entries (5,000; 50 in a smoke run): `pulumi up` of one
 * dynamic `codesec.UserRoles` of N users (bench/programs/roles, side `map`), the `pulumi` command alone
 * timed, against its API floor measured just before it (the same N role writes sent bare, paced at the
 * client's default rate: bench/engineFloor.ts's mapApiFloor). Measured once: one create of 5,000 entries
 * takes the API floor's 50 s at least, and the stacks' comparison (bench/engineFloor.ts) stops at 1,000.
 * Published without a target; the 1,000-entry map's targets are in the UserRoles map comparison.
 */
import { startEmulator } from "../emulator/index";
import { MAX_USER_ROLES } from "../provider/resources/userRoles/implementation";
import { mapApiFloor } from "./engineFloor";
import { benchFixtures } from "./support/fixtures";
import { expectChanges, timeCommand } from "./support/lifecycle";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import { benchStack, connectionConfig } from "./support/stacks";

export const MAP_AT_LIMIT_STEP = "UserRoles map at its maximum";

/** The comparison its figures belong to: the UserRoles map's (bench/userRolesMap.ts). */
const COMPARISON = "UserRoles map";

export async function userRolesMapAtLimit(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<Figure[]> {
  const n = options.mapAtLimitEntries;
  const emulator = await startEmulator({ quiet: true, fixtures: benchFixtures({ members: n }) });
  try {
    const stack = await benchStack("roles", `map-at-limit-${n}`, {
      ...connectionConfig(emulator.baseUrl, emulator.apiToken),
      "bench:provider": { value: "map" },
      "bench:count": { value: String(n) },
    });
    // Untimed: the language host's first start and the program's first load.
    await stack.preview();
    // The floor first: its writes change every member's role and set them back, as the create then does.
    const floor = await mapApiFloor(emulator, n);
    log(`  ${MAP_AT_LIMIT_STEP}: API floor ${floor.toFixed(1)} s for ${n} writes`);
    const up = await timeCommand(stack, "up", () => stack.up());
    expectChanges(`${MAP_AT_LIMIT_STEP} up`, up.result.summary.resourceChanges, "create", 2);
    log(`  ${MAP_AT_LIMIT_STEP}: up ${up.seconds.toFixed(1)} s`);
    const entries = `${n.toLocaleString("en-US")}${n === MAX_USER_ROLES ? " (the documented maximum)" : ""}`;
    return [
      figure({
        comparison: COMPARISON,
        name: `N=${entries} up (create), map / API floor`,
        value: up.seconds / floor,
        unit: "x",
        repetitions: 1,
        detail: `map ${up.seconds.toFixed(2)} s (the pulumi up command alone), API floor ${floor.toFixed(2)} s (${n} bare writes at 100 req/s, 16 in flight, just before); one measurement`,
      }),
      figure({
        comparison: COMPARISON,
        name: `N=${entries} up (create), map: seconds above the API floor`,
        value: up.seconds - floor,
        unit: "s",
        repetitions: 1,
      }),
    ];
  } finally {
    await emulator.close();
  }
}
