import { expect } from "chai";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// The source, not the package entry (its `main` is the build in dist/).
import { startEmulator } from "../../emulator/index";
import { defaultFixtures } from "../../emulator/defaultFixtures";
import { fixtureSetProblems } from "../../emulator/fixtureChecks";
import { exampleFixturesPath, loadFixtureFile, parseFixtureSet } from "../../emulator/fixtureFiles";
import { type FixtureFile } from "../../emulator/fixtureSchema";
import { resolveSample } from "../../emulator/sample";
import { EmulatorStore } from "../../emulator/store";

const EMULATOR_DIR = join(__dirname, "..", "..", "emulator");
const EXAMPLE = join(EMULATOR_DIR, "fixtures.example.json");

describe("emulator fixtures", () => {
  it("default fixtures are deterministic and valid", () => {
    expect(defaultFixtures()).to.deep.equal(defaultFixtures());
    expect(fixtureSetProblems(defaultFixtures())).to.deep.equal([]);
  });

  it("default fixtures hold what the tests and the demo rely on", () => {
    const f = defaultFixtures();
    expect(f.deployments.map((d) => d.id)).to.include.members(["1001", "2002"]);
    const rolesIn1001 = f.users.flatMap((u) => (u.roles["1001"] ? [u.roles["1001"]] : []));
    expect(rolesIn1001).to.include.members(["ORG_ROLE_ADMIN", "ORG_ROLE_MEMBER", "ORG_ROLE_READONLY"]);
    expect(f.users.some((u) => u.roles["2002"] === "ORG_ROLE_ADMIN")).to.equal(true);
    expect(f.apiTokens.some((t) => t.deploymentId === "2002" && t.webApi && !t.scoped)).to.equal(true);
    expect(f.apiTokens.some((t) => !t.webApi)).to.equal(true);
    expect(f.apiTokens.some((t) => t.scoped)).to.equal(true);
    const projects = f.projects.filter((p) => p.deploymentId === "1001");
    expect(projects.some((p) => p.archived)).to.equal(true);
    expect(projects.some((p) => !p.codeAccess)).to.equal(true);
    expect(projects.filter((p) => p.codeAccess && !p.archived).length).to.be.greaterThan(1);
    expect(projects.some((p) => p.tagIds.length > 0)).to.equal(true);
    expect(f.scans.map((s) => s.status)).to.include.members(["SCAN_STATUS_RUNNING", "SCAN_STATUS_COMPLETED"]);
    expect(f.branches.map((b) => b.name)).to.include("refs/heads/main");
    expect(f.scmConfigurations.filter((c) => c.deploymentId === "1001")).to.have.length(2);
    const requests = f.scmAppRequests.filter((r) => r.deploymentId === "1001");
    expect(requests.filter((r) => r.state === "pending")).to.have.length(2);
    expect(requests.filter((r) => r.state === "completed")).to.have.length(1);
    const rules = f.notificationRules.filter((r) => r.deploymentId === "1001");
    expect(rules.length).to.be.at.least(7);
    expect(rules.some((r) => r.config_error !== "")).to.equal(true);
    expect(rules.some((r) => !r.is_enabled)).to.equal(true);
  });

  it("the sample points at the admin, its web-API token and a pending SCM app request", () => {
    const store = EmulatorStore.open({ fixtures: defaultFixtures() });
    const resolved = resolveSample(store);
    expect(resolved.deploymentId).to.equal("1001");
    expect(resolved.apiTokenValue).to.equal("cst_1001_admin_5b7e0c1d9a2f4e68");
    expect(resolved.sample).to.deep.equal({
      userId: "501",
      memberUserId: "502",
      projectId: "7001",
      branchId: "9101",
      scanId: "3001",
      scmConfigId: "scmcfg-1001-a",
      scmAppRequestId: "apprq-1001-a",
      scmAppCode: "otc-1001-a-7Hq2Zp9L",
    });
  });

  it("infers the sample when the fixtures designate none", () => {
    const fixtures = defaultFixtures();
    delete fixtures.sample;
    const resolved = resolveSample(EmulatorStore.open({ fixtures }));
    expect(resolved.deploymentId).to.equal("1001");
    expect(resolved.sample.userId).to.equal("501");
    expect(resolved.sample.scmAppRequestId).to.equal("apprq-1001-a");
  });

  it("refuses to pick a sample without a usable admin token", () => {
    const fixtures = defaultFixtures();
    fixtures.apiTokens = fixtures.apiTokens.filter((t) => t.userId !== "501" || !t.webApi || t.scoped);
    expect(() => resolveSample(EmulatorStore.open({ fixtures }))).to.throw(/no usable API token of user 501/);
  });

  it("the example fixture file loads", () => {
    const set = loadFixtureFile(EXAMPLE);
    expect(set.deployments[0]?.id).to.equal("4242");
    expect(resolveSample(EmulatorStore.open({ fixtures: set })).sample.scmAppCode).to.equal(
      "otc-example-0001",
    );
  });

  it("reports shape errors with their path", () => {
    const broken = defaultFixtures() as unknown as { users: Array<{ roles: Record<string, string> }> };
    broken.users[0].roles["1001"] = "ORG_ROLE_BOSS";
    const problems = fixtureSetProblems(broken);
    expect(problems.join("\n")).to.match(/users\[0\]\.roles\.1001 must be/);
  });

  it("reports broken references and duplicate ids", () => {
    const f = defaultFixtures();
    f.branches.push({ id: 9101, projectId: "404", name: "refs/heads/x" });
    f.apiTokens[0].userId = "nobody";
    const problems = fixtureSetProblems(f);
    expect(problems).to.include('duplicate branch id "9101"');
    expect(problems).to.include('branch 9101: unknown projectId "404"');
    expect(problems).to.include('api token tok-1001-admin: unknown userId "nobody"');
    expect(() => parseFixtureSet(f, "test")).to.throw(/invalid fixture set \(test\)/);
  });

  it("explains unreadable fixture files", () => {
    const dir = mkdtempSync(join(tmpdir(), "codesec-fixtures-"));
    try {
      expect(() => loadFixtureFile(join(dir, "missing.json"))).to.throw(/cannot read fixture file/);
      const bad = join(dir, "bad.json");
      writeFileSync(bad, "{");
      expect(() => loadFixtureFile(bad)).to.throw(/is not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("emulator fixtures: only JSON data", () => {
  /** A rule's `config` is typed unknown and a rule takes extra fields: the schema lets anything through there. */
  const withRule = (change: (rule: Record<string, unknown>, config: Record<string, unknown>) => void) => {
    const fixtures = defaultFixtures();
    const rule = fixtures.notificationRules[0] as unknown as Record<string, unknown>;
    change(rule, rule.config as Record<string, unknown>);
    return fixtures;
  };

  class Webhook {
    constructor(readonly url: string) {}
    toJSON() {
      return "https://elsewhere.example";
    }
  }

  it("the fixtures option is refused, naming the path, where a value is not JSON data (the store's JSON copy would drop or change it)", async () => {
    const cases: Array<[(rule: Record<string, unknown>, config: Record<string, unknown>) => void, string]> = [
      [(_, c) => (c.sign = () => 1), "notificationRules[0].config.sign: a function, not JSON data"],
      [(r) => (r.hook = () => 1), "notificationRules[0].hook: a function, not JSON data"],
      [(_, c) => (c.tag = Symbol("t")), "notificationRules[0].config.tag: a symbol, not JSON data"],
      [(_, c) => (c.big = 10n), "notificationRules[0].config.big: a bigint, not JSON data"],
      [(_, c) => (c.ratio = Number.NaN), "notificationRules[0].config.ratio: NaN, not JSON data"],
      [(_, c) => (c.when = new Date(0)), "notificationRules[0].config.when: a Date, not JSON data"],
      [(_, c) => (c.seen = new Map()), "notificationRules[0].config.seen: a Map, not JSON data"],
      [
        (_, c) => (c.target = new Webhook("https://hooks.example")),
        "notificationRules[0].config.target: an instance of Webhook, not JSON data",
      ],
      [
        (_, c) => (c.gone = undefined),
        "notificationRules[0].config.gone: undefined, not JSON data (leave the field out)",
      ],
      [
        (_, c) => (c.list = ["a", undefined]),
        "notificationRules[0].config.list[1]: undefined, not JSON data",
      ],
      [
        // An array with a hole at 1 (`["a", , "c"]`), built the way code makes one: by writing past the end.
        (_, c) => {
          const list: unknown[] = ["a"];
          list[2] = "c";
          c.list = list;
        },
        "notificationRules[0].config.list[1]: an empty slot, not JSON data",
      ],
      [(_, c) => (c.self = c), "notificationRules[0].config.self: a circular reference, not JSON data"],
    ];
    for (const [change, problem] of cases) {
      const fixtures = withRule(change);
      expect(fixtureSetProblems(fixtures), problem).to.deep.equal([problem]);
      let thrown: unknown;
      try {
        const handle = await startEmulator({ fixtures, quiet: true });
        await handle.close();
      } catch (error) {
        thrown = error;
      }
      expect(thrown, problem).to.be.instanceOf(Error);
      expect((thrown as Error).message, problem)
        .to.include("invalid fixture set (the fixtures option)")
        .and.include(problem);
    }
  });

  it("every such value is listed, and a secret field's value is named by its type only", () => {
    const fixtures = withRule((rule, config) => {
      config.sign = () => 1;
      rule.extra = [new Date(0)];
    }) as unknown as { apiTokens: Array<{ value: unknown }> };
    fixtures.apiTokens[0].value = new String("cst_1001_admin_5b7e0c1d9a2f4e68");
    const problems = fixtureSetProblems(fixtures);
    expect(problems).to.deep.equal([
      "apiTokens[0].value: an instance of String, not JSON data",
      "notificationRules[0].config.sign: a function, not JSON data",
      "notificationRules[0].extra[0]: a Date, not JSON data",
    ]);
    expect(problems.join("\n")).not.to.include("5b7e0c1d9a2f4e68");
    expect(fixtureSetProblems(new Map())).to.deep.equal(["the fixture set: a Map, not JSON data"]);
  });

  it("a fixture file is JSON: the one value it can hold that JSON would change is a number out of range", () => {
    const dir = mkdtempSync(join(tmpdir(), "codesec-fixtures-"));
    try {
      const file = join(dir, "huge.json");
      const fixtures = withRule((_, config) => (config.limit = 0));
      writeFileSync(file, JSON.stringify(fixtures).replace('"limit":0', '"limit":1e400'));
      expect(() => loadFixtureFile(file)).to.throw(
        "notificationRules[0].config.limit: Infinity, not JSON data",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("plain data passes: null-prototype objects, shared (not circular) parts, and every fixture file (JSON parsed)", () => {
    const shared = { channel: "#sec" };
    const fixtures = withRule((_, config) => {
      config.a = shared;
      config.b = [shared, null, 1.5, true, "x"];
      config.c = Object.assign(Object.create(null) as object, { d: 1 });
    });
    expect(fixtureSetProblems(fixtures)).to.deep.equal([]);
    expect(fixtureSetProblems(JSON.parse(readFileSync(EXAMPLE, "utf8")))).to.deep.equal([]);
    expect(fixtureSetProblems(JSON.parse(JSON.stringify(defaultFixtures())))).to.deep.equal([]);
  });
});

describe("emulator fixture files: optional collections", () => {
  /** The least a fixture file needs for the emulator to start: a deployment, an admin, its API token. */
  const minimal = (): FixtureFile => ({
    deployments: [
      {
        id: "77",
        name: "tiny",
        displayName: "Tiny",
        slug: "tiny",
        sourceType: "SOURCE_TYPE_SSO",
        organizationId: "org-tiny",
        features: {
          featureFlags: [],
          hasAutofix: false,
          hasDeepengine: false,
          hasTriageViaComment: false,
          hasDependencyQuery: false,
          defaultUserRole: "ORG_ROLE_MEMBER",
          editorServiceVersion: "1.0.0",
          noserviceDisabled: false,
        },
        joinableUserIds: [],
      },
    ],
    users: [
      {
        id: "1",
        name: "Ann",
        email: "ann@example.org",
        login: "ann",
        authDetails: [],
        roles: { "77": "ORG_ROLE_ADMIN" },
      },
    ],
    apiTokens: [
      {
        id: "tok-1",
        value: "cst_77_admin_0123456789abcdef",
        name: "admin",
        deploymentId: "77",
        userId: "1",
        webApi: true,
        scoped: false,
      },
    ],
  });

  it("an absent collection is empty", () => {
    expect(fixtureSetProblems(minimal())).to.deep.equal([]);
    const set = parseFixtureSet(minimal(), "test");
    expect(set.projects).to.deep.equal([]);
    expect(set.notificationRules).to.deep.equal([]);
  });

  it("still checks references, saying what is wrong and where to find a valid example", () => {
    const broken = { ...minimal(), users: [] };
    expect(fixtureSetProblems(broken)).to.include('api token tok-1: unknown userId "1"');
    expect(() => parseFixtureSet(broken, "tiny.json"))
      .to.throw(/invalid fixture set \(tiny\.json\)/)
      .with.property("message")
      .that.matches(/absent = empty/)
      .and.includes(exampleFixturesPath());
    expect(fixtureSetProblems({ sample: {} })).to.include("deployments: at least one deployment is needed");
  });

  it("names a wrong field with its path and never shows a secret", () => {
    const broken = minimal() as unknown as { apiTokens: Array<{ value: unknown }>; projets?: unknown };
    broken.apiTokens[0].value = "short-secret";
    broken.projets = [];
    const problems = fixtureSetProblems(broken).join("\n");
    expect(problems).to.include("apiTokens[0].value");
    expect(problems).not.to.include("short-secret");
    expect(problems).to.match(/projets is not a field of a fixture set \(did you mean "projects"\?\)/);
  });

  it("the example fixture file ships in the package root, where --help points", () => {
    expect(existsSync(exampleFixturesPath())).to.equal(true);
    const manifest = JSON.parse(readFileSync(join(EMULATOR_DIR, "package.json"), "utf8")) as {
      files: string[];
      exports: Record<string, unknown>;
    };
    expect(manifest.files).to.include("fixtures.example.json");
    expect(manifest.exports).to.have.property("./fixtures.example.json");
  });

  it("a minimal fixture file starts the emulator; kinds it lacks sample as empty strings", async () => {
    const dir = mkdtempSync(join(tmpdir(), "codesec-fixtures-"));
    const file = join(dir, "tiny.json");
    writeFileSync(file, JSON.stringify(minimal()));
    const handle = await startEmulator({ fixtures: file, quiet: true });
    try {
      expect(handle.deploymentId).to.equal("77");
      expect(handle.sample).to.deep.equal({
        userId: "1",
        memberUserId: "",
        projectId: "",
        branchId: "",
        scanId: "",
        scmConfigId: "",
        scmAppRequestId: "",
        scmAppCode: "",
      });
      const res = await fetch(`${handle.baseUrl}/api/auth/users/current`, {
        headers: { authorization: `Bearer ${handle.apiToken}` },
      });
      expect(res.status).to.equal(200);
      expect(((await res.json()) as { user: { id: string } }).user.id).to.equal("1");
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
