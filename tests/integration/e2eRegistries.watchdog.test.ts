/**
 * The release rehearsal's servers (tests/e2e/support/registries.ts) end with the test process that
 * started them, however it ends: a process that starts one under its watchdog and is then killed with
 * SIGKILL (no handler of its own runs) leaves no server behind.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import * as path from "node:path";
import { isRunning } from "../e2e/support/harness";

const registries = path.resolve(__dirname, "../e2e/support/registries.ts");

/** A process that starts a server under the watchdog, then prints the server's pid and waits. */
const STARTER = `
const { startWatched, freePort } = require(${JSON.stringify(registries)});
(async () => {
  const port = await freePort();
  const server = await startWatched(
    "a test server",
    process.execPath,
    ["-e", "require('node:http').createServer((q, s) => s.end(String(process.pid))).listen(" + port + ", '127.0.0.1')"],
    { env: process.env, cwd: process.cwd(), url: "http://127.0.0.1:" + port + "/", readyUrl: "http://127.0.0.1:" + port + "/" },
  );
  const pid = await (await fetch(server.url)).text();
  process.stdout.write(pid + "\\n");
  setInterval(() => undefined, 1000);
})();
`;

describe("the release rehearsal's server watchdog", function () {
  this.timeout(60_000);

  it("stops a server when the process that started it is killed with SIGKILL", async () => {
    const starter = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", STARTER], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const serverPid = await new Promise<number>((resolve, reject) => {
      let text = "";
      starter.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
        if (text.includes("\n")) resolve(Number(text.trim()));
      });
      starter.once("exit", (code) => reject(new Error(`the starter ended (${code}) before its server ran`)));
    });
    expect(isRunning(serverPid)).to.equal(true);
    starter.kill("SIGKILL");
    const deadline = Date.now() + 10_000;
    while (isRunning(serverPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(isRunning(serverPid), `server ${serverPid} still runs after its starter was killed`).to.equal(
      false,
    );
  });
});
