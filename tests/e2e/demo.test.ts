import { expect } from "chai";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { defaultFixtures } from "../../emulator/index";
import { assertNoUnexpectedErrors } from "./support/cliOutput";
import { repoRoot, requirePulumiCli, timeLimitFor } from "./support/harness";

/** The demo waits for four CLI commands: up, a preview with refresh, destroy, and the stack's removal. */
const DEMO_LIMIT_MS = timeLimitFor(4);

/** The demo's drift check, up to the next heading: the CLI fails it on purpose, and the demo quotes it. */
const DRIFT_CHECK = /^== Drift check.*\n[\s\S]*?(?=^== )/m;

describe("npm run demo (the main job)", () => {
  it("applies the org configuration, summarizes it, detects drift, and cleans up", () => {
    requirePulumiCli();
    // As the README gives it; its output is piped here, as in a CI log.
    const result = spawnSync("npm", ["run", "demo"], {
      cwd: repoRoot,
      encoding: "utf8",
      timeout: DEMO_LIMIT_MS,
    });
    const output = `${result.stdout}\n${result.stderr}`;
    expect(result.status, output.slice(-3000)).to.equal(0);
    expect(output).to.match(DRIFT_CHECK);
    // What the demo shows of its other CLI commands (the engine's progress, its own `pulumi version`).
    assertNoUnexpectedErrors({
      command: "npm run demo",
      code: result.status,
      output: output.replace(DRIFT_CHECK, ""),
    });
    expect(output).to.include("Resources created: 7");
    expect(output).to.match(/Current user: +ada-admin \(ORG_ROLE_ADMIN\)/);
    expect(output).to.match(/Latest scan: +#3001 .*SCAN_STATUS_COMPLETED/);
    expect(output).to.include("Notification rules with problems: 2");
    expect(output).to.match(/scmName *: "acme" => "renamed-by-hand"/);
    expect(output).to.include("Drift detected");
    expect(output).to.match(/- 7 deleted/);
    expect(output).to.include("Demo finished");
    expect(output, "no colour codes in piped output").to.not.include("\x1b[");
    expect(existsSync(path.join(repoRoot, "Pulumi.demo.yaml")), "the demo removes its stack file").to.equal(
      false,
    );
    const fixtures = defaultFixtures();
    const secrets = [
      ...fixtures.apiTokens.map((t) => t.value),
      ...fixtures.scmAppRequests.map((r) => r.code),
    ];
    for (const secret of secrets) expect(output.includes(secret), "a secret was printed").to.equal(false);
  }).timeout(DEMO_LIMIT_MS + 30_000);
});
