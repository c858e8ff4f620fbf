/**
 * The packed package as a pulumi-github user meets it: `npm pack`, installed into a fresh program with
 * @pulumi/pulumi and TypeScript 5, compiled with the stock `pulumi new typescript` tsconfig (strict, no
 * skipLibCheck) against every declaration file the package ships, and in plain JavaScript with checkJs;
 * then the TypeScript program run through the real Pulumi CLI against the emulator. Also: the package alone installs no web
 * server (the emulator's fastify and jose stay in the codesec-emulator package).
 *
 * The package is packed and installed once for the whole file (see support/harness.ts).
 */
import { expect } from "chai";
import type { ConfigMap, OutputMap, Stack } from "@pulumi/pulumi/automation";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { roleOf } from "../support/emulator";
import {
  createStack,
  packedPackage,
  prepareProgram,
  requirePulumiCli,
  scratchDir,
  stateResource,
  timeLimitFor,
  typeCheck,
  typeCheckInBackground,
} from "./support/harness";

const PROGRAMS = path.join(__dirname, "programs");

function valuesOf(outputs: OutputMap): Record<string, unknown> {
  return Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.value]));
}

/** Every file under `dir` whose name ends with `suffix`. */
function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return filesUnder(file, suffix);
    return name.endsWith(suffix) ? [file] : [];
  });
}

function configFor(emulator: EmulatorHandle, role: string): ConfigMap {
  return {
    "codesec:baseUrl": { value: emulator.baseUrl },
    "codesec:token": { value: emulator.apiToken, secret: true },
    deploymentId: { value: emulator.deploymentId },
    memberUserId: { value: emulator.sample.memberUserId },
    role: { value: role },
    scanId: { value: emulator.sample.scanId },
  };
}

describe("the packed package in a program written the pulumi-github way", function () {
  let emulator: EmulatorHandle;
  const printed: string[] = [];
  const onOutput = (out: string) => printed.push(out);

  /** The JavaScript program's compile, started with the file: it runs while the TypeScript program does. */
  let javascriptChecked: Promise<string>;

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    emulator = await startEmulator({ quiet: true });
    javascriptChecked = typeCheckInBackground(
      prepareProgram(path.join(PROGRAMS, "packed-js"), { tarball: packedPackage() }),
    );
  });

  after(async () => {
    await emulator?.close();
  });

  /** The full cycle: preview, up, a preview that expects no changes, destroy. */
  async function lifecycle(stack: Stack, expectedRole: string): Promise<void> {
    const s = emulator.sample;
    const caller = emulator.control.state().users.find((u) => u.id === s.userId)!;

    const preview = await stack.preview({ onOutput });
    expect(preview.changeSummary).to.include({ create: 3 });

    const up = await stack.up({ onOutput });
    const out = valuesOf(up.outputs);
    expect(out.memberRole).to.equal(expectedRole);
    expect(roleOf(emulator, s.memberUserId)).to.equal(expectedRole);
    // The function that depended on the member's role ran after it, inside the component.
    expect(out.seenBy).to.equal(caller.login);
    // UserRole.get read the caller's own role back (`getCurrentUser`).
    expect(out.selfUserId).to.equal(s.userId);
    expect(out.selfRole).to.equal(caller.roles[emulator.deploymentId]);
    expect(out.scanStatus).to.be.a("string");

    const looked = await stateResource(stack, "self");
    expect(looked.external, "a lookup is recorded as a resource the program does not manage").to.equal(true);
    expect(looked.id).to.equal(`${emulator.deploymentId}/${s.userId}`);
    const member = await stateResource(stack, "team-member");
    expect(member.parent).to.match(/e2e:index:Team::team$/);

    await stack.preview({ onOutput, expectNoChanges: true });

    const rolesBefore = new Map(
      emulator.control.state().users.map((u) => [u.id, u.roles[emulator.deploymentId]] as const),
    );
    await stack.destroy({ onOutput });
    // roleOnDestroy demoted the member; the looked-up caller was not touched.
    expect(roleOf(emulator, s.memberUserId)).to.equal("ORG_ROLE_READONLY");
    expect(roleOf(emulator, s.userId)).to.equal(rolesBefore.get(s.userId));
  }

  describe("TypeScript, stock strict tsconfig", () => {
    let programDir: string;
    let declarations: string[];
    let declarationsChecked: Promise<string>;

    before(() => {
      programDir = prepareProgram(path.join(PROGRAMS, "packed-ts"), { tarball: packedPackage() });
      const stock = JSON.parse(readFileSync(path.join(programDir, "tsconfig.json"), "utf8")) as {
        compilerOptions: Record<string, unknown>;
      };
      declarations = filesUnder(path.join(programDir, "node_modules/pulumi-codesec/dist"), ".d.ts");
      writeFileSync(
        path.join(programDir, "tsconfig.declarations.json"),
        JSON.stringify({ ...stock, files: declarations }),
      );
      // The declarations compile while the tests below run the program (its Pulumi run mostly waits).
      declarationsChecked = typeCheckInBackground(programDir, "tsconfig.declarations.json");
    });

    it("type-checks with tsc --noEmit (role from string config, OrgRole, no-argument functions, get, options)", () => {
      expect(typeCheck(programDir)).to.equal("");
    });

    it("runs through pulumi preview, up, preview --expect-no-changes and destroy", async () => {
      // A role other than the program's default (Admin): the one set is the one read from string config.
      const stack = await createStack(programDir, "packed-ts", configFor(emulator, "ORG_ROLE_MEMBER"));
      await lifecycle(stack, "ORG_ROLE_MEMBER");
    }).timeout(timeLimitFor(4));

    it("type-checks every declaration file the package ships under the same tsconfig", async () => {
      expect(declarations.length).to.be.greaterThan(10);
      expect(await declarationsChecked).to.equal("");
    });
  });

  describe("JavaScript with checkJs", () => {
    // Its run would repeat the TypeScript program's: that one is compiled to the same CommonJS
    // `require("pulumi-codesec")` of the same packed package, and runs the same resources and calls.
    it("type-checks with tsc (allowJs, checkJs, strict)", async () => {
      expect(await javascriptChecked).to.equal("");
    });
  });

  it("installed alone, it pulls in no web server: no fastify, no jose", () => {
    const dir = scratchDir("alone");
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "alone", private: true }));
    // Peers (@pulumi/pulumi, typescript) are the program's own; what matters is what the package brings.
    execFileSync(
      "npm",
      ["install", "--no-audit", "--no-fund", "--prefer-offline", "--omit=peer", packedPackage()],
      { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    const lock = JSON.parse(readFileSync(path.join(dir, "package-lock.json"), "utf8")) as {
      packages: Record<string, { peer?: boolean }>;
    };
    const installed = Object.keys(lock.packages)
      .filter((key) => key !== "" && !lock.packages[key].peer)
      .map((key) => key.replace(/^.*node_modules\//, ""))
      .sort();
    expect(installed).to.not.include.members(["fastify", "jose", "express", "koa", "@hapi/hapi"]);
    expect(installed).to.deep.equal(["@sinclair/typebox", "pulumi-codesec"]);
  });
});
