/**
 * The plugin's entry (`pulumi-resource-codesec`, run by the launcher beside schema.json): started by the
 * engine with its address as the first argument, it prints the port it serves on as its first line of
 * output, which is how the engine finds it, and serves until the engine stops it or is gone (shutdown.ts).
 */
const MIN_NODE_MAJOR = 22;

function main(): void {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < MIN_NODE_MAJOR) {
    process.stderr.write(
      `pulumi-resource-codesec needs Node.js ${MIN_NODE_MAJOR} or later; the node on PATH is ${process.version}.\n`,
    );
    process.exit(1);
  }
  // `--build-info` (ours, never passed by the engine): which build this is, for a person or a test to check
  // that an installed plugin is the one built from their tree.
  if (process.argv.includes("--build-info")) {
    const { buildInfo } = require("./packageFiles") as typeof import("./packageFiles");
    process.stdout.write(`${JSON.stringify(buildInfo())}\n`);
    return;
  }
  // Other flags (the engine passes `--logtostderr`, `-v=N` and tracing ones to every plugin) are not ours.
  const engineAddress = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
  // Loaded after the version check, so an older Node fails with the message above.
  const { startPluginServer } = require("./server") as typeof import("./server");
  startPluginServer({ engineAddress }).then(
    (server) => {
      const { stopWithTheEngine } = require("./shutdown") as typeof import("./shutdown");
      stopWithTheEngine(server);
      process.stdout.write(`${server.port}\n`);
      // Node writes its compile cache (the launcher turns it on) only on a normal exit, which a plugin the
      // engine had to SIGKILL never reaches: written now, once the engine has the port, for the next start.
      setImmediate(flushCompileCache);
    },
    (error: unknown) => {
      process.stderr.write(`pulumi-resource-codesec could not start: ${String(error)}\n`);
      process.exit(1);
    },
  );
}

/** Writes V8's code cache of what has been compiled so far, when Node's compile cache is on. */
function flushCompileCache(): void {
  const { flushCompileCache: flush } = require("node:module") as { flushCompileCache?: () => void };
  flush?.();
}

main();
