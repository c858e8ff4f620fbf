/**
 * The state size comparison: bytes of `__provider` and of the whole checkpoint entry per resource, for
 * each of the four kinds, as the package declares them (a stub that loads the implementation by package
 * name) against the naive provider that hands the implementation object itself to the engine (captured
 * by value); and a UserRole's entry against the lean floors' (bench/floors, stored as a one-line require
 * like our stub). Read from `pulumi stack export`.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { cpSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../tests/e2e/support/harness";
import { startEmulator, type EmulatorHandle } from "../emulator/index";
import { byValueNotStored } from "./support/byValue";
import { benchFixtures } from "./support/fixtures";
import type { BenchOptions } from "./support/options";
import { figure, type Figure } from "./support/results";
import {
  benchStack,
  connectionConfig,
  entryBytes,
  storedResources,
  type StoredResource,
} from "./support/stacks";
import { median } from "./support/stats";

const COMPARISON = "state size";
const KINDS = ["UserRole", "WorkflowProvisioning", "ScmWebhookSubscription", "ScmApp"] as const;
const ROLES = 10;

/** Sizes of one kind's entries in a checkpoint. */
interface EntrySize {
  entryBytes: number;
  providerBytes: number;
  /** How many times the entry stores `__provider` (inputs and outputs). */
  providerCopies: number;
}

function sizeOf(resource: StoredResource): EntrySize {
  const stored = [resource.inputs?.__provider, resource.outputs?.__provider].filter(
    (value): value is string => typeof value === "string",
  );
  return {
    entryBytes: entryBytes(resource),
    providerBytes: stored.length > 0 ? Buffer.byteLength(stored[0], "utf8") : 0,
    providerCopies: stored.length,
  };
}

/** Median sizes per kind (the part of the type token after its last colon) of a stack's resources. */
function sizesByKind(stack: Stack): Map<string, EntrySize> {
  const byKind = new Map<string, EntrySize[]>();
  for (const resource of storedResources(stack)) {
    if (!resource.type.startsWith("pulumi-nodejs:dynamic")) continue;
    const kind = resource.type.slice(resource.type.lastIndexOf(":") + 1);
    byKind.set(kind, [...(byKind.get(kind) ?? []), sizeOf(resource)]);
  }
  return new Map(
    [...byKind].map(([kind, sizes]) => [
      kind,
      {
        entryBytes: median(sizes.map((s) => s.entryBytes)),
        providerBytes: median(sizes.map((s) => s.providerBytes)),
        providerCopies: median(sizes.map((s) => s.providerCopies)),
      },
    ]),
  );
}

/** Creates the stack's resources, measures them, and destroys them again. */
async function measured(stack: Stack): Promise<Map<string, EntrySize>> {
  await stack.up();
  try {
    return sizesByKind(stack);
  } finally {
    await stack.destroy();
  }
}

async function kindsStack(emulator: EmulatorHandle, provider: "stub" | "byValue"): Promise<Stack> {
  // A fresh SCM app request each time: its one-time code is spent by the create.
  const request = emulator.control.createScmAppRequest({ deploymentId: emulator.deploymentId });
  const stack = await benchStack(
    "kinds",
    `kinds-${provider}`,
    {
      ...connectionConfig(emulator.baseUrl, emulator.apiToken),
      "bench:provider": { value: provider },
      "bench:scmAppRequestId": { value: request.requestId },
      "bench:scmAppCode": { value: request.code, secret: true },
    },
    { CODESEC_BASE_URL: emulator.baseUrl, CODESEC_TOKEN: emulator.apiToken },
  );
  // The naive provider's implementation, as the program's own files (see bench/programs/kinds/index.js).
  if (provider === "byValue")
    cpSync(path.join(repoRoot, "dist"), path.join(stack.workspace.workDir, "impl"), { recursive: true });
  return stack;
}

/** The serializer's reason, from a failed `pulumi up`'s diagnostics (the deepest "because" it gives). */
function whyNotStored(message: string): string {
  const lines = message.split("\n").map((line) => line.trim());
  const because = lines.findIndex((line) => line.endsWith("could not be serialized because"));
  if (because >= 0) {
    return `${lines[because].replace(/: which could not be serialized because$/, "")}: ${lines[because + 1] ?? ""}`;
  }
  return (lines.find((line) => line.startsWith("error:")) ?? lines[0]).slice(0, 200);
}

export async function stateSize(_options: BenchOptions, log: (line: string) => void): Promise<Figure[]> {
  const emulator = await startEmulator({ quiet: true, fixtures: benchFixtures({ members: ROLES }) });
  try {
    const roles = (provider: string) =>
      benchStack(
        "roles",
        `${provider}-sizes`,
        {
          ...connectionConfig(emulator.baseUrl, emulator.apiToken),
          "bench:provider": { value: provider },
          "bench:count": { value: String(ROLES) },
        },
        { BENCH_BASE_URL: emulator.baseUrl, BENCH_TOKEN: emulator.apiToken },
      );
    const ours = await measured(await roles("codesec"));
    const floor = await measured(await roles("noop"));
    const httpFloor = await measured(await roles("http"));
    const stub = await measured(await kindsStack(emulator, "stub"));
    let byValue: Map<string, EntrySize> | undefined;
    let byValueFailure = "";
    try {
      byValue = await measured(await kindsStack(emulator, "byValue"));
    } catch (error) {
      // The naive provider is the comparison's foil: when the engine cannot even store it, that is the figure.
      byValueFailure = whyNotStored(String(error instanceof Error ? error.message : error));
      log(byValueNotStored(byValueFailure).log);
    }
    const role = ours.get("UserRole");
    const noop = floor.get("NoopRole");
    const bare = httpFloor.get("HttpRole");
    if (!role || !noop || !bare) throw new Error("the roles stacks stored no UserRole, NoopRole or HttpRole");
    const figures: Figure[] = [
      figure({
        comparison: COMPARISON,
        name: "UserRole state entry / no-op floor's",
        value: role.entryBytes / noop.entryBytes,
        unit: "x",
        target: { op: "<=", value: 1.5 },
        detail: `${role.entryBytes} bytes against ${noop.entryBytes} bytes (median of ${ROLES})`,
      }),
      figure({
        comparison: COMPARISON,
        name: "UserRole state entry / HTTP floor's",
        value: role.entryBytes / bare.entryBytes,
        unit: "x",
        detail: `${role.entryBytes} bytes against ${bare.entryBytes} bytes (median of ${ROLES})`,
      }),
      figure({
        comparison: COMPARISON,
        name: "floors' __provider, no-op / HTTP",
        value: noop.providerBytes,
        unit: "bytes",
        detail:
          `no-op ${noop.providerBytes} bytes, HTTP ${bare.providerBytes} bytes, each stored ${bare.providerCopies} ` +
          `times per entry: a one-line require of bench/floors, as short as our stub`,
      }),
    ];
    for (const kind of KINDS) {
      const size = stub.get(kind);
      if (!size) throw new Error(`the kinds stack stored no ${kind}`);
      const naive = byValue?.get(kind);
      const against = naive
        ? `by value: ${naive.providerBytes} bytes x ${naive.providerCopies}, entry ${naive.entryBytes} bytes`
        : "by value: cannot be stored (see below)";
      figures.push(
        figure({
          comparison: COMPARISON,
          name: `${kind} __provider`,
          value: size.providerBytes,
          unit: "bytes",
          target: { op: "<=", value: 1024 },
          detail: `stored ${size.providerCopies} times per entry; ${against}`,
        }),
        figure({
          comparison: COMPARISON,
          name: `${kind} state entry`,
          value: size.entryBytes,
          unit: "bytes",
          detail: naive
            ? `by value ${naive.entryBytes} bytes (${(size.entryBytes / naive.entryBytes).toFixed(2)}x of it)`
            : against,
        }),
      );
    }
    if (!byValue) {
      figures.push(
        figure({
          comparison: COMPARISON,
          name: "the implementation captured by value, any kind",
          value: Number.NaN,
          unit: "bytes",
          detail: byValueNotStored(byValueFailure).detail,
        }),
      );
    }
    return figures;
  } finally {
    await emulator.close();
  }
}
