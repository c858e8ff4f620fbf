/**
 * A check failure must never carry a secret to the engine. The engine prints
 * `property '<name>' value <inputs[name]> has a problem` for every failure that names a property, whatever
 * the value is (secret or not), so a failure may name only a declared, non-secret input; anything else
 * (a secret field, a misspelt key, which may hold the secret the user meant for the field) is reported
 * with no property and a reason that quotes nothing secret. Swept over every secret field of every kind.
 */
import { expect } from "chai";
import * as codesec from "../../provider";
import {
  RESOURCE_DEFINITIONS,
  RESOURCE_KIND_NAMES,
  type ResourceKind,
} from "../../provider/resources/registry";
import { dynamicProviderOf } from "../../provider/dynamic/kindProviders";
import { secretFields } from "../../provider/resources/definition";
import { configureStack } from "../support/stackConfig";

const MARK = "otc-SECRETMARK-Kx4Vm1Rc";

/** Valid inputs of each kind, to put one bad field beside. */
const VALID: Record<string, Record<string, unknown>> = {
  UserRole: { deploymentId: "1001", userId: "502", role: "ORG_ROLE_MEMBER" },
  WorkflowProvisioning: { deploymentId: "1001" },
  ScmWebhookSubscription: { deploymentId: "1001", configId: "scmcfg-1001-a" },
  ScmApp: { deploymentId: "1001", requestId: "apprq-1001-a" },
  UserRoles: { deploymentId: "1001", roles: { "502": "ORG_ROLE_MEMBER" } },
};

/** Bad ways to pass a secret field: values its schema rejects, and misspellings of its name. */
function badSecretInputs(field: string): [string, Record<string, unknown>][] {
  const cases: [string, Record<string, unknown>][] = [];
  if (field === "code") {
    for (const value of [`${MARK}\n`, ` ${MARK}`, `${MARK} `, `\t${MARK}`, [MARK], { code: MARK }]) {
      cases.push([`code = ${JSON.stringify(value)}`, { code: value }]);
    }
  }
  if (field === "connection") {
    for (const value of [
      { baseUrl: "http://127.0.0.1:9", token: 12345, extra: MARK },
      { baseUrl: "http://127.0.0.1:9", tokn: MARK },
      { baseUrl: MARK, token: MARK },
      [MARK],
      `${MARK}/not a name`,
      42,
    ]) {
      cases.push([`connection = ${JSON.stringify(value)}`, { connection: value }]);
    }
  }
  const capitalised = field[0].toUpperCase() + field.slice(1);
  for (const key of [capitalised, `${field}s`, `__${field}`, field.slice(0, -1), `${field}_`]) {
    cases.push([`misspelt ${key}`, { [key]: MARK }]);
  }
  return cases;
}

describe("check: no failure carries a secret to the engine", () => {
  before(async () => {
    await configureStack({
      "codesec:baseUrl": "http://127.0.0.1:9",
      "codesec:token": "unused-token",
      "codesec:skipCredentialsValidation": "true",
    });
  });

  for (const kind of RESOURCE_KIND_NAMES) {
    const provider = dynamicProviderOf(kind);
    for (const field of secretFields(RESOURCE_DEFINITIONS[kind])) {
      for (const [label, bad] of badSecretInputs(field)) {
        it(`${kind}: ${label}`, async () => {
          const news = { ...VALID[kind], ...bad };
          const result = (await provider.check!({}, news)) as {
            failures?: { property: string; reason: string }[];
          };
          const failures = result.failures ?? [];
          expect(failures, "the bad input is refused").to.have.length.greaterThan(0);
          for (const failure of failures) {
            // A named property is printed with its value: only declared, non-secret inputs, whose value
            // here is the valid one, may be named.
            if (failure.property !== "") {
              expect(Object.keys(VALID[kind]), failure.property).to.include(failure.property);
            }
            expect(failure.reason).not.to.include("SECRETMARK");
          }
        });
      }
    }
  }

  it("names a declared, non-secret top-level input, so the engine shows its (safe) value", async () => {
    const provider = dynamicProviderOf("UserRole");
    const result = await provider.check!({}, { ...VALID.UserRole, role: "ORG_ROLE_OWNER" });
    expect(result.failures).to.deep.equal([
      {
        property: "role",
        reason:
          'role must be one of ORG_ROLE_ADMIN, ORG_ROLE_MEMBER, ORG_ROLE_IMPERSONATOR, ORG_ROLE_READONLY, got "ORG_ROLE_OWNER"',
        path: "role",
      },
    ]);
  });

  it("reports a nested path without a property (the engine would print a value it cannot find)", async () => {
    const provider = dynamicProviderOf("WorkflowProvisioning");
    const result = await provider.check!({}, { deploymentId: "1001", filters: { ids: ["x"] } });
    expect(result.failures).to.deep.equal([
      {
        property: "",
        reason: 'filters.ids[0] must be a numeric id (digits only), got "x"',
        path: "filters.ids[0]",
      },
    ]);
  });

  it("refuses keys that start with __ with a did-you-mean, as any unknown key", async () => {
    const provider = dynamicProviderOf("UserRole");
    const result = await provider.check!({}, { ...VALID.UserRole, __role: "ORG_ROLE_ADMIN" });
    expect(result.failures).to.have.length(1);
    expect(result.failures![0].property).to.equal("");
    expect(result.failures![0].reason).to.match(
      /^__role is not an input of codesec:UserRole \(did you mean "role"\?\)/,
    );
    // The engine's own key is not an input: it is dropped, not refused.
    const withProvider = await provider.check!({}, { ...VALID.UserRole, __provider: "stub" });
    expect(withProvider.failures ?? []).to.deep.equal([]);
  });
});

describe("functions: no error quotes a secret passed in the wrong shape", () => {
  const FUNCTIONS: [string, (opts: object) => Promise<unknown>][] = [
    ["getScan", (opts) => codesec.getScan({ deploymentId: "1001", scanId: "3001" }, opts)],
    [
      "getBranch",
      (opts) => codesec.getBranch({ deploymentId: "1001", projectId: "7001", branchId: "9101" }, opts),
    ],
    ["getScmApp", (opts) => codesec.getScmApp({ deploymentId: "1001", requestId: "apprq-1001-b" }, opts)],
    ["getCurrentUser", (opts) => codesec.getCurrentUser({}, opts)],
    ["getJoinableOrganizations", (opts) => codesec.getJoinableOrganizations({ userId: "501" }, opts)],
    ["getNotificationRules", (opts) => codesec.getNotificationRules({ deploymentId: "1001" }, opts)],
  ];
  const BAD_OPTIONS: [string, object][] = [
    ["a token with a newline", { connection: { baseUrl: "http://127.0.0.1:9", token: `${MARK}\n` } }],
    ["a token of the wrong type", { connection: { baseUrl: "http://127.0.0.1:9", token: [MARK] } }],
    ["a misspelt token field", { connection: { baseUrl: "http://127.0.0.1:9", tokn: MARK } }],
    ["a token as the base URL", { connection: { baseUrl: MARK, token: MARK } }],
    ["a token where a name goes", { connection: `${MARK} ` }],
    ["a misspelt option", { conection: { baseUrl: "http://127.0.0.1:9", token: MARK } }],
  ];
  for (const [name, call] of FUNCTIONS) {
    for (const [label, opts] of BAD_OPTIONS) {
      it(`${name}: ${label}`, async () => {
        const error = await call(opts).then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        expect(error, "refused").to.be.instanceOf(Error);
        expect(`${error!.message} ${String(error)}`).not.to.include("SECRETMARK");
      });
    }
  }
});

describe("check: an input nested too deep is a failure, never a RangeError", () => {
  before(async () => {
    await configureStack({
      "codesec:baseUrl": "http://127.0.0.1:9",
      "codesec:token": "unused-token",
      "codesec:skipCredentialsValidation": "true",
    });
  });

  /** 10,000 levels: past the call stack of every recursive walk (checks, JSON.stringify, the engine's). */
  function deep(leaf: unknown, arrays: boolean): unknown {
    let value = leaf;
    for (let i = 0; i < 10_000; i++) value = arrays ? [value] : { next: value };
    return value;
  }

  const cases: [ResourceKind, string, Record<string, unknown>][] = [
    ["WorkflowProvisioning", "filters", { deploymentId: "1001", filters: deep("x", false) }],
    ["WorkflowProvisioning", "excludeIds", { deploymentId: "1001", excludeIds: deep("7001", true) }],
    ["WorkflowProvisioning", "triggers", { deploymentId: "1001", triggers: deep(1, false) }],
    ["UserRole", "connection", { ...VALID.UserRole, connection: deep(MARK, false) }],
    ["ScmApp", "code", { ...VALID.ScmApp, code: deep(MARK, true) }],
  ];
  for (const [kind, field, news] of cases) {
    it(`${kind}.${field}`, async () => {
      const result = (await dynamicProviderOf(kind).check!({}, news)) as {
        failures?: { property: string; reason: string; path: string }[];
      };
      expect(result.failures).to.have.length(1);
      const [failure] = result.failures!;
      // Never named: the engine would print the whole value.
      expect(failure.property).to.equal("");
      expect(failure.path.startsWith(field)).to.equal(true);
      expect(failure.reason).to.match(/must be within 64 levels of nested objects and arrays/);
      expect(failure.reason).not.to.include("SECRETMARK");
    });
  }
});
