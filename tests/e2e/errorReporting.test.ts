/**
 * What a user reads when something fails, through the real Pulumi CLI (`pulumi preview`, `up`, `destroy`):
 * a program error is reported without a long wait; a failure the package raises on purpose prints once,
 * its message alone; a bug keeps its stack, printed once, its frames pointing at files the installed
 * package holds.
 */
import { expect } from "chai";
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator";
import {
  createStack,
  killTaggedProcesses,
  packedPackage,
  prepareProgram,
  requirePulumiCli,
  scratchDir,
  spawnPulumi,
} from "./support/harness";

const PROGRAM = path.join(__dirname, "programs/errors");

/**
 * The program runs as TypeScript but without ts-node's type check on every run: `npm run lint` type-checks
 * it (tsconfig.json includes tests/), and what these tests read is what a failing run prints.
 */
const PROGRAM_ENV = { PULUMI_NODEJS_TRANSPILE_ONLY: "true" };

/**
 * The longest a failing `pulumi preview` of this small program may take to end. A bound on waiting, not
 * a speed target: generous for a loaded 2-core machine (a run takes 5 to 20 s), far below the ~110 s a
 * program error took to appear on a Node.js whose `util.inspect` loops on such an error's stack
 * (nodejs/node#64011; see scripts/setup-node.sh).
 */
const REPORTED_WITHIN_MS = 60_000;

/**
 * `pulumi <args>` to its end (`ended`), or, once `REPORTED_WITHIN_MS` has passed, its processes killed and
 * `ended` false; with its exit code and output either way.
 */
async function runBounded(stack: Stack, args: string[], tag: string) {
  const run = spawnPulumi(stack, [...args, "--non-interactive", "--color", "never"], tag);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), REPORTED_WITHIN_MS);
  });
  try {
    const exited = await Promise.race([run.exited, late]);
    if (exited === undefined) {
      await killTaggedProcesses(tag);
      return { ended: false, code: null, output: run.output() };
    }
    return { ended: true, code: exited.code, output: run.output() };
  } finally {
    clearTimeout(timer);
  }
}

/** A stack frame line (`at fn (/path/file.ts:1:2)`, `at /path/file.js:1:2`, `at node:internal/…:1:2`). */
const FRAME = /\bat (?:[^\s()]+ \()?((?:\/|node:|file:)[^\s()]*):\d+:\d+\)?$/gm;

/** Colour codes, which @pulumi/pulumi puts in a program error's stack even with `--color never`. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** The frames of `output`: the file each names. */
function framesIn(output: string): string[] {
  return [...output.replace(COLOUR, "").matchAll(FRAME)].map((m) => m[1]);
}

/** The CLI's Diagnostics section: every message once, under the resource or stack it concerns. */
function diagnostics(output: string): string {
  const start = output.indexOf("Diagnostics:");
  expect(start, output).to.be.greaterThan(-1);
  const end = output.indexOf("\nResources:", start);
  return output.slice(start, end < 0 ? undefined : end);
}

/** How many times `text` occurs in `output`. */
function occurrences(output: string, text: string): number {
  return output.split(text).length - 1;
}

/** The CLI printed `text` once among its diagnostics, and no stack frame anywhere. */
function expectPrintedOnceWithoutFrames(output: string, text: string): void {
  expect(occurrences(diagnostics(output), text), output).to.equal(1);
  expect(framesIn(output), output).to.deep.equal([]);
}

/**
 * A build of the package with a bug: UserRole's `check` reads a property of undefined (a TypeError) inside
 * the package's own engine entry, where its failures are reported.
 */
function packageWithABug(tarball: string): string {
  const dir = scratchDir("bug");
  execFileSync("tar", ["-xzf", tarball, "-C", dir]);
  const pkgDir = path.join(dir, "package");
  const entry = path.join(pkgDir, "dist/provider/dynamic/engineEntry.js");
  writeFileSync(
    entry,
    readFileSync(entry, "utf8") +
      `
const __e2eEngineEntry = exports.engineEntry;
exports.engineEntry = function (kind, implementation) {
  if (kind !== "UserRole") return __e2eEngineEntry(kind, implementation);
  const check = async function () {
    const state = undefined;
    return state.role;
  };
  return __e2eEngineEntry(kind, Object.assign({}, implementation, { check }));
};
`,
  );
  const out = scratchDir("bug-pack");
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], {
    cwd: pkgDir,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .pop()!;
  return path.join(out, name);
}

describe("errors through the Pulumi CLI", function () {
  let programDir: string;

  before(() => {
    console.log(`      using ${requirePulumiCli()}`);
    programDir = prepareProgram(PROGRAM);
  });

  describe("a program error is reported without waiting (no credentials anywhere)", () => {
    const cases = [
      {
        name: "apply",
        what: "an error thrown inside an apply (the program's own: its stack is kept)",
        message: "e2e: thrown inside an apply",
        raisedOnPurpose: false,
      },
      {
        name: "function",
        what: "a failing Output-form function (raised on purpose: once, without frames)",
        message: "pulumi-codesec: no credentials. Set them in one of three ways",
        raisedOnPurpose: true,
      },
    ];
    for (const c of cases) {
      it(`${c.what}: pulumi preview prints it and exits within ${REPORTED_WITHIN_MS / 1000} s`, async () => {
        // Blank values count as unset: the machine's own CODESEC_* cannot lend the program credentials.
        const stack = await createStack(
          programDir,
          `errors-${c.name}`,
          { "e2e:case": { value: c.name } },
          { ...PROGRAM_ENV, CODESEC_BASE_URL: "", CODESEC_TOKEN: "" },
        );
        const result = await runBounded(stack, ["preview"], `e2e-errors-${c.name}`);
        expect(result.ended, `still running after ${REPORTED_WITHIN_MS} ms:\n${result.output}`).to.equal(
          true,
        );
        expect(result.code, result.output).to.not.equal(0);
        if (c.raisedOnPurpose) {
          expectPrintedOnceWithoutFrames(result.output, c.message);
        } else {
          expect(result.output).to.include(c.message);
          expect(framesIn(result.output), result.output).to.not.deep.equal([]);
        }
      });
    }
  });

  describe("engine calls: a failure raised on purpose prints once, without frames; a bug keeps its stack", () => {
    let emulator: EmulatorHandle;

    before(async () => {
      emulator = await startEmulator({ quiet: true });
    });

    after(async () => {
      await emulator?.close();
    });

    function resourceConfig(token: string): ConfigMap {
      return {
        "e2e:case": { value: "resource" },
        "e2e:deploymentId": { value: emulator.deploymentId },
        "e2e:memberUserId": { value: emulator.sample.memberUserId },
        "codesec:baseUrl": { value: emulator.baseUrl },
        "codesec:token": { value: token, secret: true },
      };
    }

    it("check: a token the platform refuses (pulumi preview)", async () => {
      const stack = await createStack(
        programDir,
        "errors-check",
        resourceConfig("cst_1001_admin_refused000000000"),
        PROGRAM_ENV,
      );
      const result = await runBounded(stack, ["preview"], "e2e-errors-check");
      expect(result.code, result.output).to.not.equal(0);
      const refused =
        "pulumi-codesec could not use the credentials from stack config (codesec:baseUrl and codesec:token) " +
        `at ${emulator.baseUrl}: CodeSec getCurrentUser (GET /api/auth/users/current) failed: ` +
        "HTTP 401 UNAUTHENTICATED";
      expectPrintedOnceWithoutFrames(result.output, refused);
      expect(diagnostics(result.output)).to.include(`error: ${refused}`);
      expect(result.output).to.not.include("CodeSecConnectionError");
    });

    it("create and delete: the platform refuses the write (pulumi up, pulumi destroy)", async () => {
      const stack = await createStack(
        programDir,
        "errors-write",
        resourceConfig(emulator.apiToken),
        PROGRAM_ENV,
      );
      const { deploymentId, sample } = emulator;
      const refused =
        `CodeSec updateUserRole (PATCH /api/agent/deployments/${deploymentId}/users/` +
        `${sample.memberUserId}/roles) failed: HTTP 403 PERMISSION_DENIED`;

      emulator.control.addFault({ operation: "updateUserRole", status: 403 });
      const create = await runBounded(stack, ["up", "--yes", "--skip-preview"], "e2e-errors-create");
      expect(create.code, create.output).to.not.equal(0);
      expectPrintedOnceWithoutFrames(create.output, refused);

      emulator.control.clearFaults();
      const up = await runBounded(stack, ["up", "--yes", "--skip-preview"], "e2e-errors-up");
      expect(up.code, up.output).to.equal(0);

      emulator.control.addFault({ operation: "updateUserRole", status: 403 });
      const destroy = await runBounded(stack, ["destroy", "--yes", "--skip-preview"], "e2e-errors-delete");
      expect(destroy.code, destroy.output).to.not.equal(0);
      expectPrintedOnceWithoutFrames(destroy.output, refused);
      expect(destroy.output).to.not.include("CodeSecApiError");
    });

    it("a bug keeps its stack, printed once, its frames in the package naming files the package holds", async () => {
      const dir = prepareProgram(PROGRAM, { tarball: packageWithABug(packedPackage()) });
      const stack = await createStack(dir, "errors-bug", resourceConfig(emulator.apiToken), PROGRAM_ENV);
      const result = await runBounded(stack, ["preview"], "e2e-errors-bug");
      expect(result.code, result.output).to.not.equal(0);
      const message = "Cannot read properties of undefined (reading 'role')";
      const found = diagnostics(result.output);
      expect(occurrences(found, `TypeError: ${message}`), result.output).to.equal(1);
      expect(found).to.include(`error: ${message}`);
      const ours = framesIn(result.output).filter((file) => file.includes("/node_modules/pulumi-codesec/"));
      expect(ours, result.output).to.not.deep.equal([]);
      for (const file of new Set(ours)) expect(existsSync(file), `${file}, named by a frame`).to.equal(true);
    });
  });
});
