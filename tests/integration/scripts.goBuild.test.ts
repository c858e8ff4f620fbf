/**
 * scripts/go-build.sh's promise in its header: sourcing it, and its ensure_go, need nothing set (no
 * `root`, `cache_root`, `lock`, `progress_every` or `log`), so a script that only looks Go up
 * (install-actionlint.sh, build-generator.sh) can source it under `set -euo pipefail`, from any directory.
 */
import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const goBuild = path.resolve(__dirname, "../../scripts/go-build.sh");

describe("scripts/go-build.sh", () => {
  it("is sourced, and ensure_go runs, with nothing set and from another directory", () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), "codesec-go-build-"));
    try {
      // PATH only: no go on it or in /usr/local/go is fine, ensure_go then answers 1.
      const result = spawnSync(
        "bash",
        [
          "-c",
          'set -euo pipefail; source "$1"; declare -F acquire_build_lock >/dev/null; ' +
            'if ensure_go; then echo "go: yes"; else echo "go: no"; fi',
          "bash",
          goBuild,
        ],
        // stdin not a socket (Node's pipes are): bash would read ~/.bashrc, as if started by rshd.
        {
          cwd: elsewhere,
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      expect(result.stderr).to.equal("");
      expect(result.status).to.equal(0);
      expect(result.stdout).to.match(/^go: (yes|no)\n$/);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
