/**
 * What `npm run setup` does so that this repository's Pulumi CLI (whose Node.js language host cannot run
 * policy packs) runs `policy/`: scripts/setup-policy.sh writes an analyzer launcher for another runtime
 * name and a copy of the pack's manifest with that runtime. Tests run the script into a folder of their
 * own, and rename the runtime of a pack they copy the same way.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot, scratchDir } from "./harness";

/** The runtime name scripts/setup-policy.sh gives the pack, and its launcher's suffix. */
export const LAUNCHER_RUNTIME = "codesec-nodejs";

export interface PolicyTools {
  /** Put it on PATH: it holds `pulumi-analyzer-policy-codesec-nodejs`. */
  readonly bin: string;
  /** `policy/` with its runtime renamed: give it to `--policy-pack`. */
  readonly pack: string;
}

/** Runs scripts/setup-policy.sh into a scratch folder. */
export function setUpPolicyTools(): PolicyTools {
  const tools = scratchDir("policy-tools");
  execFileSync("bash", [path.join(repoRoot, "scripts/setup-policy.sh")], {
    env: { ...process.env, CODESEC_TOOLS_DIR: tools },
    stdio: "ignore",
  });
  return { bin: path.join(tools, "bin"), pack: path.join(tools, "policy-pack") };
}

/** Gives the pack in `packDir` (a copy of policy/, `runtime: nodejs`) the launcher's runtime, if it has not. */
export function useLauncherRuntime(packDir: string): void {
  const manifest = path.join(packDir, "PulumiPolicy.yaml");
  const text = readFileSync(manifest, "utf8");
  if (new RegExp(`^runtime: ${LAUNCHER_RUNTIME}$`, "m").test(text)) return;
  if (!/^runtime: nodejs$/m.test(text)) throw new Error(`${manifest}: no \`runtime: nodejs\` line`);
  writeFileSync(manifest, text.replace(/^runtime: nodejs$/m, `runtime: ${LAUNCHER_RUNTIME}`));
}
