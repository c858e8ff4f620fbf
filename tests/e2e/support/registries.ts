/**
 * Package registries on 127.0.0.1 for the release rehearsal (tests/e2e/release.rehearsal.test.ts):
 * Verdaccio for npm, pypiserver for Python, and a plain HTTP server of a folder (the plugin archives a
 * GitHub release holds, the Go module proxy's files in the GOPROXY layout). Verdaccio and pypiserver are
 * installed here, pinned, from the machine's configured npm registry and Python index, into the clone's
 * .tools/ (git ignores it), one folder per version, so that a later run reuses them; Verdaccio proxies the
 * machine's configured npm registry for whatever it does not hold.
 *
 * Every server runs under a watchdog shell that stops it (its whole process group) when its standard input
 * closes: when the test process ends, however it ends (killed included), the pipe closes and the server
 * goes with it. A kill of the test's whole process group (a CI timeout) ends the watchdog shells too,
 * before their trap runs: the servers, each in a process group of its own, then run on until the next
 * rehearsal's sweep ends them (rehearsalScratch.ts), which finds them by their tag.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createReadStream, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import * as path from "node:path";
import { commandOutput as run } from "../../../scripts/commandOutput";

/** Verdaccio's pinned version; it installs only with node-fetch pinned to 2.7.0 (an npm override). */
export const VERDACCIO_VERSION = "6.10.4";
export const PYPISERVER_VERSION = "2.3.2";
export const TWINE_VERSION = "6.1.0";

/** Where the registries are installed: the clone's .tools/, which git ignores. */
const TOOLS = path.resolve(__dirname, "../../../.tools");

/** Verdaccio installed (once) into the cache: the path of its command's script. */
export function installVerdaccio(): string {
  const dir = path.join(TOOLS, `verdaccio-${VERDACCIO_VERSION}`);
  const bin = path.join(dir, "node_modules/verdaccio/bin/verdaccio");
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      private: true,
      dependencies: { verdaccio: VERDACCIO_VERSION },
      overrides: { "node-fetch": "2.7.0" },
    }),
  );
  run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline"], { cwd: dir });
  return bin;
}

/** pypiserver and twine installed (once) into a virtual environment in the cache: its bin folder. */
export function installPypiserver(): string {
  const venv = path.join(TOOLS, `pypiserver-${PYPISERVER_VERSION}`);
  const bin = path.join(venv, "bin");
  const stamp = path.join(venv, ".codesec-made-with");
  const want = `pypiserver==${PYPISERVER_VERSION} passlib twine==${TWINE_VERSION}`;
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === want) return bin;
  run("python3", ["-m", "venv", venv]);
  run(path.join(bin, "pip"), ["install", "--quiet", "--disable-pip-version-check", ...want.split(" ")]);
  writeFileSync(stamp, want);
  return bin;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A server process: its URL, what it wrote, and how to stop it. */
export interface RunningServer {
  readonly url: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `command args` under a watchdog shell (the server stops when this process's pipe to the shell
 * closes) and waits until `readyUrl` answers.
 */
export async function startWatched(
  name: string,
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; url: string; readyUrl: string; limitMs?: number },
): Promise<RunningServer> {
  // The server runs as a job of its own process group (set -m), so that the whole group goes: `npx`
  // starts the command it runs as a child, which a signal to npx alone would leave running.
  const watchdog =
    'set -m; "$@" & server=$!; trap \'kill -TERM -- -"$server" 2>/dev/null; wait "$server"\' EXIT; cat >/dev/null';
  const child: ChildProcess = spawn("bash", ["-c", watchdog, "bash", command, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const chunks: string[] = [];
  child.stdout!.setEncoding("utf8").on("data", (text: string) => chunks.push(text));
  child.stderr!.setEncoding("utf8").on("data", (text: string) => chunks.push(text));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let ended = false;
  void exited.then(() => (ended = true));
  const deadline = Date.now() + (options.limitMs ?? 60_000);
  for (;;) {
    if (ended) throw new Error(`${name} ended before it served ${options.readyUrl}:\n${chunks.join("")}`);
    if (await answers(options.readyUrl)) break;
    if (Date.now() > deadline) {
      child.stdin!.end();
      throw new Error(
        `${name} did not serve ${options.readyUrl} within ${options.limitMs ?? 60_000} ms:\n${chunks.join("")}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url: options.url,
    output: () => chunks.join(""),
    stop: async () => {
      child.stdin!.end();
      await exited;
    },
  };
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.status < 500;
  } catch {
    return false;
  }
}

/** Verdaccio on 127.0.0.1 storing in `dir`, proxying `upstream` for every package not of this project. */
export async function startVerdaccio(
  dir: string,
  upstream: string,
  env: NodeJS.ProcessEnv,
): Promise<RunningServer> {
  const bin = installVerdaccio();
  const port = await freePort();
  const config = path.join(dir, "config.yaml");
  mkdirSync(path.join(dir, "storage"), { recursive: true });
  const own = { access: "$all", publish: "$authenticated", unpublish: "$authenticated" };
  const yaml = [
    `storage: ${JSON.stringify(path.join(dir, "storage"))}`,
    "auth:",
    "  htpasswd:",
    `    file: ${JSON.stringify(path.join(dir, "htpasswd"))}`,
    "    max_users: 10",
    "uplinks:",
    "  upstream:",
    `    url: ${JSON.stringify(upstream)}`,
    "    timeout: 60s",
    // Metadata fetched once serves the whole run (the default refetches it every 2 minutes).
    "    maxage: 60m",
    "packages:",
    ...["pulumi-codesec", "codesec-emulator", "codesec-policy", "@pulumi-codesec/*"].flatMap((pattern) => [
      `  ${JSON.stringify(pattern)}:`,
      ...Object.entries(own).map(([key, value]) => `    ${key}: ${JSON.stringify(value)}`),
    ]),
    '  "**":',
    '    access: "$all"',
    "    proxy: upstream",
    "logs:",
    "  type: stdout",
    "  format: pretty",
    "  level: warn",
    "",
  ].join("\n");
  writeFileSync(config, yaml);
  const url = `http://127.0.0.1:${port}/`;
  return startWatched(
    "Verdaccio",
    process.execPath,
    [bin, "--config", config, "--listen", `127.0.0.1:${port}`],
    {
      env,
      cwd: dir,
      url,
      readyUrl: `${url}-/ping`,
    },
  );
}

/** A user on Verdaccio (created on first use): its token, for an .npmrc. */
export async function verdaccioToken(registry: string): Promise<string> {
  const name = "rehearsal";
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, registry), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password: "rehearsal-password" }),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!body.token)
    throw new Error(`Verdaccio gave no token for a new user: ${response.status} ${JSON.stringify(body)}`);
  return body.token;
}

/** pypiserver on 127.0.0.1 serving (and accepting uploads into) `dir`, no authentication. */
export async function startPypiserver(dir: string, env: NodeJS.ProcessEnv): Promise<RunningServer> {
  const bin = installPypiserver();
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  const url = `http://127.0.0.1:${port}/`;
  return startWatched(
    "pypiserver",
    path.join(bin, "pypi-server"),
    [
      "run",
      "--interface",
      "127.0.0.1",
      "--port",
      String(port),
      "--authenticate",
      ".",
      "--passwords",
      ".",
      "--disable-fallback",
      dir,
    ],
    { env, cwd: dir, url, readyUrl: `${url}simple/` },
  );
}

/** A plain HTTP server of the files under `dir` (GET only), in this process; it records each path asked for. */
export interface FileServer {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startFileServer(dir: string): Promise<FileServer> {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? "/", "http://127.0.0.1").pathname);
    requests.push(pathname);
    const file = path.join(dir, path.normalize(pathname).replace(/^(\.\.[/\\])+/, ""));
    if (request.method !== "GET" || !file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end("not found\n");
      return;
    }
    response.writeHead(200, { "content-length": statSync(file).size });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
