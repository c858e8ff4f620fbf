/**
 * The SDK generator (provider/cmd/pulumi-gen-codesec, built by `npm run setup`) and the freshness check of
 * what it writes (scripts/generate.ts --check, part of `npm run lint`): the committed schema binds with
 * Pulumi's own binder without a diagnostic, a schema that does not bind fails, each language generates,
 * and the check names every stale, missing or left-over file, and fails (never passes) without a generator.
 * Its program mode too: a docs example's PCL source bound against the schema (a wrong name fails it,
 * writing nothing) and written in TypeScript, Python and Go, and the check of the committed examples.
 */
import { expect } from "chai";
import { dynamicPackageFiles } from "../../scripts/typescript/dynamicPackage";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  COMMITTED_SDKS,
  generateExample,
  generatorPath,
  programsNotParsing,
  staleGenerated,
} from "../../scripts/generate";
import { EXAMPLES_DIR, PACKAGE_EXAMPLES_SOURCE } from "../../scripts/docsExamples";
import { SCHEMA_PATH } from "../../scripts/schema";

const root = path.resolve(__dirname, "../..");
const schemaFile = path.join(root, SCHEMA_PATH);

function scratch(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `codesec-${prefix}-`));
}

function runGenerator(...args: string[]) {
  return spawnSync(generatorPath(), args, { encoding: "utf8" });
}

/** A copy of what the check compares: schema.json, the committed SDKs, and the docs examples with their sources. */
function copyOfGenerated(): string {
  const copy = scratch("generated");
  fs.mkdirSync(path.dirname(path.join(copy, SCHEMA_PATH)), { recursive: true });
  fs.copyFileSync(schemaFile, path.join(copy, SCHEMA_PATH));
  for (const folder of Object.values(COMMITTED_SDKS)) {
    fs.cpSync(path.join(root, folder), path.join(copy, folder), { recursive: true });
  }
  fs.copyFileSync(path.join(root, "package.json"), path.join(copy, "package.json"));
  fs.copyFileSync(path.join(root, ".prettierrc.json"), path.join(copy, ".prettierrc.json"));
  // The dynamic package's generated TypeScript is checked too (scripts/typescript/dynamicPackage.ts).
  for (const file of dynamicPackageFiles().keys()) {
    fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    fs.copyFileSync(path.join(root, file), path.join(copy, file));
  }
  for (const folder of [EXAMPLES_DIR, PACKAGE_EXAMPLES_SOURCE, "provider/functions/examples"]) {
    fs.cpSync(path.join(root, folder), path.join(copy, folder), { recursive: true });
  }
  for (const kind of fs.readdirSync(path.join(root, "provider/resources"))) {
    const examples = `provider/resources/${kind}/examples`;
    if (fs.existsSync(path.join(root, examples))) {
      fs.cpSync(path.join(root, examples), path.join(copy, examples), { recursive: true });
    }
  }
  return copy;
}

/** The files a failed check names as stale, sorted. */
function staleNamed(stderr: string): string[] {
  const listed = /are stale \(run `npm run generate`\): (.*)$/m.exec(stderr);
  expect(listed, stderr).to.not.equal(null);
  return listed![1].split(", ").sort();
}

function runCheck(repoRoot: string, env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", "scripts/generate.ts", "--check", "--root", repoRoot],
    { cwd: root, encoding: "utf8", env },
  );
}

describe("SDK generation from schema.json", function () {
  this.timeout(120_000);
  /** A check of a whole generation takes half a minute on a quiet machine, several on a loaded one. */
  const WHOLE_GENERATION_MS = 300_000;

  it("the committed schema binds with Pulumi's schema binder without a diagnostic", () => {
    const result = runGenerator(schemaFile, "bind");
    expect(result.stderr).to.equal("");
    expect(result.status).to.equal(0);
  });

  it("a schema that does not bind fails, naming the problem", () => {
    const dir = scratch("badschema");
    try {
      const spec = JSON.parse(fs.readFileSync(schemaFile, "utf8")) as {
        resources: Record<string, { inputProperties: Record<string, unknown> }>;
      };
      spec.resources["codesec:index:UserRole"].inputProperties.role = {
        $ref: "#/types/codesec:index:NoSuchType",
      };
      fs.writeFileSync(path.join(dir, "schema.json"), JSON.stringify(spec));
      const result = runGenerator(path.join(dir, "schema.json"), "bind");
      expect(result.status).to.equal(1);
      expect(result.stderr).to.include("does not bind cleanly").and.include("NoSuchType");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("generates the Node.js, Python and Go SDKs, each asking for the plugin at the schema's version", () => {
    const dir = scratch("sdks");
    try {
      const { version, pluginDownloadURL: server } = JSON.parse(fs.readFileSync(schemaFile, "utf8")) as {
        version: string;
        pluginDownloadURL: string;
      };
      expect(server, "the schema's pluginDownloadURL").to.match(/^github:\/\/api\.github\.com\//);
      for (const language of ["nodejs", "python", "go"]) {
        const result = runGenerator(schemaFile, language, path.join(dir, language));
        expect(result.stderr, language).to.equal("");
        expect(result.status, language).to.equal(0);
      }
      const nodePackage = JSON.parse(fs.readFileSync(path.join(dir, "nodejs/package.json"), "utf8")) as {
        name: string;
        version: string;
        pulumi: unknown;
      };
      expect(nodePackage.name).to.equal("@pulumi-codesec/codesec");
      expect(nodePackage.version).to.equal(version);
      expect(nodePackage.pulumi).to.deep.equal({ resource: true, name: "codesec", version, server });
      for (const pluginFile of [
        "python/pulumi_codesec/pulumi-plugin.json",
        "go/codesec/pulumi-plugin.json",
      ]) {
        expect(JSON.parse(fs.readFileSync(path.join(dir, pluginFile), "utf8"))).to.deep.include({
          resource: true,
          name: "codesec",
          version,
          server,
        });
      }
      expect(fs.readFileSync(path.join(dir, "python/pulumi_codesec/user_role.py"), "utf8")).to.include(
        "class UserRole(pulumi.CustomResource)",
      );
      expect(fs.readFileSync(path.join(dir, "go/codesec/userRole.go"), "utf8")).to.include(
        "type UserRole struct",
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses to replace a folder that holds anything but its own earlier output", () => {
    const dir = scratch("notsdk");
    try {
      fs.writeFileSync(path.join(dir, "precious.txt"), "keep me");
      const result = runGenerator(schemaFile, "nodejs", dir);
      expect(result.status).to.equal(1);
      expect(result.stderr).to.include("refusing to replace it");
      expect(fs.readFileSync(path.join(dir, "precious.txt"), "utf8")).to.equal("keep me");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the committed schema.json and SDKs are what `npm run generate` writes", function () {
    this.timeout(WHOLE_GENERATION_MS);
    expect(staleGenerated(root)).to.deep.equal([]);
  });

  it("lint's check names every stale schema, SDK and docs example file, a missing one and a left-over one, and nothing else", function () {
    this.timeout(WHOLE_GENERATION_MS);
    const copy = copyOfGenerated();
    try {
      // The schema.
      const schema = path.join(copy, SCHEMA_PATH);
      fs.writeFileSync(
        schema,
        fs.readFileSync(schema, "utf8").replace('"replaceOnChanges": true', '"secret": true'),
      );
      // The Node.js SDK: a file edited by hand, a missing one, a left-over one.
      const userRole = path.join(copy, "sdk/nodejs/userRole.ts");
      fs.writeFileSync(
        userRole,
        fs.readFileSync(userRole, "utf8").replace('"deploymentId", "userId"', '"userId"'),
      );
      fs.rmSync(path.join(copy, "sdk/nodejs/getScan.ts"));
      fs.writeFileSync(path.join(copy, "sdk/nodejs/oldKind.ts"), "// *** generated by an older schema\n");
      // What the SDK's .gitignore names is not the generator's business.
      fs.mkdirSync(path.join(copy, "sdk/nodejs/node_modules/x"), { recursive: true });
      fs.writeFileSync(path.join(copy, "sdk/nodejs/node_modules/x/index.js"), "");
      // The Python and Go SDKs.
      const pythonUserRole = path.join(copy, "sdk/python/pulumi_codesec/user_role.py");
      fs.appendFileSync(pythonUserRole, "# edited by hand\n");
      fs.rmSync(path.join(copy, "sdk/go/go.mod"));
      // go.sum is generated too (scripts/tidy-go-sdk.sh): a line of it edited by hand is stale.
      const goSum = path.join(copy, "sdk/go/go.sum");
      fs.writeFileSync(goSum, fs.readFileSync(goSum, "utf8").split("\n").slice(1).join("\n"));
      // What running and installing the Python SDK leaves (bytecode, an editable install's egg-info).
      fs.mkdirSync(path.join(copy, "sdk/python/pulumi_codesec/__pycache__"), { recursive: true });
      fs.writeFileSync(
        path.join(copy, "sdk/python/pulumi_codesec/__pycache__/user_role.cpython-311.pyc"),
        "",
      );
      fs.mkdirSync(path.join(copy, "sdk/python/pulumi_codesec.egg-info"), { recursive: true });
      fs.writeFileSync(path.join(copy, "sdk/python/pulumi_codesec.egg-info/PKG-INFO"), "");
      // The docs examples: one edited by hand, one whose source changed, a left-over one.
      const python = path.join(copy, EXAMPLES_DIR, "resources/UserRole/main/python/__main__.py");
      fs.appendFileSync(python, "# edited by hand\n");
      const source = path.join(copy, "provider/functions/examples/getScan/main.pp");
      fs.writeFileSync(source, fs.readFileSync(source, "utf8").replace('"3001"', '"3002"'));
      fs.mkdirSync(path.join(copy, EXAMPLES_DIR, "functions/getRetired/main/go"), { recursive: true });
      fs.writeFileSync(
        path.join(copy, EXAMPLES_DIR, "functions/getRetired/main/go/main.go"),
        "package main\n",
      );
      const result = runCheck(copy);
      expect(result.status).to.equal(1);
      // Exactly these: every file the copy holds untouched is fresh, what .gitignore names is skipped.
      expect(staleNamed(result.stderr)).to.deep.equal(
        [
          SCHEMA_PATH,
          "sdk/nodejs/getScan.ts (missing)",
          "sdk/nodejs/oldKind.ts (generated by nothing: remove it)",
          "sdk/nodejs/userRole.ts",
          "sdk/python/pulumi_codesec/user_role.py",
          "sdk/go/go.mod (missing)",
          "sdk/go/go.sum",
          `${EXAMPLES_DIR}/functions/getRetired/main/go/main.go (generated by nothing: remove it)`,
          `${EXAMPLES_DIR}/functions/getScan/main/go/main.go`,
          `${EXAMPLES_DIR}/functions/getScan/main/python/__main__.py`,
          `${EXAMPLES_DIR}/functions/getScan/main/typescript/index.ts`,
          `${EXAMPLES_DIR}/resources/UserRole/main/python/__main__.py`,
        ].sort(),
      );
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it("lint's check fails, saying to run `npm run setup`, when the generator is not built", () => {
    const emptyCache = scratch("nocache");
    try {
      const result = runCheck(root, { ...process.env, PULUMI_CODESEC_CACHE: emptyCache });
      expect(result.status).to.equal(1);
      expect(result.stderr).to.include("pulumi-gen-codesec is not built").and.include("npm run setup");
    } finally {
      fs.rmSync(emptyCache, { recursive: true, force: true });
    }
  });
  it("writes a docs example from its PCL source in TypeScript, Python and Go", () => {
    const dir = scratch("example");
    try {
      const result = runGenerator(
        schemaFile,
        "program",
        path.join(root, "provider/resources/userRole/examples/main.pp"),
        dir,
      );
      expect(result.stderr).to.equal("");
      expect(result.status).to.equal(0);
      const read = (file: string) => fs.readFileSync(path.join(dir, file), "utf8");
      expect(read("typescript/index.ts"))
        .to.include('import * as codesec from "@pulumi-codesec/codesec";')
        .and.include('new codesec.UserRole("member-502", {');
      expect(read("python/__main__.py"))
        .to.include('codesec.UserRole("member-502",')
        .and.include('user_id="502"');
      expect(read("go/main.go")).to.include('codesec.NewUserRole(ctx, "member-502", &codesec.UserRoleArgs{');
      expect(fs.readdirSync(dir).sort()).to.deep.equal(["go", "python", "typescript"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a docs example that names what the schema lacks, or another package, fails naming it and writes nothing", () => {
    const dir = scratch("badexample");
    try {
      const wrongName = path.join(dir, "wrongName.pp");
      fs.writeFileSync(
        wrongName,
        'resource m "codesec:index:UserRole" {\n  deploymentId = "1001"\n  userID = "502"\n  role = "ORG_ROLE_ADMIN"\n}\n',
      );
      const out = path.join(dir, "out");
      let result = runGenerator(schemaFile, "program", wrongName, out);
      expect(result.status).to.equal(1);
      expect(result.stderr)
        .to.include(`${wrongName} does not bind against the schema`)
        .and.include(`${wrongName}:3:3: unsupported attribute 'userID'`)
        .and.include(`${wrongName}:1:37: missing required attribute 'userId'`);
      expect(fs.existsSync(out)).to.equal(false);
      const foreign = path.join(dir, "foreign.pp");
      fs.writeFileSync(foreign, 'resource b "aws:s3:Bucket" {\n}\n');
      result = runGenerator(schemaFile, "program", foreign, out);
      expect(result.status).to.equal(1);
      expect(result.stderr).to.include('references package "aws": examples may use "codesec" only');
      expect(fs.existsSync(out)).to.equal(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes the Go SDK's names where Go's program generator gets them wrong: LookupScmApp, GetCurrentUser without arguments", () => {
    const dir = scratch("goexamples");
    try {
      for (const fn of ["getScmApp", "getCurrentUser"]) {
        const result = runGenerator(
          schemaFile,
          "program",
          path.join(root, `provider/functions/examples/${fn}/main.pp`),
          path.join(dir, fn),
        );
        expect(result.status, result.stderr).to.equal(0);
      }
      const scmApp = fs.readFileSync(path.join(dir, "getScmApp/go/main.go"), "utf8");
      expect(scmApp)
        .to.include("codesec.LookupScmAppOutput(ctx, codesec.LookupScmAppOutputArgs{")
        .and.not.include("GetScmApp");
      const currentUser = fs.readFileSync(path.join(dir, "getCurrentUser/go/main.go"), "utf8");
      expect(currentUser)
        .to.include("codesec.GetCurrentUser(ctx, nil)")
        .and.not.include("map[string]interface{}");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("`npm run generate` with one broken example source fails naming it and leaves every committed program as it was", () => {
    const copy = copyOfGenerated();
    try {
      const programs = (): Map<string, string> =>
        new Map(
          fs
            .readdirSync(path.join(copy, EXAMPLES_DIR), { recursive: true, encoding: "utf8" })
            .filter((file) => fs.statSync(path.join(copy, EXAMPLES_DIR, file)).isFile())
            .map((file) => [file, fs.readFileSync(path.join(copy, EXAMPLES_DIR, file), "utf8")]),
        );
      const before = programs();
      expect(before.size).to.be.greaterThan(30);
      const source = path.join(copy, "provider/functions/examples/getScan/main.pp");
      fs.writeFileSync(source, fs.readFileSync(source, "utf8").replace("scanId", "scanID"));
      const result = spawnSync(
        process.execPath,
        ["-r", "ts-node/register/transpile-only", "scripts/generate.ts", "--root", copy],
        { cwd: root, encoding: "utf8" },
      );
      expect(result.status).to.not.equal(0);
      expect(result.stderr).to.include("provider/functions/examples/getScan/main.pp does not bind");
      expect(programs()).to.deep.equal(before);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
  it("a docs example whose generated Python or TypeScript does not parse fails naming the file, exit 0 or not", () => {
    const dir = scratch("unparsable");
    try {
      // Python's program generator writes `codesec.get_current_user(, opts=...)` for an invoke with no
      // arguments and an explicit provider, and exits 0.
      const source = path.join(dir, "noArgsWithProvider.pp");
      fs.writeFileSync(
        source,
        'resource user "pulumi:providers:codesec" {\n  baseUrl = "https://codesec.example.com"\n}\n' +
          'me = invoke("codesec:index:getCurrentUser", {}, {\n  provider = user\n})\n' +
          "output id {\n  value = me.id\n}\n",
      );
      expect(() => generateExample(generatorPath(), schemaFile, source, path.join(dir, "out"))).to.throw(
        /programs that do not parse:\n.*python\/__main__\.py: .*SyntaxError/,
      );
      const broken = path.join(dir, "broken");
      fs.mkdirSync(path.join(broken, "typescript"), { recursive: true });
      fs.writeFileSync(path.join(broken, "typescript/index.ts"), "const x = codesec.getCurrentUser(, {});\n");
      expect(programsNotParsing(broken)).to.have.length(1);
      expect(programsNotParsing(broken)[0]).to.match(
        /typescript\/index\.ts:1:34: Argument expression expected/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it("the Go rewrites change the package's calls only, not the same text in a comment or a string", () => {
    const dir = scratch("goast");
    try {
      const source = path.join(dir, "lookalikes.pp");
      fs.writeFileSync(
        source,
        "// Go names it codesec.LookupScmApp, not codesec.GetScmApp(ctx, map[string]interface{}{}, nil).\n" +
          'app = invoke("codesec:index:getScmApp", {\n  deploymentId = "1001"\n  requestId = "apprq-1001-done"\n})\n' +
          'me = invoke("codesec:index:getCurrentUser", {})\n' +
          'output said {\n  value = "codesec.GetCurrentUser(ctx, map[string]interface{}{}, nil) and codesec.GetScmAppResult"\n}\n' +
          "output slug {\n  value = app.slug\n}\noutput login {\n  value = me.login\n}\n",
      );
      const result = runGenerator(schemaFile, "program", source, path.join(dir, "out"));
      expect(result.status, result.stderr).to.equal(0);
      const go = fs.readFileSync(path.join(dir, "out/go/main.go"), "utf8");
      expect(go)
        .to.include(
          "// Go names it codesec.LookupScmApp, not codesec.GetScmApp(ctx, map[string]interface{}{}, nil).",
        )
        .and.include(
          '"codesec.GetCurrentUser(ctx, map[string]interface{}{}, nil) and codesec.GetScmAppResult"',
        )
        .and.include("codesec.LookupScmApp(ctx, &codesec.LookupScmAppArgs{")
        .and.include("codesec.GetCurrentUser(ctx, nil)");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
