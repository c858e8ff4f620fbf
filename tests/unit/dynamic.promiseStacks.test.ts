/**
 * The resource classes (dynamic and generated native) leave the stack traces of Pulumi's promise
 * bookkeeping unformatted while the SDK constructs a resource, and format every other trace as before:
 * the rule itself (provider/dynamic/promiseStacks.ts), then both kinds of class under Pulumi's mocks.
 */
import { expect } from "chai";
import * as pulumi from "@pulumi/pulumi";
import { pausePromiseStacks, PROMISE_TRACE_FUNCTION } from "../../provider/dynamic/promiseStacks";
import { UserRole } from "../../provider/index";

/**
 * The generated native SDK's UserRole, loaded by a path the compiler does not follow: the SDK is checked
 * with its own tsconfig (sdk/nodejs), whose rules differ from this repository's.
 */
const NATIVE_USER_ROLE = "../../sdk/nodejs/userRole";
type UserRoleClass = new (
  name: string,
  args: { deploymentId: string; userId: string; role: string },
  opts?: pulumi.CustomResourceOptions,
) => pulumi.CustomResource;

type Formatter = (error: Error, frames: NodeJS.CallSite[]) => unknown;
/** Error's formatter slot, typed as what it holds. */
const errorClass = Error as { prepareStackTrace?: Formatter };

/** A trace taken in a function of the name Pulumi's SDK gives its promise bookkeeping. */
const promiseTrace: Record<string, () => Error> = {
  [PROMISE_TRACE_FUNCTION]: () => new Error("promise"),
};

/** The traces a formatter was asked for, by the function of their first frame. */
class CountingFormatter {
  readonly firstFrames: string[] = [];
  private previous: Formatter | undefined;

  install(): void {
    this.previous = errorClass.prepareStackTrace;
    errorClass.prepareStackTrace = (error, frames) => {
      this.firstFrames.push(frames[0]?.getFunctionName() ?? "");
      return `${String(error)}\n    formatted (${frames.length} frames)`;
    };
  }

  uninstall(): void {
    errorClass.prepareStackTrace = this.previous;
  }

  count(functionName: string): number {
    return this.firstFrames.filter((name) => name === functionName).length;
  }
}

describe("promise stacks: the SDK's promise traces are not formatted while a resource is constructed", () => {
  const formatter = new CountingFormatter();
  const savedLeakSetting = process.env.PULUMI_DEBUG_PROMISE_LEAKS;
  beforeEach(() => {
    delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
    formatter.firstFrames.length = 0;
    formatter.install();
  });
  afterEach(() => {
    formatter.uninstall();
    if (savedLeakSetting === undefined) delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
    else process.env.PULUMI_DEBUG_PROMISE_LEAKS = savedLeakSetting;
  });

  it("formats a promise trace as its first line only, and any other trace with the installed formatter", () => {
    const installed = errorClass.prepareStackTrace;
    const resume = pausePromiseStacks();
    let promise: string | undefined;
    let other: string | undefined;
    try {
      promise = promiseTrace[PROMISE_TRACE_FUNCTION]().stack;
      other = new Error("other").stack;
    } finally {
      resume();
    }
    expect(promise).to.equal("Error: promise");
    expect(other).to.match(/^Error: other\n {4}formatted \(\d+ frames\)$/);
    expect(formatter.count(PROMISE_TRACE_FUNCTION)).to.equal(0);
    expect(formatter.firstFrames).to.have.length(1);
    expect(errorClass.prepareStackTrace).to.equal(installed);
  });

  it("formats a trace taken while paused but read afterwards with the formatter then in place", () => {
    const resume = pausePromiseStacks();
    let kept: Error;
    try {
      kept = promiseTrace[PROMISE_TRACE_FUNCTION]();
    } finally {
      resume();
    }
    expect(kept.stack).to.match(/^Error: promise\n {4}formatted/);
    expect(formatter.count(PROMISE_TRACE_FUNCTION)).to.equal(1);
  });

  it("changes nothing when PULUMI_DEBUG_PROMISE_LEAKS is set (the SDK then prints those traces)", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    const resume = pausePromiseStacks();
    try {
      expect(promiseTrace[PROMISE_TRACE_FUNCTION]().stack).to.match(/formatted/);
    } finally {
      resume();
    }
    expect(formatter.count(PROMISE_TRACE_FUNCTION)).to.equal(1);
  });

  /** The generated native SDK's copy of the rule, loaded as NATIVE_USER_ROLE is. */
  const NATIVE_UTILITIES = "../../sdk/nodejs/utilities";
  const pauses: [string, () => Promise<() => () => void>][] = [
    ["the dynamic classes' pausePromiseStacks", () => Promise.resolve(pausePromiseStacks)],
    [
      "the native SDK's pausePromiseStacks",
      async () =>
        ((await import(NATIVE_UTILITIES)) as { pausePromiseStacks: () => () => void }).pausePromiseStacks,
    ],
  ];
  for (const [label, load] of pauses) {
    it(`${label}: leaves in place a formatter installed while paused (its installer owns it)`, async () => {
      const pause = await load();
      const resume = pause();
      const later: Formatter = (error) => `${String(error)}\n    later`;
      try {
        errorClass.prepareStackTrace = later;
      } finally {
        resume();
      }
      expect(errorClass.prepareStackTrace).to.equal(later);
      expect(promiseTrace[PROMISE_TRACE_FUNCTION]().stack).to.equal("Error: promise\n    later");
    });
  }

  it("a pause nested in another (as constructors nest): each resume restores what its pause found", () => {
    const installed = errorClass.prepareStackTrace;
    const resumeOuter = pausePromiseStacks();
    const resumeInner = pausePromiseStacks();
    resumeInner();
    expect(promiseTrace[PROMISE_TRACE_FUNCTION]().stack).to.equal("Error: promise");
    resumeOuter();
    expect(errorClass.prepareStackTrace).to.equal(installed);
  });

  it("restores the formatter when the constructor throws", () => {
    const installed = errorClass.prepareStackTrace;
    expect(
      () =>
        new UserRole(
          "no-parent",
          { deploymentId: "1001", userId: "1", role: "ORG_ROLE_ADMIN" },
          {
            parent: {} as pulumi.Resource,
          },
        ),
    ).to.throw(/parent is not a valid Resource/);
    expect(errorClass.prepareStackTrace).to.equal(installed);
  });

  describe("under Pulumi's mocks", () => {
    let NativeUserRole: UserRoleClass;
    before(async () => {
      NativeUserRole = ((await import(NATIVE_USER_ROLE)) as { UserRole: UserRoleClass }).UserRole;
      await pulumi.runtime.setMocks(
        {
          newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs as Record<string, unknown> }),
          call: () => ({}),
        },
        "project",
        "stack",
        true,
      );
    });

    const classes: [string, (name: string, opts?: pulumi.CustomResourceOptions) => pulumi.CustomResource][] =
      [
        [
          "the dynamic UserRole",
          (name, opts) =>
            new UserRole(name, { deploymentId: "1001", userId: "1", role: "ORG_ROLE_ADMIN" }, opts),
        ],
        [
          "the native SDK's UserRole",
          (name, opts) =>
            new NativeUserRole(name, { deploymentId: "1001", userId: "1", role: "ORG_ROLE_ADMIN" }, opts),
        ],
      ];
    for (const [label, declare] of classes) {
      it(`${label}: no promise trace formatted, its source position's trace still formatted`, () => {
        declare(`paused-${label.length}`);
        expect(formatter.count(PROMISE_TRACE_FUNCTION)).to.equal(0);
        expect(formatter.count("callsites")).to.equal(1); // Pulumi's Resource.callsites: the source position
      });

      it(`${label}: an error thrown during construction keeps its stack frames`, () => {
        const installed = errorClass.prepareStackTrace;
        let thrown: unknown;
        try {
          declare(`failing-${label.length}`, {
            transformations: [
              function failingTransformation(): undefined {
                throw new Error("transformation failed");
              },
            ],
          });
        } catch (error) {
          thrown = error;
        }
        expect(errorClass.prepareStackTrace).to.equal(installed);
        expect(thrown).to.be.instanceOf(Error);
        const stack = (thrown as Error).stack ?? "";
        const frames = /^Error: transformation failed\n {4}formatted \((\d+) frames\)$/.exec(stack);
        expect(frames, stack).to.not.equal(null);
        expect(Number(frames![1])).to.be.greaterThan(1);
        expect(formatter.count("failingTransformation")).to.equal(1);
      });

      it(`${label}: the formatter is restored when the constructor throws`, () => {
        const installed = errorClass.prepareStackTrace;
        expect(() => declare(`no-parent-${label.length}`, { parent: {} as pulumi.Resource })).to.throw(
          /parent is not a valid Resource/,
        );
        expect(errorClass.prepareStackTrace).to.equal(installed);
      });

      it(`${label}: every promise trace formatted with PULUMI_DEBUG_PROMISE_LEAKS set`, () => {
        process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
        declare(`debugged-${label.length}`);
        expect(formatter.count(PROMISE_TRACE_FUNCTION)).to.be.greaterThan(20);
        expect(formatter.count("callsites")).to.equal(1);
      });
    }
  });
});
