/**
 * The secrets sweep: every secret a stack handles (the default and named connections' API tokens, a
 * user JWT, a token in the deprecated object form, an SCM app's one-time code) is searched for in
 * everything a run produces: the state as stored, stack outputs, all the engine printed, error
 * messages, the emulator's log, and every file the run left behind. Writes the "secrets-sweep" section.
 *
 * The run's files are all under one folder of the test's own (program, state backend, Pulumi home, and
 * the temporary files of this process and every process it starts, through TMPDIR), and only that
 * folder is swept: what other tests or programs leave elsewhere is not this run's doing.
 */
import { expect } from "chai";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../../emulator/index";
import { markdownTable, writeReportSection } from "../../support/reliabilityReport";
import {
  exportStackAsStored,
  pulumiSync,
  requirePulumiCli,
  scratchDir,
  timeLimitFor,
} from "../support/harness";
import { credentialStack, mintToken, type CredentialStack } from "./credentialStack";

/** The forms a secret could take on its way somewhere: as is, base64, base64url, URL-encoded. */
function formsOf(secret: string): string[] {
  const forms = [
    secret,
    Buffer.from(secret).toString("base64").replace(/=+$/, ""),
    Buffer.from(secret).toString("base64url"),
    encodeURIComponent(secret),
  ];
  return [...new Set(forms)];
}

/** Files under `dir` (symlinked node_modules left out: the package itself, not the run's output). */
function filesUnder(dir: string, found: string[] = [], depth = 0): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return found;
  }
  for (const name of entries) {
    if (name === "node_modules") continue;
    const full = path.join(dir, name);
    let stat;
    try {
      stat = statSync(full);
    } catch {
      continue;
    }
    if (stat.isDirectory() && depth < 8) filesUnder(full, found, depth + 1);
    else if (stat.isFile() && stat.size < 20 * 1024 * 1024) found.push(full);
  }
  return found;
}

describe("secrets sweep through the real CLI", function () {
  let emulator: EmulatorHandle;
  let target: CredentialStack;
  /** The folder of everything this test's run writes; the only one swept. */
  let own: string;
  const tmpdirBefore = process.env.TMPDIR;
  const places = new Map<string, string[]>();
  const emulatorLog: string[] = [];
  let legacyToken: string;
  const restoreStderr = process.stderr.write.bind(process.stderr);

  function collect(place: string, text: string): void {
    places.set(place, [...(places.get(place) ?? []), text]);
  }
  const onOutput = (out: string) => collect("engine output", out);

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    own = scratchDir("secrets-sweep");
    process.env.TMPDIR = path.join(own, "tmp");
    mkdirSync(process.env.TMPDIR);

    // The emulator logs one line per request to stderr: keep a copy for the sweep.
    process.stderr.write = (chunk: string | Uint8Array, ...rest: never[]) => {
      emulatorLog.push(String(chunk));
      return restoreStderr(chunk, ...rest);
    };
    emulator = await startEmulator({ quiet: false });
    // What another test or program leaves outside this folder is not swept: the emulator's credentials
    // and sample ids (the SCM app code among them), as the example READMEs once had users write to /tmp.
    writeFileSync(
      path.join(scratchDir("another-test"), "codesec-emulator.json"),
      JSON.stringify({ apiToken: emulator.apiToken, jwt: emulator.jwt, sample: emulator.sample }),
    );
    legacyToken = await mintToken(emulator, emulator.deploymentId, emulator.sample.userId);
    target = await credentialStack(
      emulator,
      "sweep",
      {
        "e2e:legacyConnection": { value: "true" },
        "e2e:legacyToken": { value: legacyToken, secret: true },
      },
      own,
    );
  });

  after(async () => {
    process.env.TMPDIR = tmpdirBefore;
    process.stderr.write = restoreStderr;
    await emulator?.close();
  });

  it("runs the whole life of a stack, failures included", async () => {
    const { stack } = target;
    await stack.up({ onOutput, onError: onOutput });
    await stack.preview({ onOutput, onError: onOutput, diff: true });
    await stack.refresh({ onOutput, onError: onOutput });
    collect("state as stored", exportStackAsStored(stack));
    collect("stack outputs", pulumiSync(stack, ["stack", "output", "--json", "--stack", stack.name]));
    // Failures: a bad code on a new app, and a token the platform refuses.
    const saved = await stack.getConfig("codesec:token");
    await stack.setConfig("codesec:token", { value: "cst_1001_refused_token_value", secret: true });
    await stack
      .preview({ onOutput, onError: onOutput })
      .catch((error: Error) => collect("error messages", String(error)));
    await stack.setConfig("codesec:token", saved);
    emulator.control.revokeCredential(target.tokens.default);
    await stack
      .refresh({ onOutput, onError: onOutput })
      .catch((error: Error) => collect("error messages", String(error)));
    expect(places.get("error messages")).to.have.length(2);
    await stack
      .destroy({ onOutput, onError: onOutput, runProgram: true })
      .catch((error: Error) => collect("error messages", String(error)));
  }).timeout(timeLimitFor(8));

  it("finds no secret, in any form, anywhere", () => {
    collect("emulator log", emulatorLog.join(""));
    const files = filesUnder(own);
    for (const file of files) collect("files left behind", readFileSync(file, "latin1"));
    const checkpoint = `${path.sep}.pulumi${path.sep}stacks${path.sep}`;
    expect(
      files.filter((file) => file.includes(checkpoint)),
      "the sweep reads the stack's checkpoint files",
    ).to.not.deep.equal([]);
    const secrets: Record<string, string> = {
      "API token (stack config)": target.tokens.default,
      "API token (named connection org2)": target.tokens.org2,
      "API token (deprecated object connection)": legacyToken,
      "user JWT (named connection user)": emulator.jwt,
      "SCM app one-time code": emulator.sample.scmAppCode,
    };
    const rows: string[][] = [];
    const found: string[] = [];
    for (const [place, texts] of places) {
      const text = texts.join("\n");
      const row = [place];
      for (const [name, secret] of Object.entries(secrets)) {
        const hits = formsOf(secret).reduce((n, form) => n + text.split(form).length - 1, 0);
        if (hits > 0) found.push(`${name} in ${place} (${hits}x)`);
        row.push(String(hits));
      }
      rows.push(row);
    }
    expect(found).to.deep.equal([]);
    expect([...places.keys()].sort()).to.deep.equal(
      [
        "emulator log",
        "engine output",
        "error messages",
        "files left behind",
        "stack outputs",
        "state as stored",
      ].sort(),
    );
    writeReportSection({
      id: "secrets-sweep",
      title: "Secrets sweep",
      markdown: [
        "One stack through up, preview, refresh, a preview with a refused token, a refresh with a revoked " +
          "one and a destroy, with every kind of secret the provider handles. Each secret was searched as " +
          "is, base64, base64url and URL-encoded (`tests/e2e/reliability/secretsSweep.test.ts`); the " +
          "counts are occurrences found. Files left behind: every file the run wrote, all under a folder of " +
          "its own (program, state backend, Pulumi home, and the temporary files of the test and of every " +
          "process it started, through TMPDIR).",
        "",
        markdownTable(
          ["where", "texts searched", ...Object.keys(secrets)],
          rows.map((r) => [r[0], "searched", ...r.slice(2)]),
        ),
        "",
        "Not covered, by design: the engine's own verbose logs (`pulumi -v=9 --logtostderr`) print the " +
          "inputs the engine sends to providers, decrypted, including `codesec:token`: do not collect " +
          "them in CI logs. The emulator's `--state` file holds its tokens and codes (it is the platform's " +
          "own store, written with mode 0600).",
      ].join("\n"),
    });
  });
});
