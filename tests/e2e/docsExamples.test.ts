/**
 * The docs examples generated from PCL (scripts/docsExamples.ts; docs/examples/.../{python,go}), as the
 * resource and function pages show them, run or compiled against the generated SDKs: every Python
 * example RUN, all in one process, under Pulumi's mocks with the set-up's virtual environment
 * (programs/docs-examples-python/run_examples.py: a wrong argument name, top-level or nested, fails it);
 * every Go example compiled and vetted, all in one module with one `go vet ./...`, against sdk/go. (The
 * TypeScript ones are type-checked in the first phase: tests/unit/docs.examples.test.ts.) Without the
 * virtual environment or Go these fail, saying what to run: they never skip.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { FUNCTION_DEFINITIONS } from "../../provider/functions/definitions";
import { RESOURCE_KIND_NAMES } from "../../provider/resources/registry";
import { docsExamples, examplePrograms, type DocsExample } from "../../scripts/docsExamples";
import { SCHEMA_PATH } from "../../scripts/schema";
import { repoRoot, scratchDir, timeLimitFor } from "./support/harness";
import {
  GO_SDK_MODULE,
  goToolchainFor,
  installedSdkDifferences,
  requirePythonVenv,
  venvPython,
} from "./support/languagePrograms";

/** The stack config the examples read (`pulumi.Config()` of their project), as a user would set it. */
const EXAMPLES_CONFIG = { scmAppCode: "one-time-code", userJwt: "a-user-jwt", userId: "502" };

function allExamples(): DocsExample[] {
  const examples = docsExamples(repoRoot);
  // One per resource kind and per function at least: a discovery that finds nothing must not pass.
  expect(examples.length).to.be.at.least(
    RESOURCE_KIND_NAMES.length + Object.keys(FUNCTION_DEFINITIONS).length,
  );
  return examples;
}

/** The program of `example` in the language of folder `folder` (absolute path). */
function programOf(example: DocsExample, folder: string): string {
  const program = examplePrograms(example).find(({ language }) => language.folder === folder)!;
  return path.join(repoRoot, program.file);
}

/** Runs the Python examples `files` under the mocks; the runner's lines and exit status. */
function runPythonExamples(files: string[]): { status: number | null; lines: string[]; output: string } {
  // The examples run on the set-up's venv and import its copy of pulumi_codesec: it must be this clone's.
  requirePythonVenv();
  const result = spawnSync(
    venvPython,
    [
      path.join(__dirname, "programs/docs-examples-python/run_examples.py"),
      path.join(repoRoot, SCHEMA_PATH),
      ...files,
    ],
    { encoding: "utf8", env: { ...process.env, DOCS_EXAMPLES_CONFIG: JSON.stringify(EXAMPLES_CONFIG) } },
  );
  const output = `${result.stdout}${result.stderr}`;
  return { status: result.status, lines: result.stdout.split("\n").filter((line) => line !== ""), output };
}

/**
 * A Go module holding every Go example as a package of its own (`<group>-<owner>-<name>/main.go`), with
 * the e2e Go program's requirements (its go.mod and go.sum, so the build looks nothing up) and the SDK's
 * module pointed at this clone's sdk/go.
 */
function goExamplesModule(
  examples: DocsExample[],
  programFor = (example: DocsExample) => programOf(example, "go"),
): string {
  const dir = scratchDir("docs-examples-go");
  const goMod = fs
    .readFileSync(path.join(__dirname, "programs/native-go/go.mod"), "utf8")
    .replace(/^module .*$/m, "module codesec-docs-examples-go")
    .replace(/^replace .*$/m, `replace ${GO_SDK_MODULE} => ${path.join(repoRoot, "sdk/go")}`);
  fs.writeFileSync(path.join(dir, "go.mod"), goMod);
  fs.copyFileSync(path.join(__dirname, "programs/native-go/go.sum"), path.join(dir, "go.sum"));
  for (const example of examples) {
    const packageDir = path.join(
      dir,
      path.relative("docs/examples", example.target).split(path.sep).join("-"),
    );
    fs.mkdirSync(packageDir);
    fs.copyFileSync(programFor(example), path.join(packageDir, "main.go"));
  }
  return dir;
}

/** `go vet ./...` (it compiles every package first) in `dir`, with go.mod and go.sum as written. */
function goVet(dir: string): { status: number | null; output: string } {
  const result = spawnSync("go", ["vet", "./..."], {
    cwd: dir,
    encoding: "utf8",
    env: {
      ...process.env,
      GOWORK: "off",
      GOFLAGS: "-mod=readonly",
      GOTOOLCHAIN: goToolchainFor(path.join(dir, "go.mod")),
    },
  });
  if (result.error)
    throw new Error(`cannot run go (install Go: https://go.dev/dl/): ${result.error.message}`);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("the docs examples in Python, run under Pulumi's mocks", function () {
  this.timeout(timeLimitFor(1));

  it("every Python example runs, its resources' inputs and its calls' arguments as the schema names them", () => {
    const examples = allExamples();
    const files = examples.map((example) => programOf(example, "python"));
    const { status, lines, output } = runPythonExamples(files);
    expect(lines, output).to.deep.equal(files.map((file) => `ok ${file}`));
    expect(status, output).to.equal(0);
  });

  it("an example with a wrong argument name fails, top-level or nested, and a wrong result field too", () => {
    const broken = scratchDir("docs-examples-python-broken");
    const breakIn = (owner: string, from: string, to: string): string => {
      const example = allExamples().find((candidate) => candidate.target.endsWith(`/${owner}/main`))!;
      const text = fs.readFileSync(programOf(example, "python"), "utf8");
      expect(text, `${owner}'s Python example has ${from}`).to.include(from);
      const file = path.join(broken, `${owner}.py`);
      fs.writeFileSync(file, text.replace(from, to));
      return file;
    };
    const files = [
      breakIn("UserRole", "user_id=", "user="),
      breakIn("WorkflowProvisioning", '"code_access"', '"code_acess"'),
      breakIn("getScan", "scan_id=", "scan="),
      breakIn("getNotificationRules", "rule.config_error", "rule.config_eror"),
    ];
    const { status, lines } = runPythonExamples(files);
    expect(status).to.equal(1);
    expect(lines).to.have.length(4);
    expect(lines[0]).to.match(/^FAIL .*UserRole\.py: TypeError: .*unexpected keyword argument 'user'/);
    expect(lines[1]).to.match(/^FAIL .*WorkflowProvisioning\.py: .*filters: no property 'code_acess'/);
    expect(lines[2]).to.match(/^FAIL .*getScan\.py: TypeError: .*unexpected keyword argument 'scan'/);
    expect(lines[3]).to.match(/^FAIL .*getNotificationRules\.py: AttributeError: .*config_eror/);
  });
});

describe("the Python SDK the examples run with", function () {
  it("a stale installed copy of pulumi_codesec is named, file by file, before any example runs", () => {
    const source = scratchDir("python-sdk-source");
    const installed = scratchDir("python-sdk-installed");
    fs.mkdirSync(path.join(source, "config"));
    fs.mkdirSync(path.join(installed, "config"));
    for (const dir of [source, installed]) {
      fs.writeFileSync(path.join(dir, "__init__.py"), "# same\n");
      fs.writeFileSync(path.join(dir, "pulumi-plugin.json"), '{"version": "0.5.0"}\n');
    }
    fs.writeFileSync(path.join(source, "scm_app.py"), "request_id = 1\n");
    fs.writeFileSync(path.join(installed, "scm_app.py"), "request_id = 0\n");
    fs.writeFileSync(path.join(source, "config/vars.py"), "# new\n");
    fs.writeFileSync(path.join(source, "README.md"), "not installed by pip\n");
    expect(installedSdkDifferences(source, installed)).to.deep.equal(["config/vars.py", "scm_app.py"]);
    fs.writeFileSync(path.join(installed, "scm_app.py"), "request_id = 1\n");
    fs.writeFileSync(path.join(installed, "config/vars.py"), "# new\n");
    expect(installedSdkDifferences(source, installed)).to.deep.equal([]);
  });
});

describe("the docs examples in Go, compiled against sdk/go", function () {
  // The first Go build compiles the Pulumi Go SDK: minutes on a cold build cache (shared with the e2e Go programs).
  this.timeout(timeLimitFor(4));

  it("`go vet ./...` of every Go example, in one module, passes", () => {
    const { status, output } = goVet(goExamplesModule(allExamples()));
    expect(output).to.equal("");
    expect(status).to.equal(0);
  });

  it("fails naming the example whose argument name is wrong", () => {
    const examples = allExamples();
    const userRole = examples.find((example) => example.target.endsWith("/UserRole/main"))!;
    const brokenFile = path.join(scratchDir("docs-examples-go-broken"), "main.go");
    const text = fs.readFileSync(programOf(userRole, "go"), "utf8");
    expect(text).to.include("UserId:");
    fs.writeFileSync(brokenFile, text.replace("UserId:", "UserID:"));
    const { status, output } = goVet(
      goExamplesModule(examples, (example) => (example === userRole ? brokenFile : programOf(example, "go"))),
    );
    expect(status).to.not.equal(0);
    expect(output).to.match(/resources-UserRole-main\/main\.go:\d+:\d+: unknown field UserID/);
    expect(output).to.not.include("resources-UserRoles-main");
  });
});
