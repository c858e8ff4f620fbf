/**
 * The SDK generator (provider/cmd/pulumi-gen-codesec, built by `npm run setup`) and the freshness check of
 * what it writes (scripts/generate.ts --check, part of `npm run lint`): the committed schema binds with
 * Pulumi's own binder without a diagnostic, a schema that does not bind fails, each language generates,
 * and the check names every stale, missing or left-over file, and fails (never passes) without a generator.
 */
import { expect } from "chai";
import { dynamicPackageFiles } from "../../scripts/typescript/dynamicPackage";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { COMMITTED_SDKS, generatorPath, staleGenerated } from "../../scripts/generate";
import { SCHEMA_PATH } from "../../scripts/schema";

const root = path.resolve(__dirname, "../..");
const schemaFile = path.join(root, SCHEMA_PATH);

function scratch(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `codesec-${prefix}-`));
}

function runGenerator(...args: string[]) {
  return spawnSync(generatorPath(), args, { encoding: "utf8" });
}

/** A copy of what the check compares: schema.json and the committed SDKs. */
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
  return copy;
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
      const version = (JSON.parse(fs.readFileSync(schemaFile, "utf8")) as { version: string }).version;
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
      expect(nodePackage.pulumi).to.deep.equal({ resource: true, name: "codesec", version });
      for (const pluginFile of [
        "python/pulumi_codesec/pulumi-plugin.json",
        "go/codesec/pulumi-plugin.json",
      ]) {
        expect(JSON.parse(fs.readFileSync(path.join(dir, pluginFile), "utf8"))).to.deep.include({
          resource: true,
          name: "codesec",
          version,
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

  it("the committed schema.json and SDKs are what `npm run generate` writes", () => {
    expect(staleGenerated(root)).to.deep.equal([]);
  });

  it("lint's check names an SDK file edited by hand, a missing one and a left-over one", () => {
    const copy = copyOfGenerated();
    try {
      expect(runCheck(copy).status, "an untouched copy passes").to.equal(0);
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
      const result = runCheck(copy);
      expect(result.status).to.equal(1);
      expect(result.stderr)
        .to.include("sdk/nodejs/userRole.ts")
        .and.include("sdk/nodejs/getScan.ts (missing)")
        .and.include("sdk/nodejs/oldKind.ts (generated by nothing: remove it)")
        .and.not.include("node_modules")
        .and.not.include("scmApp.ts")
        .and.not.include(SCHEMA_PATH);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it("lint's check names a stale Python or Go SDK file, and skips what an SDK's .gitignore names", () => {
    const copy = copyOfGenerated();
    try {
      const userRole = path.join(copy, "sdk/python/pulumi_codesec/user_role.py");
      fs.appendFileSync(userRole, "# edited by hand\n");
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
      const result = runCheck(copy);
      expect(result.status).to.equal(1);
      expect(result.stderr)
        .to.include("sdk/python/pulumi_codesec/user_role.py")
        .and.include("sdk/go/go.mod (missing)")
        .and.include("sdk/go/go.sum")
        .and.not.include("__pycache__")
        .and.not.include("egg-info")
        .and.not.include("sdk/nodejs/");
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it("lint's check names a stale schema.json", () => {
    const copy = copyOfGenerated();
    try {
      const file = path.join(copy, SCHEMA_PATH);
      fs.writeFileSync(
        file,
        fs.readFileSync(file, "utf8").replace('"replaceOnChanges": true', '"secret": true'),
      );
      const result = runCheck(copy);
      expect(result.status).to.equal(1);
      expect(result.stderr).to.include(SCHEMA_PATH).and.not.include("sdk/nodejs/");
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
});
