/**
 * The UserRoles map comparison: N users in one `codesec.UserRoles` against N `codesec.UserRole`s and against
 * the API floor (the same N writes sent bare, paced at the client's default rate of 100 requests per second
 * with 16 in flight: the least time those writes can take at that rate), measured with the engine floor
 * (bench/engineFloor.ts, side `map`), interleaved and paired with the other sides. Targets (at N = 1,000, the
 * size of a large organization; smaller sizes are published without them): `up` (create) within 2x of the API
 * floor, the no-change preview and up under 5 s. At every size: a change of 5 entries makes exactly 5 writes;
 * from N = 50, the state per entry is at most a tenth of a UserRole's entry.
 */
import type { SizeRun } from "./engineFloor";
import { PHASES } from "./support/lifecycle";
import { figure, type Figure } from "./support/results";
import { median, pairedRatios, summarized } from "./support/stats";

const COMPARISON = "UserRoles map";
/** The size the map's time targets are set for. */
const TARGET_SIZE = 1000;

export function userRolesMapFigures(run: SizeRun): Figure[] {
  const { n, times } = run;
  const targeted = n >= TARGET_SIZE;
  const map = times.map;
  const figures: Figure[] = [
    figure({
      comparison: COMPARISON,
      name: `N=${n} up (create), map / API floor`,
      ...summarized(pairedRatios(map["up (create)"], run.apiFloorSeconds)),
      unit: "x",
      ...(targeted ? { target: { op: "<=", value: 2 } } : {}),
      detail:
        `map ${median(map["up (create)"]).toFixed(2)} s, API floor ${median(run.apiFloorSeconds).toFixed(2)} s ` +
        `(${n} bare writes at 100 req/s, 16 in flight; medians of ${run.repetitions})`,
    }),
  ];
  for (const phase of ["preview, no change", "up, no change"] as const) {
    figures.push(
      figure({
        comparison: COMPARISON,
        name: `N=${n} ${phase}, map: time`,
        ...summarized(map[phase]),
        unit: "s",
        ...(targeted ? { target: { op: "<=", value: 5 } } : {}),
        detail: `no-op floor of ${n} resources ${median(times.noop[phase]).toFixed(2)} s`,
      }),
    );
  }
  const writes = run.calls.map["update of 5"].byOperation.updateUserRole ?? 0;
  figures.push(
    figure({
      comparison: COMPARISON,
      name: `N=${n} update of 5 entries, map: writes`,
      value: writes,
      unit: "writes",
      target: { op: "==", value: Math.min(5, n) },
      detail: `all calls: ${JSON.stringify(run.calls.map["update of 5"].byOperation)}`,
    }),
  );
  const perEntry = run.stateBytes.map / n;
  figures.push(
    figure({
      comparison: COMPARISON,
      name: `N=${n} state per entry, map / one UserRole's entry`,
      value: perEntry / run.stateBytes.userRole,
      unit: "x",
      // From N = 50: below that the entry's fixed part (its provider, the connection) outweighs the users.
      ...(n >= 50 ? { target: { op: "<=", value: 0.1 } as const } : {}),
      detail: `map entry ${run.stateBytes.map} bytes / ${n} = ${perEntry.toFixed(0)} bytes per user; a UserRole's entry ${run.stateBytes.userRole} bytes`,
    }),
  );
  for (const phase of PHASES) {
    figures.push(
      figure({
        comparison: COMPARISON,
        name: `N=${n} ${phase}, map / ${n} UserRoles`,
        ...summarized(pairedRatios(map[phase], times.codesec[phase])),
        unit: "x",
        detail:
          `map ${median(map[phase]).toFixed(2)} s, UserRoles ${median(times.codesec[phase]).toFixed(2)} s; ` +
          `map's API calls ${run.calls.map[phase].total}`,
      }),
    );
  }
  return figures;
}
