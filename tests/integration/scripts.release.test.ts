/**
 * `npm run release` (scripts/release.ts), run in a copy of this tree committed into a repository of its
 * own: every artifact, the same bytes from two runs on one commit, no path of the machine inside them; and
 * the refusals (a dirty tree, versions that disagree, named by file) and a failed build, none of which
 * leaves anything in release/.
 */
import { expect } from "chai";
import { execFileSync, spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BENCH_STEPS } from "../../bench/support/options";
import type { BenchResults } from "../../bench/support/results";
import { measuredSourcesDigest } from "../../scripts/measuredSources";
import { performanceReport } from "../../scripts/performance-report";
import { packageVersion } from "../../scripts/plugin-release";
import { committedCopy, git, runRelease } from "../support/committedCopy";

const version = packageVersion();

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string, prefix = ""): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const child = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      return entry.isDirectory() ? filesUnder(dir, child) : [child];
    })
    .sort();
}

/**
 * Commits into the copy at `dir` bench results of a full run of every step on the sources whose digest
 * is `digest`, and the page they render, as the release checklist does after `npm run bench`.
 */
function commitMeasuredPage(dir: string, digest: string): void {
  const results: BenchResults = {
    mode: "full",
    date: "2026-01-02T03:00:00.000Z",
    machine: { cpuModel: "cpu", cpuCount: 2, memoryGiB: 8, os: "Linux", node: "v24", pulumi: "v3" },
    ran: { sizes: [200], steps: BENCH_STEPS.map((step) => (step === "engine" ? "engine at N=200" : step)) },
    wallSeconds: 600,
    figures: [],
    notes: [],
    unfinished: [],
    sourcesDigest: digest,
  };
  writeFileSync(path.join(dir, "bench/results.json"), JSON.stringify(results, null, 2) + "\n");
  writeFileSync(path.join(dir, "docs/performance.md"), performanceReport(results));
  git(dir, "commit", "--quiet", "-am", "bench on this commit");
}

describe("npm run release (scripts/release.ts)", function () {
  this.timeout(900_000);
  let work: string;

  before(() => {
    work = mkdtempSync(path.join(os.tmpdir(), "codesec-release-test-"));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  describe("from a clean commit whose versions agree", () => {
    let clone: string;
    let first: string;
    let second: string;
    let made: { status: number | null; stdout: string; stderr: string };

    before(() => {
      clone = path.join(work, "clone");
      committedCopy(clone);
      // The digest of this clone's sources, at this clone's path: the copy's, at another path, must equal it.
      commitMeasuredPage(clone, measuredSourcesDigest());
      made = runRelease(clone, []);
      expect(made.status, made.stderr).to.equal(0);
      first = path.join(work, "first");
      cpSync(path.join(clone, `release/v${version}`), first, { recursive: true });
      const again = runRelease(clone, []);
      expect(again.status, again.stderr).to.equal(0);
      expect(again.stdout.trim()).to.equal(path.join(clone, `release/v${version}`));
      second = path.join(clone, `release/v${version}`);
    });

    it("writes every artifact, the checksums, the SBOMs and the provenance into release/v<version>/", () => {
      const plugin = ["darwin-amd64", "darwin-arm64", "linux-amd64", "linux-arm64"].map(
        (platform) => `pulumi-resource-codesec-v${version}-${platform}.tar.gz`,
      );
      const packages = [
        `pulumi-codesec-${version}.tgz`,
        `pulumi-codesec-codesec-${version}.tgz`,
        `codesec-emulator-${version}.tgz`,
        `codesec-policy-${version}.tgz`,
        `pulumi_codesec-${version}.tar.gz`,
        `pulumi_codesec-${version}-py3-none-any.whl`,
      ];
      const goModule = ["list", `v${version}.info`, `v${version}.mod`, `v${version}.zip`].map(
        (file) => `go/github.com/pulumi-codesec/pulumi-codesec/sdk/go/@v/${file}`,
      );
      expect(filesUnder(second)).to.deep.equal(
        [
          ...packages,
          ...packages.map((file) => `${file}.cdx.json`),
          ...plugin,
          ...goModule,
          "SHA256SUMS",
          "provenance.intoto.json",
        ].sort(),
      );
      expect(readdirSync(path.join(clone, "release"))).to.deep.equal([`v${version}`]);
    });

    it("builds without --allow-stale-performance when the page was measured on its sources at another path", () => {
      expect(made.stderr).to.not.include("building anyway");
      const statement = JSON.parse(
        readFileSync(path.join(clone, `release/v${version}/provenance.intoto.json`), "utf8"),
      ) as { predicate: { buildDefinition: { externalParameters: Record<string, unknown> } } };
      expect(statement.predicate.buildDefinition.externalParameters).to.deep.equal({
        version,
        command: "npm run release",
      });
    });

    it("writes the same bytes on a second run from the same commit", () => {
      const a = filesUnder(first);
      expect(filesUnder(second)).to.deep.equal(a);
      const differing = a.filter(
        (file) => !readFileSync(path.join(first, file)).equals(readFileSync(path.join(second, file))),
      );
      expect(differing).to.deep.equal([]);
    });

    it("lists every other file in SHA256SUMS, as sha256sum -c checks them", () => {
      const listed = readFileSync(path.join(second, "SHA256SUMS"), "utf8")
        .trim()
        .split("\n")
        .map((line) => line.split("  ")[1]);
      expect(listed).to.deep.equal(filesUnder(second).filter((file) => file !== "SHA256SUMS"));
      const checked = spawnSync("sha256sum", ["-c", "--strict", "SHA256SUMS"], {
        cwd: second,
        encoding: "utf8",
      });
      expect(checked.status, checked.stderr).to.equal(0);
    });

    it("states in the provenance the commit and every artifact's digest", () => {
      const statement = JSON.parse(readFileSync(path.join(second, "provenance.intoto.json"), "utf8")) as {
        _type: string;
        predicateType: string;
        predicate: { buildDefinition: { resolvedDependencies: { digest: Record<string, string> }[] } };
        subject: { name: string; digest: { sha256: string } }[];
      };
      expect(statement._type).to.equal("https://in-toto.io/Statement/v1");
      expect(statement.predicateType).to.equal("https://slsa.dev/provenance/v1");
      const sha = git(clone, "rev-parse", "HEAD").trim();
      expect(statement.predicate.buildDefinition.resolvedDependencies[0].digest).to.deep.equal({
        gitCommit: sha,
      });
      const sums = new Map(
        readFileSync(path.join(second, "SHA256SUMS"), "utf8")
          .trim()
          .split("\n")
          .map((line) => line.split("  ").reverse() as [string, string]),
      );
      const subjects = statement.subject;
      expect(subjects.map((subject) => subject.name)).to.deep.equal(
        filesUnder(second).filter((file) => file !== "SHA256SUMS" && file !== "provenance.intoto.json"),
      );
      for (const subject of subjects) expect(subject.digest.sha256).to.equal(sums.get(subject.name));
    });

    it("packs the workspaces as publishable packages that depend on this release's pulumi-codesec", () => {
      for (const name of ["codesec-emulator", "codesec-policy"]) {
        const manifest = JSON.parse(
          execFileSync(
            "tar",
            ["-xzOf", path.join(second, `${name}-${version}.tgz`), "package/package.json"],
            {
              encoding: "utf8",
            },
          ),
        ) as { private?: boolean; dependencies: Record<string, string> };
        expect(manifest.private, name).to.equal(undefined);
        expect(manifest.dependencies["pulumi-codesec"], name).to.equal(version);
      }
      const policy = execFileSync("tar", ["-tzf", path.join(second, `codesec-policy-${version}.tgz`)], {
        encoding: "utf8",
      });
      expect(policy).to.include("package/PulumiPolicy.yaml");
    });

    it("carries no path of the machine that built it (the clone's, the temporary folder's)", () => {
      const unpacked = path.join(work, "unpacked");
      for (const file of filesUnder(second)) {
        const into = path.join(unpacked, file);
        mkdirSync(into, { recursive: true });
        if (/\.(tgz|tar\.gz)$/.test(file)) execFileSync("tar", ["-xzf", path.join(second, file), "-C", into]);
        else if (/\.(whl|zip)$/.test(file))
          execFileSync("unzip", ["-q", path.join(second, file), "-d", into]);
        else cpSync(path.join(second, file), path.join(into, "file"));
      }
      const found = spawnSync("grep", ["-rlF", "-e", clone, "-e", work, unpacked], { encoding: "utf8" });
      expect(found.stdout).to.equal("");
    });
  });

  describe("refusals", () => {
    let clone: string;
    let base: string;

    // One copy for every refusal, put back to its first commit before each: a refusal commits what it
    // needs on top, and whatever a run left (release/ included) is removed, but the links to this clone's
    // node_modules and .tools.
    before(() => {
      clone = path.join(work, "refusals");
      committedCopy(clone);
      base = git(clone, "rev-parse", "HEAD").trim();
    });
    beforeEach(() => {
      git(clone, "reset", "--quiet", "--hard", base);
      git(clone, "clean", "-fdxq", "-e", "/node_modules", "-e", "/.tools");
    });

    it("refuses a dirty tree, naming the files, and writes nothing", () => {
      appendFileSync(path.join(clone, "README.md"), "\nan edit\n");
      writeFileSync(path.join(clone, "notes.txt"), "new\n");
      const refused = runRelease(clone);
      expect(refused.status).to.equal(1);
      expect(refused.stderr).to.match(
        /npm run release refused: the tree has uncommitted changes: README\.md, notes\.txt\./,
      );
      expect(refused.stderr).to.not.include("    at ");
      expect(existsSync(path.join(clone, "release"))).to.equal(false);
    });

    it("refuses docs/performance.md measured on other sources, naming the file and what to run", () => {
      commitMeasuredPage(clone, measuredSourcesDigest());
      appendFileSync(path.join(clone, "bench/run.ts"), "\n// a measured change\n");
      git(clone, "commit", "--quiet", "-m", "a measured change", "--", "bench/run.ts");
      const refused = runRelease(clone, []);
      expect(refused.status).to.equal(1);
      expect(refused.stderr).to.match(
        /npm run release refused: docs\/performance\.md was measured on sources sha256:[0-9a-f]{64}, not on this release's sha256:[0-9a-f]{64}/,
      );
      expect(refused.stderr).to.include(
        "Run the bench on this commit (`npm run bench`, then `npm run bench:report`)",
      );
      expect(refused.stderr).to.not.include("    at ");
      expect(existsSync(path.join(clone, "release"))).to.equal(false);
    });

    it("refuses docs/performance.md that holds no full bench run of every step, saying why", () => {
      commitMeasuredPage(clone, measuredSourcesDigest());
      const results = path.join(clone, "bench/results.json");
      const partial = JSON.parse(readFileSync(results, "utf8")) as BenchResults;
      writeFileSync(results, JSON.stringify({ ...partial, mode: "smoke" }));
      writeFileSync(
        path.join(clone, "docs/performance.md"),
        performanceReport({ ...partial, mode: "smoke" }),
      );
      git(clone, "commit", "--quiet", "-am", "a smoke run's page");
      const refused = runRelease(clone, []);
      expect(refused.status).to.equal(1);
      expect(refused.stderr).to.include(
        "npm run release refused: docs/performance.md holds no full bench run of every step (a smoke run, not a full one)",
      );
      expect(refused.stderr).to.not.include("    at ");
      expect(existsSync(path.join(clone, "release"))).to.equal(false);
    });

    it("refuses a tree without docs/performance.md, even with --allow-stale-performance, naming what to run", () => {
      git(clone, "rm", "--quiet", "docs/performance.md");
      git(clone, "commit", "--quiet", "-m", "no performance page");
      const refused = runRelease(clone);
      expect(refused.status).to.equal(1);
      expect(refused.stderr).to.include(
        "npm run release refused: docs/performance.md is missing. Run the bench on this commit (`npm run bench`, then `npm run bench:report`, which writes it)",
      );
      expect(refused.stderr).to.not.include("    at ");
      expect(existsSync(path.join(clone, "release"))).to.equal(false);
    });

    it("refuses an argument it does not know, without building", () => {
      const refused = runRelease(clone, ["--allow-stale"]);
      expect(refused.status).to.equal(1);
      expect(refused.stderr).to.include(
        "npm run release takes no argument but --allow-stale-performance, not --allow-stale",
      );
      expect(refused.stderr).to.not.include("    at ");
      expect(existsSync(path.join(clone, "release"))).to.equal(false);
    });

    it("refuses versions that disagree with package.json's, naming each file and field", () => {
      const emulator = path.join(clone, "emulator/package.json");
      writeFileSync(
        emulator,
        readFileSync(emulator, "utf8").replace(`"version": "${version}"`, '"version": "9.9.9"'),
      );
      const pyproject = path.join(clone, "sdk/python/pyproject.toml");
      writeFileSync(
        pyproject,
        readFileSync(pyproject, "utf8").replace(`version = "${version}"`, 'version = "0.0.1"'),
      );
      git(clone, "commit", "--quiet", "-am", "versions apart");
      const refused = runRelease(clone);
      expect(refused.status).to.equal(1);
      expect(refused.stderr).to.include(
        `npm run release refused: versions disagree with package.json's ${version}: ` +
          "emulator/package.json (version 9.9.9), sdk/python/pyproject.toml (project.version 0.0.1).",
      );
      expect(existsSync(path.join(clone, "release"))).to.equal(false);
    });

    it("leaves no half-written release when a build step fails, and keeps the last complete one", () => {
      const complete = path.join(clone, `release/v${version}`);
      mkdirSync(complete, { recursive: true });
      writeFileSync(path.join(complete, "SHA256SUMS"), "an earlier release\n");
      // A Python SDK that its build backend refuses: the npm tarballs are written by then.
      const pyproject = path.join(clone, "sdk/python/pyproject.toml");
      writeFileSync(
        pyproject,
        readFileSync(pyproject, "utf8").replace('name = "pulumi_codesec"', 'name = "not a name!"'),
      );
      git(clone, "commit", "--quiet", "-am", "a Python SDK that does not build");
      const failed = runRelease(clone);
      expect(failed.status).to.equal(1);
      expect(failed.stderr).to.include("python -m build");
      expect(readdirSync(path.join(clone, "release"))).to.deep.equal([`v${version}`]);
      expect(readFileSync(path.join(complete, "SHA256SUMS"), "utf8")).to.equal("an earlier release\n");
    });
  });
});
