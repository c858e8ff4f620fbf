/**
 * How long the native plugin takes to start: from its launch to the port on its first line of output,
 * which is what the engine waits for before each plugin's first call. The forms are run side by side,
 * interleaved, in one process (the machine is shared and noisy: only the ratios mean something):
 *
 * - `unbundled`: the clone's launcher on the tsc build in dist/ (Node resolves and reads ~300 modules);
 * - `bundled`: the release archive's launcher on its one-file bundle (scripts/plugin-release.ts);
 * - `bundled+compile-cache`: the same with NODE_COMPILE_CACHE (V8's code cache on disk, second start on);
 * - `sea`: a Node single executable application of the bundle with V8's code cache (`--sea`, which builds it
 *   with `node --experimental-sea-config` and postject, fetched by npx: no dependency of the repository).
 *
 *   node -r ts-node/register/transpile-only scripts/plugin-startup.ts [--rounds 20] [--sea]
 *
 * Needs `npm run build` (dist/). Prints each form's median and p90 in ms and its ratio to `unbundled`.
 */
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PLUGIN_NAME, releaseTarball } from "./plugin-release";

const root = path.resolve(__dirname, "..");

interface Form {
  name: string;
  command: string;
  env?: Record<string, string>;
}

/** Milliseconds from spawn to the first line of output (the port), then the plugin is stopped. */
function timeToPort(form: Form): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(form.command, ["127.0.0.1:1"], {
      env: { ...process.env, ...form.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (/^\d+\n/.test(out)) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        child.kill();
        resolve(ms);
      }
    });
    child.once("exit", (code) => {
      if (!/^\d+\n/.test(out)) reject(new Error(`${form.name} exited ${code} before its port: ${err}`));
    });
  });
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const rounds = Number(args[args.indexOf("--rounds") + 1]) || 20;
  const work = mkdtempSync(path.join(os.tmpdir(), "codesec-plugin-startup-"));
  try {
    const { tarball } = releaseTarball(work);
    const unpacked = path.join(work, "plugin");
    mkdirSync(unpacked);
    execFileSync("tar", ["-xzf", tarball, "-C", unpacked]);
    const launcher = path.join(unpacked, PLUGIN_NAME);
    const cacheDir = path.join(work, "compile-cache");
    const forms: Form[] = [
      { name: "unbundled", command: path.join(root, "provider/cmd/pulumi-resource-codesec", PLUGIN_NAME) },
      { name: "bundled", command: launcher },
      { name: "bundled+compile-cache", command: launcher, env: { NODE_COMPILE_CACHE: cacheDir } },
    ];
    if (args.includes("--sea")) {
      const node = realpathSync(process.execPath);
      const blob = path.join(work, "sea.blob");
      const config = path.join(work, "sea.json");
      writeFileSync(
        config,
        JSON.stringify({
          main: path.join(unpacked, `${PLUGIN_NAME}.js`),
          output: blob,
          disableExperimentalSEAWarning: true,
          useCodeCache: true,
        }),
      );
      execFileSync(node, ["--experimental-sea-config", config], { stdio: "ignore" });
      const sea = path.join(work, `${PLUGIN_NAME}-sea`);
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
      forms.push({ name: "sea", command: sea });
    }
    // One start of each before timing: the file cache warm for every form alike, the compile cache written.
    for (const form of forms) await timeToPort(form);
    const times = new Map<string, number[]>(forms.map((f) => [f.name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const form of forms) times.get(form.name)!.push(await timeToPort(form));
    }
    const base = quantile(
      [...times.get("unbundled")!].sort((a, b) => a - b),
      0.5,
    );
    process.stdout.write(`plugin start-up, ${rounds} rounds interleaved (ms to the port line)\n`);
    for (const form of forms) {
      const sorted = [...times.get(form.name)!].sort((a, b) => a - b);
      const median = quantile(sorted, 0.5);
      process.stdout.write(
        `${form.name.padEnd(24)} median ${median.toFixed(0).padStart(5)}  p90 ${quantile(sorted, 0.9)
          .toFixed(0)
          .padStart(5)}  ratio ${(median / base).toFixed(2)}x\n`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
