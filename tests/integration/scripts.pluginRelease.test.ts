/**
 * The native plugin's release archive (scripts/plugin-release.ts): its name and contents, the same bytes
 * for the same tree, a bundle that serves on its own (no node_modules beside it) and says which build it
 * is, and a launcher that says what is missing when there is no Node.js. (Installing it with the real CLI
 * and running stacks on it: tests/e2e/native.test.ts.)
 */
import { expect } from "chai";
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  COMPILE_CACHE_LINES,
  packageVersion,
  releaseTarball,
  tarballName,
  treeBuildHash,
} from "../../scripts/plugin-release";

const repoRoot = path.resolve(__dirname, "../..");

describe("scripts/plugin-release.ts: the native plugin's release archive", function () {
  this.timeout(60_000);
  let work: string;
  let tarball: string;
  let build: string;
  let unpacked: string;

  before(() => {
    work = mkdtempSync(path.join(os.tmpdir(), "codesec-plugin-release-test-"));
    // Under umask 022; the script's own run below makes it again under 077.
    const umask = process.umask(0o022);
    try {
      ({ tarball, build } = releaseTarball(path.join(work, "a"), { os: "linux", arch: "amd64" }));
    } finally {
      process.umask(umask);
    }
    unpacked = path.join(work, "unpacked");
    execFileSync("mkdir", ["-p", unpacked]);
    execFileSync("tar", ["-xzf", tarball, "-C", unpacked]);
  });

  after(() => rmSync(work, { recursive: true, force: true }));

  it("is pulumi-resource-codesec-v<version>-<os>-<arch>.tar.gz with the launcher, the bundle and the licence", () => {
    expect(path.basename(tarball)).to.equal(
      `pulumi-resource-codesec-v${packageVersion()}-linux-amd64.tar.gz`,
    );
    expect(tarballName("1.2.3", { os: "darwin", arch: "arm64" })).to.equal(
      "pulumi-resource-codesec-v1.2.3-darwin-arm64.tar.gz",
    );
    const listed = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).trim().split("\n").sort();
    expect(listed).to.deep.equal(["LICENSE", "pulumi-resource-codesec", "pulumi-resource-codesec.js"]);
    expect(statSync(path.join(unpacked, "pulumi-resource-codesec")).mode & 0o111).to.equal(0o111);
  });

  // Made again from the same tree, it is the same bytes: the next two tests make it again and compare.
  it("carries the tree's build hash", () => {
    expect(build).to.match(/^sha256:[0-9a-f]{64}$/);
    expect(build).to.equal(treeBuildHash());
  });

  it("is made again, the same bytes as the first, when the temporary directory is reached through a symbolic link (macOS's /var/folders)", () => {
    const real = path.join(work, "real-tmp");
    const linked = path.join(work, "linked-tmp");
    mkdirSync(real);
    symlinkSync(real, linked);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = linked;
    try {
      expect(os.tmpdir()).to.equal(linked);
      const made = releaseTarball(path.join(work, "through-link"), { os: "linux", arch: "amd64" });
      expect(readFileSync(made.tarball).equals(readFileSync(tarball))).to.equal(true);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it("is made again, the same bytes as the first, under any umask, with mode 0755 for the launcher and 0644 for the rest, no owner", () => {
    // The archive of the before hook is made under umask 022; the script makes it under 077.
    const out = path.join(work, "umask-077");
    execFileSync(
      "sh",
      [
        "-c",
        'umask 077 && exec node -r ts-node/register/transpile-only scripts/plugin-release.ts --out "$1"',
        "sh",
        out,
      ],
      { cwd: repoRoot, encoding: "utf8" },
    );
    const made = readFileSync(path.join(out, path.basename(tarball)));
    expect(made.equals(readFileSync(tarball))).to.equal(true);
    // The gzip header names no operating system (zlib writes its own: 3 on Linux, 19 on macOS).
    expect(made[9]).to.equal(255);
    const listing = execFileSync("tar", ["-tvzf", tarball], { encoding: "utf8" }).trim().split("\n");
    const modes: Record<string, string> = Object.fromEntries(
      listing.map((line) => {
        const fields = line.split(/\s+/);
        return [fields[fields.length - 1], fields[0]];
      }),
    );
    expect(modes).to.deep.equal({
      LICENSE: "-rw-r--r--",
      "pulumi-resource-codesec": "-rwxr-xr-x",
      "pulumi-resource-codesec.js": "-rw-r--r--",
    });
    for (const line of listing) expect(line.split(/\s+/)[1]).to.equal("0/0");
  });

  it("refuses a platform its shell launcher cannot run on", () => {
    expect(() => releaseTarball(path.join(work, "w"), { os: "windows", arch: "amd64" })).to.throw(
      /no release archive for windows: the launcher is a POSIX shell script/,
    );
  });

  it("says which build it is, and serves from the archive alone: its first line is the port", async () => {
    const launcher = path.join(unpacked, "pulumi-resource-codesec");
    const info = JSON.parse(execFileSync(launcher, ["--build-info"], { encoding: "utf8" })) as unknown;
    expect(info).to.deep.equal({ version: packageVersion(), build });
    const child = spawn(launcher, ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"], cwd: work });
    const firstLine = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(out.split("\n")[0]);
      });
      child.once("exit", (code) => reject(new Error(`exited ${code} before its port`)));
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill();
    await exited;
    expect(firstLine).to.match(/^\d+$/);
  });

  it("keeps V8's code cache of the bundle beside it, written while it serves, unless Node's opt-out is set", async () => {
    // The bundle's compile is a third of the plugin's start-up CPU: the second start on reads it back.
    const copy = path.join(work, "cached");
    execFileSync("cp", ["-r", unpacked, copy]);
    // Without the cache the other tests' starts wrote beside the unpacked archive.
    rmSync(path.join(copy, ".node-compile-cache"), { recursive: true, force: true });
    const cached = path.join(copy, ".node-compile-cache");
    const cacheFiles = () =>
      existsSync(cached)
        ? readdirSync(cached, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
            .length
        : 0;
    const tmp = path.join(work, "cache-tmp");
    mkdirSync(tmp, { recursive: true });
    // Written while the plugin serves: a plugin the engine has to SIGKILL never reaches a normal exit.
    await firstLineOf(
      spawn(launcherIn(copy), ["127.0.0.1:1"], { env: { ...process.env, TMPDIR: tmp }, stdio: "pipe" }),
      () => until(() => cacheFiles() > 0, 10_000),
    );
    expect(cacheFiles()).to.be.greaterThan(0);
    expect(readdirSync(tmp, { recursive: true }), "nothing in the shared temporary folder").to.deep.equal([]);
    const optedOut = path.join(work, "opted-out");
    execFileSync("cp", ["-r", unpacked, optedOut]);
    rmSync(path.join(optedOut, ".node-compile-cache"), { recursive: true, force: true });
    await firstLineOf(
      spawn(launcherIn(optedOut), ["127.0.0.1:1"], {
        env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: "1" },
        stdio: "pipe",
      }),
    );
    expect(existsSync(path.join(optedOut, ".node-compile-cache"))).to.equal(false);
  });

  it("the clone's launcher keeps the compile cache as the archive's does", () => {
    const clone = readFileSync(
      path.join(repoRoot, "provider/cmd/pulumi-resource-codesec", "pulumi-resource-codesec"),
      "utf8",
    );
    expect(clone).to.include(COMPILE_CACHE_LINES);
    expect(
      execFileSync("tar", ["-xzOf", tarball, "pulumi-resource-codesec"], { encoding: "utf8" }),
    ).to.include(COMPILE_CACHE_LINES);
  });

  it("with a Node.js older than 22, the launcher names it and where it came from", () => {
    const bin = path.join(work, "old-node");
    mkdirSync(bin, { recursive: true });
    const oldNode = path.join(bin, "node");
    writeFileSync(oldNode, "#!/bin/sh\necho v20.20.2\n", { mode: 0o755 });
    const launcher = path.join(unpacked, "pulumi-resource-codesec");
    const onPath = spawnSync(launcher, ["127.0.0.1:1"], {
      env: { PATH: `${bin}:/usr/bin:/bin` },
      encoding: "utf8",
    });
    expect(onPath.status).to.equal(1);
    expect(onPath.stderr).to.include(
      `pulumi-resource-codesec needs Node.js 22 or later: ${oldNode} (the 'node' on PATH) is v20.20.2`,
    );
    const named = spawnSync(launcher, ["127.0.0.1:1"], {
      env: { PATH: "/usr/bin:/bin", PULUMI_CODESEC_NODE: oldNode },
      encoding: "utf8",
    });
    expect(named.status).to.equal(1);
    expect(named.stderr).to.include(
      `needs Node.js 22 or later: ${oldNode} (PULUMI_CODESEC_NODE) is v20.20.2`,
    );
  });

  it("without Node.js on PATH, the launcher says what it needs", () => {
    const result = spawnSync(path.join(unpacked, "pulumi-resource-codesec"), ["127.0.0.1:1"], {
      env: { PATH: "/nonexistent" },
      encoding: "utf8",
    });
    expect(result.status).to.equal(1);
    expect(result.stderr).to.include(
      "pulumi-resource-codesec needs Node.js 22 or later: no 'node' (the 'node' on PATH;",
    );
  });
});

function launcherIn(dir: string): string {
  return path.join(dir, "pulumi-resource-codesec");
}

/** The first line a started plugin prints (its port), then the plugin stopped. */
async function firstLineOf(
  child: ChildProcess,
  whileServing: () => Promise<void> = async () => undefined,
): Promise<string> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(out.split("\n")[0]);
      });
      child.once("exit", (code) => reject(new Error(`exited ${code} before its port`)));
    });
    await whileServing();
    return line;
  } finally {
    child.kill();
    await exited;
  }
}

/** Resolves once `done()` holds, or after `ms` (the caller's assertion then says what was missing). */
async function until(done: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
}
