/**
 * The native plugin's start-up, part of the native provider comparison (target: under 300 ms): the time from
 * starting a launcher `pulumi-resource-codesec` as the engine starts it (an engine address as its argument)
 * until it prints the port it serves on, which is when the engine can call it. Two forms, started one after
 * the other, interleaved (the machine is shared and noisy: only side-by-side figures mean something):
 *
 * - `release`: the release archive's launcher on its bundle (scripts/plugin-release.ts), unpacked as
 *   `pulumi plugin install` unpacks it: what users run, so the figure with the target. Its compile cache
 *   (V8's code cache, which the launcher keeps beside the bundle) is warm after the first start, as on a
 *   user's machine from the second command on;
 * - `clone`: the clone's launcher on the tsc build in dist/ (about 300 modules resolved and read).
 *
 * The one implementation of this measure: `npm run bench` (BENCH_ONLY="plugin start-up") and, run alone, a
 * comparison with more forms (without the compile cache, and with `--sea` a Node single executable of the
 * bundle):
 *
 *   bash scripts/with-tools.sh node -r ts-node/register/transpile-only bench/pluginStartup.ts [--rounds 20] [--sea]
 *
 * Needs `npm run build` (dist/).
 */
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { PLUGIN_NAME, releaseTarball } from "../scripts/plugin-release";
import { nativePluginDir, scratchDir } from "../tests/e2e/support/harness";
import { figure, NATIVE_COMPARISON, type Figure } from "./support/results";
import { median, summarized } from "./support/stats";

/** One way of starting the plugin: its launcher and what it adds to the environment. */
export interface PluginForm {
  name: string;
  command: string;
  /** Its arguments: an engine address nothing listens on when not given (the plugin only dials it when a call needs the engine). */
  args?: string[];
  /** The folder it starts in (the bench's own when not given). */
  cwd?: string;
  env?: Record<string, string>;
}

/** Milliseconds from spawning `form`'s launcher to its first line of output (the port); then it is stopped. */
export async function pluginStartMs(form: PluginForm): Promise<number> {
  const start = performance.now();
  const child = spawn(form.command, form.args ?? ["127.0.0.1:9"], {
    cwd: form.cwd,
    env: { ...process.env, ...form.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout });
      lines.once("line", (text) => {
        lines.close();
        resolve(text);
      });
      child.once("exit", (code) => reject(new Error(`${form.name} exited (${code}): ${stderr}`)));
    });
    const took = performance.now() - start;
    if (!/^\d+$/.test(line.trim())) throw new Error(`${form.name} printed ${line}, not a port`);
    return took;
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

/** The release archive built from the tree, unpacked in a scratch folder: its launcher. */
export function releaseLauncher(): string {
  const work = scratchDir("plugin-release");
  const { tarball } = releaseTarball(work);
  const unpacked = path.join(work, "plugin");
  mkdirSync(unpacked);
  execFileSync("tar", ["-xzf", tarball, "-C", unpacked]);
  return path.join(unpacked, PLUGIN_NAME);
}

/** The clone's launcher (dist/). */
export const CLONE_LAUNCHER = path.join(nativePluginDir, PLUGIN_NAME);

/**
 * Each form started once untimed (the file cache warm for all alike, the compile cache written), then
 * `rounds` rounds, one start of each form per round: the times of each form, in order.
 */
export async function interleavedStarts(forms: PluginForm[], rounds: number): Promise<Map<string, number[]>> {
  for (const form of forms) await pluginStartMs(form);
  const times = new Map<string, number[]>(forms.map((form) => [form.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const form of forms) times.get(form.name)!.push(await pluginStartMs(form));
  }
  return times;
}

export async function pluginStartup(runs: number, log: (line: string) => void): Promise<Figure[]> {
  const forms: PluginForm[] = [
    { name: "release", command: releaseLauncher() },
    { name: "clone", command: CLONE_LAUNCHER },
  ];
  const times = await interleavedStarts(forms, runs);
  const release = times.get("release")!;
  const clone = times.get("clone")!;
  log(`  plugin start-up, release archive: ${release.map((ms) => ms.toFixed(0)).join(", ")} ms`);
  log(`  plugin start-up, clone's dist/: ${clone.map((ms) => ms.toFixed(0)).join(", ")} ms`);
  return [
    figure({
      comparison: NATIVE_COMPARISON,
      name: "plugin start-up, launcher to port (release archive)",
      ...summarized(release),
      unit: "ms",
      target: { op: "<=", value: 300 },
      detail:
        `wall time from spawning the release archive's pulumi-resource-codesec (its bundle, compile cache ` +
        `warm) to its port, ${runs} processes interleaved with the clone's launcher`,
    }),
    figure({
      comparison: NATIVE_COMPARISON,
      name: "plugin start-up, launcher to port (clone's dist/)",
      ...summarized(clone),
      unit: "ms",
      detail: `the clone's launcher on the tsc build, interleaved with the release archive's; median ${median(clone).toFixed(0)} ms`,
    }),
  ];
}

/** A Node single executable application of the release bundle, with V8's code cache (postject via npx). */
function singleExecutable(launcher: string): string {
  const dir = path.dirname(launcher);
  const node = realpathSync(process.execPath);
  const blob = path.join(dir, "sea.blob");
  const config = path.join(dir, "sea.json");
  writeFileSync(
    config,
    JSON.stringify({
      main: path.join(dir, `${PLUGIN_NAME}.js`),
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
    }),
  );
  execFileSync(node, ["--experimental-sea-config", config], { stdio: "ignore" });
  const sea = path.join(dir, `${PLUGIN_NAME}-sea`);
  copyFileSync(node, sea);
  execFileSync(
    "npx",
    [
      "--yes",
      "postject@1.0.0-alpha.6",
      sea,
      "NODE_SEA_BLOB",
      blob,
      "--sentinel-fuse",
      "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2",
    ],
    { stdio: "ignore" },
  );
  return sea;
}

async function compareForms(args: string[]): Promise<void> {
  const rounds = Number(args[args.indexOf("--rounds") + 1]) || 20;
  const launcher = releaseLauncher();
  const forms: PluginForm[] = [
    { name: "clone", command: CLONE_LAUNCHER },
    { name: "release, no compile cache", command: launcher, env: { NODE_DISABLE_COMPILE_CACHE: "1" } },
    { name: "release", command: launcher },
  ];
  if (args.includes("--sea")) forms.push({ name: "sea", command: singleExecutable(launcher) });
  const times = await interleavedStarts(forms, rounds);
  const base = median(times.get("clone")!);
  process.stdout.write(`plugin start-up, ${rounds} rounds interleaved (ms to the port line)\n`);
  for (const form of forms) {
    const values = [...times.get(form.name)!].sort((a, b) => a - b);
    const p90 = values[Math.min(values.length - 1, Math.floor(0.9 * values.length))];
    process.stdout.write(
      `${form.name.padEnd(28)} median ${median(values).toFixed(0).padStart(5)}  p90 ${p90
        .toFixed(0)
        .padStart(5)}  ratio to clone ${(median(values) / base).toFixed(2)}x\n`,
    );
  }
}

if (require.main === module) {
  compareForms(process.argv.slice(2)).catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
}
