/**
 * How the set-up's scripts find Go: one `ensure_go` (scripts/go-build.sh), which every script that runs
 * Go sources, so that where Go is looked for (PATH, then the official tarball's /usr/local/go/bin) is
 * written once.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const repoRoot = path.resolve(__dirname, "../..");
const scripts = path.join(repoRoot, "scripts");

describe("scripts: one Go look-up (ensure_go in scripts/go-build.sh)", () => {
  const shellScripts = readdirSync(scripts).filter((name) => name.endsWith(".sh"));

  it("is written once: only go-build.sh names /usr/local/go; every script that runs Go calls ensure_go", () => {
    const runsGo = /(^|[\s;(&|])(go (build|install|mod|env|version)|GOBIN=\S* .*go install)\b/m;
    for (const name of shellScripts) {
      const text = readFileSync(path.join(scripts, name), "utf8");
      if (name === "go-build.sh") continue;
      expect(text, name).not.to.include("/usr/local/go");
      if (runsGo.test(text))
        expect(text, `${name} runs Go`).to.match(/^\s*(if !? ?)?ensure_go\b|ensure_go \|\||ensure_go;/m);
    }
  });

  it("finds the go on PATH first and answers 0", () => {
    const work = mkdtempSync(path.join(os.tmpdir(), "codesec-ensure-go-"));
    try {
      const bin = path.join(work, "bin");
      mkdirSync(bin);
      writeFileSync(path.join(bin, "go"), "#!/bin/sh\necho fake go\n", { mode: 0o755 });
      const result = spawnSync(
        "bash",
        ["-c", `root="$1"; source "$root/scripts/go-build.sh"; ensure_go && command -v go`, "bash", repoRoot],
        { encoding: "utf8", env: { ...process.env, PATH: `${bin}:/usr/bin:/bin` } },
      );
      expect(result.status, result.stderr).to.equal(0);
      expect(result.stdout.trim()).to.equal(path.join(bin, "go"));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
