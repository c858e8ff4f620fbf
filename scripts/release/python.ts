/**
 * The Python SDK's distributions, `pulumi_codesec` as an sdist and a wheel, built from a copy of
 * sdk/python by the standard PEP 517 front end (`python -m build`) with the backend its pyproject.toml
 * names. The front end and the backend are pinned and installed once into .tools/release-python (not
 * an isolated environment per build, which would take whatever setuptools is newest that day), so that the
 * same tree gives the same bytes: every timestamp is the commit's (SOURCE_DATE_EPOCH, which the wheel
 * honours), and the sdist, whose tar carries the files' owners and gzip's time of writing, is rewritten
 * with fixed ones (normalize_sdist.py).
 */
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { commandOutput } from "../commandOutput";

/** The build front end and backend, pinned. */
export const PYTHON_BUILD_REQUIREMENTS = ["build==1.3.0", "setuptools==80.9.0"] as const;

function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): string {
  return commandOutput(command, args, { ...options, tailLines: 15 });
}

/** The virtual environment holding the pinned front end and backend: its python. */
export function buildPython(root: string): string {
  const venv = path.join(root, ".tools/release-python");
  const python = path.join(venv, "bin/python");
  const stamp = path.join(venv, ".codesec-made-with");
  const want = PYTHON_BUILD_REQUIREMENTS.join(" ");
  if (existsSync(python) && existsSync(stamp) && readFileSync(stamp, "utf8") === want) return python;
  rmSync(venv, { recursive: true, force: true });
  run("python3", ["-m", "venv", venv]);
  run(python, [
    "-m",
    "pip",
    "install",
    "--quiet",
    "--disable-pip-version-check",
    ...PYTHON_BUILD_REQUIREMENTS,
  ]);
  writeFileSync(stamp, want);
  return python;
}

/** Sets every file's and folder's times under `dir` to `epochSeconds`. */
function settleTimes(dir: string, epochSeconds: number): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) settleTimes(child, epochSeconds);
    utimesSync(child, epochSeconds, epochSeconds);
  }
}

/** Builds the sdist and the wheel of sdk/python into `outDir`, working in `workDir`: their paths. */
export function buildPythonDistributions(
  root: string,
  epochSeconds: number,
  workDir: string,
  outDir: string,
): { sdist: string; wheel: string } {
  const python = buildPython(root);
  const source = path.join(workDir, "python");
  cpSync(path.join(root, "sdk/python"), source, {
    recursive: true,
    filter: (src) => !/(__pycache__|\.egg-info|[\\/]build|[\\/]dist)$/.test(src) && !src.endsWith(".pyc"),
  });
  settleTimes(source, epochSeconds);
  const dist = path.join(workDir, "python-dist");
  const env = { ...process.env, SOURCE_DATE_EPOCH: String(epochSeconds), PYTHONHASHSEED: "0" };
  run(python, ["-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", dist, source], { env });
  const built = readdirSync(dist).sort();
  const sdist = built.find((file) => file.endsWith(".tar.gz"));
  const wheel = built.find((file) => file.endsWith(".whl"));
  if (!sdist || !wheel)
    throw new Error(`python -m build wrote ${built.join(", ") || "nothing"}, not an sdist and a wheel`);
  run(python, [path.join(__dirname, "normalize_sdist.py"), path.join(dist, sdist)], { env });
  for (const file of [sdist, wheel]) cpSync(path.join(dist, file), path.join(outDir, file));
  return { sdist: path.join(outDir, sdist), wheel: path.join(outDir, wheel) };
}
