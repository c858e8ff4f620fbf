/**
 * What the CLI prints when an engine call fails. @pulumi/pulumi's dynamic-provider server writes
 * `${error}: ${error.stack}` to its stderr for a failed check, diff, read or delete, and the CLI shows it
 * beside the error's message: `CodeSecConnectionError: X: CodeSecConnectionError: X` and stack frames.
 * An expected failure (one the package raises on purpose, with a message that says what to do) must
 * print once and without frames; a bug keeps its stack, printed once. tests/e2e/errorReporting.test.ts
 * proves the same through the real CLI.
 */
import { expect } from "chai";
import { MissingCredentialsError, isExpectedFailure } from "../../provider/errors";
import { reportedOnce, type ErrorConsole } from "../../provider/dynamic/serverErrorLines";
import { run } from "../../provider/dynamic/index";
import userRoleEntry = require("../../provider/generated/engineEntries/UserRole");
import { bugs, expectedFailures } from "../support/failureSamples";

/** @pulumi/pulumi's dynamic-provider server, as far as failures go: its stderr line, then the message. */
async function serve(call: () => Promise<unknown>, stderr: ErrorConsole): Promise<string | undefined> {
  try {
    await call();
    return undefined;
  } catch (e) {
    const error = e as Error;
    stderr.error(`${String(error)}: ${error.stack}`);
    return error.message;
  }
}

/** A console whose `error` records what it is given. */
function recordingConsole(): ErrorConsole & { lines: unknown[][] } {
  const lines: unknown[][] = [];
  return { lines, error: (...args: unknown[]) => void lines.push(args) };
}

/** Runs `body` with `console.error` recording, and returns what reached it. */
async function withConsoleErrors(body: () => Promise<void>): Promise<unknown[][]> {
  const original = console.error;
  const lines: unknown[][] = [];
  console.error = (...args: unknown[]) => void lines.push(args);
  try {
    await body();
  } finally {
    console.error = original;
  }
  return lines;
}

describe("failed engine calls: each error printed once, frames only for a bug", () => {
  describe("reportedOnce", () => {
    it("leaves out the server's line for an expected failure; the engine still gets its message", async () => {
      for (const failure of expectedFailures) {
        const stderr = recordingConsole();
        const message = await serve(() => reportedOnce(() => Promise.reject(failure), stderr), stderr);
        expect(message).to.equal(failure.message);
        expect(stderr.lines, failure.name).to.deep.equal([]);
      }
    });

    it("prints a bug's stack once, instead of `${error}: ${error.stack}`", async () => {
      for (const bug of bugs as Error[]) {
        const stderr = recordingConsole();
        const message = await serve(() => reportedOnce(() => Promise.reject(bug), stderr), stderr);
        expect(message).to.equal(bug.message);
        expect(stderr.lines).to.deep.equal([[bug.stack]]);
        expect(bug.stack).to.match(/\n\s+at /);
      }
    });

    it("passes the failure on as it is, and every other line through untouched", async () => {
      const stderr = recordingConsole();
      const failure = new MissingCredentialsError();
      const caught = await reportedOnce(() => Promise.reject(failure), stderr).catch((e: unknown) => e);
      expect(caught).to.equal(failure);
      stderr.error("another line", 2);
      stderr.error(`${String(failure)}: ${failure.stack}`);
      stderr.error(`${String(failure)}: ${failure.stack}`); // rewritten once: a second one is not ours
      expect(stderr.lines).to.deep.equal([["another line", 2], [`${String(failure)}: ${failure.stack}`]]);
    });

    it("resolves to the call's result when it succeeds", async () => {
      expect(await reportedOnce(() => Promise.resolve(42), recordingConsole())).to.equal(42);
    });
  });

  describe("every engine call goes through it", () => {
    // A named connection that stack config does not define: every environment fails it the same way.
    const props = { deploymentId: "1001", userId: "502", role: "ORG_ROLE_MEMBER", connection: "nope" };

    it("a kind's entry module (the short stub): an expected failure's line is left out", async () => {
      let failure: unknown;
      const lines = await withConsoleErrors(async () => {
        await serve(async () => {
          try {
            await userRoleEntry.read!("1001/502", props);
          } catch (e) {
            failure = e;
            throw e;
          }
        }, console);
      });
      expect(isExpectedFailure(failure), String(failure)).to.equal(true);
      expect(lines).to.deep.equal([]);
    });

    it("the legacy entry (`run`): an expected failure's line is left out, a bug's becomes its stack", async () => {
      const expected = await withConsoleErrors(async () => {
        await serve(() => run("UserRole", "read", ["1001/502", props]), console);
      });
      expect(expected).to.deep.equal([]);

      let bug: Error | undefined;
      const unexpected = await withConsoleErrors(async () => {
        await serve(
          () =>
            run("UserRole", "nope" as "read").catch((e: Error) => {
              bug = e;
              throw e;
            }),
          console,
        );
      });
      expect(unexpected).to.deep.equal([[bug?.stack]]);
    });
  });
});
