/**
 * The emulator capacity comparison: requests per second a bare keep-alive loop gets at concurrency 16
 * from a read route (getScan, `GET .../scans/{scanId}`) and a write route (updateUserRole,
 * `PATCH .../users/{userId}/roles`), with the state in
 * memory and with `--state`, on a small store (the default fixtures) and a large one (10,000 notification
 * rules). The large store should cost no more per request than the small one. Every write changes a role
 * (the emulator skips a write that changes nothing, so a repeated one would measure no write at all). The
 * emulator runs in a process of its own; the four set-ups are interleaved in every repetition.
 */
import { rmSync } from "node:fs";
import * as path from "node:path";
import { scratchDir } from "../tests/e2e/support/harness";
import { bareLoop, type BareRequest } from "./support/bareLoop";
import { startEmulatorProcess, type EmulatorProcess } from "./support/emulatorProcess";
import { benchFixtures, benchUserId, writeFixtureFile } from "./support/fixtures";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import { median, pairedRatios, summarized } from "./support/stats";

const COMPARISON = "emulator capacity";
const CONCURRENCY = 16;

type Route = "getScan" | "updateUserRole";
const ROUTES: Route[] = ["getScan", "updateUserRole"];

function routeRequest(route: Route, emulator: EmulatorProcess): BareRequest {
  const { baseUrl, apiToken: token, deploymentId, sample } = emulator;
  if (route === "getScan") {
    return {
      baseUrl,
      token,
      method: "GET",
      path: `/api/v2/deployments/${deploymentId}/scans/${sample.scanId}`,
    };
  }
  return roleWrites(emulator);
}

/** Members of the bench store whose roles the writes change, more than the loops that write at once. */
export const WRITTEN_MEMBERS = 4 * CONCURRENCY;

/**
 * Role writes (updateUserRole) that each change a role: member after member, each one set to the role other
 * than the one it has (every member starts as ORG_ROLE_MEMBER). The count goes on across the loops that use
 * the request (a warm-up, then the measure), so that no write repeats the role a member already has.
 */
export function roleWrites(
  emulator: Pick<EmulatorProcess, "baseUrl" | "apiToken" | "deploymentId">,
): BareRequest {
  const { baseUrl, apiToken: token, deploymentId } = emulator;
  let written = 0;
  return {
    baseUrl,
    token,
    method: "PATCH",
    path: `/api/agent/deployments/${deploymentId}/users/${benchUserId(0)}/roles`,
    vary: () => {
      const n = written++;
      const userId = benchUserId(n % WRITTEN_MEMBERS);
      const newRole = Math.floor(n / WRITTEN_MEMBERS) % 2 === 0 ? "ORG_ROLE_READONLY" : "ORG_ROLE_MEMBER";
      return {
        path: `/api/agent/deployments/${deploymentId}/users/${userId}/roles`,
        body: { deploymentId, userId, newRole },
      };
    },
  };
}

export async function emulatorCapacity(
  options: BenchOptions,
  log: (line: string) => void,
): Promise<Figure[]> {
  const dir = scratchDir("capacity");
  const stores = {
    small: writeFixtureFile(dir, "small", benchFixtures({ members: WRITTEN_MEMBERS })),
    large: writeFixtureFile(
      dir,
      "large",
      benchFixtures({ members: WRITTEN_MEMBERS, rules: options.largeStoreRules }),
    ),
  };
  const setups = (["memory", "state"] as const).flatMap((storage) =>
    (["small", "large"] as const).map((store) => ({ storage, store, key: `${storage}/${store}` })),
  );
  const rates = new Map<string, number[]>();
  for (let rep = 0; rep < options.reps; rep++) {
    for (const { storage, store, key } of setups) {
      const stateFile = path.join(dir, `state-${store}.json`);
      // Seeded from the fixtures afresh, with no journal of an earlier set-up.
      rmSync(stateFile, { force: true });
      rmSync(`${stateFile}.journal`, { force: true });
      const emulator = await startEmulatorProcess([
        "--fixtures",
        stores[store],
        ...(storage === "state" ? ["--state", stateFile] : []),
      ]);
      try {
        for (const route of ROUTES) {
          const request = routeRequest(route, emulator);
          await bareLoop(request, CONCURRENCY, { requests: 200 }); // warm-up: JIT, sockets
          const result = await bareLoop(request, CONCURRENCY, { seconds: options.capacitySeconds });
          const failed = result.requests - (result.statuses["200"] ?? 0);
          if (failed > 0)
            throw new Error(
              `${route} (${key}): ${failed} answers other than 200: ${JSON.stringify(result.statuses)}`,
            );
          rates.set(`${route} ${key}`, [...(rates.get(`${route} ${key}`) ?? []), result.perSecond]);
          log(`  rep ${rep + 1} ${route} ${key}: ${result.perSecond.toFixed(0)} req/s`);
        }
      } finally {
        await emulator.close();
      }
    }
  }
  const figures: Figure[] = [];
  for (const route of ROUTES) {
    for (const storage of ["memory", "state"] as const) {
      const small = rates.get(`${route} ${storage}/small`) ?? [];
      const large = rates.get(`${route} ${storage}/large`) ?? [];
      figures.push(
        figure({
          comparison: COMPARISON,
          name: `${route}, ${storage === "memory" ? "in memory" : "--state"}, large store / small`,
          ...summarized(pairedRatios(large, small)),
          unit: "x",
          target: { op: ">=", value: 0.9 },
          detail:
            `${median(large).toFixed(0)} req/s with ${options.largeStoreRules.toLocaleString("en-US")} rules, ` +
            `${median(small).toFixed(0)} req/s small (concurrency ${CONCURRENCY}, median of ${small.length})`,
        }),
      );
    }
  }
  return figures;
}
