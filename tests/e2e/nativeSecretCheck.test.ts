/**
 * Check failures on the native provider's secret inputs, through the real CLI on the installed plugin: an
 * ScmApp's one-time code and an explicit Provider's token, each with a value the checks refuse. `pulumi
 * preview` and `pulumi up` fail, never print the value, and write nothing: the code with a stray newline or
 * leading space at the kind's check; the token with a space inside at CheckConfig (before any request),
 * and, as whitespace around a token is dropped, one with a stray newline or leading space at the credential
 * check the platform answers (its value is not a real token), naming the Provider. A Provider whose name
 * starts with "default" is named as the user's too, not read as the default provider's stack config. A base
 * URL CheckConfig refuses (a password or a query in it, plain http to another machine), in stack config or
 * a Provider's input, fails the same way: the engine is told no property, so it prints no value beside it.
 */
import { expect } from "chai";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type EmulatorHandle } from "../../emulator/index";
import { writes } from "../support/emulator";
import {
  createNativeStack,
  packedNativeSdk,
  prepareProgram,
  requirePulumiCli,
  runPulumi,
} from "./support/harness";

const PROGRAM = path.join(__dirname, "programs/native-secret-check");

describe("native provider: a check failure on a secret input never prints it", function () {
  let emulator: EmulatorHandle;
  let stack: Stack;

  before(async function () {
    console.log(`      using ${requirePulumiCli()}`);
    emulator = await startEmulator({ quiet: true });
    stack = await createNativeStack(prepareProgram(PROGRAM, { tarball: packedNativeSdk() }), "secret-check", {
      "e2e:baseUrl": { value: emulator.baseUrl },
      "e2e:token": { value: emulator.apiToken, secret: true },
      "e2e:code": { value: emulator.sample.scmAppCode, secret: true },
    });
  });

  after(async () => {
    await emulator?.close();
  });

  const refusedToken =
    /provider "org" \(codesec\.Provider resource inputs\) token: token must contain only printable ASCII/;
  const platformRefusal =
    /could not use the credentials from the baseUrl and token inputs of provider "org" at [^\n]*HTTP 401/;
  for (const [mode, secretPart, badValues] of [
    [
      "badCode",
      "Kx4Vm1Rc",
      [
        ["otc-1001-b-Kx4Vm1Rc\n", /has a problem/],
        [" otc-1001-b-Kx4Vm1Rc", /has a problem/],
      ],
    ],
    [
      "badToken",
      "Qz7Wd3Lp",
      [
        ["cst_1001_admin Qz7Wd3Lp", refusedToken],
        ["cst_1001_admin_Qz7Wd3Lp\n", platformRefusal],
        [" cst_1001_admin_Qz7Wd3Lp", platformRefusal],
      ],
    ],
  ] as const) {
    it(`${mode}: preview and up fail naming the problem, never the value, and write nothing`, async () => {
      for (const [value, problem] of badValues) {
        await stack.setAllConfig({
          "e2e:mode": { value: mode },
          "e2e:badValue": { value, secret: true },
        });
        for (const command of [["preview"], ["up", "--yes"]]) {
          emulator.control.clearRequests();
          const { code, output } = await runPulumi(stack, command, `secret-check-${process.pid}`);
          const what = `${mode} ${JSON.stringify(value.slice(0, 1))} ${command[0]}`;
          expect(code, what).not.to.equal(0);
          expect(output, what).to.match(problem, output);
          expect(output, what).not.to.include(secretPart);
          expect(writes(emulator), what).to.deep.equal([]);
        }
      }
    });
  }

  for (const [where, mode, setting] of [
    ["stack config codesec:baseUrl", "stackConfig", "codesec:baseUrl"],
    [
      "an explicit Provider's baseUrl input",
      "badBaseUrl",
      'provider "org" (codesec.Provider resource inputs) baseUrl',
    ],
  ] as const) {
    it(`a base URL in ${where} that the checks refuse: preview and up fail naming it, never printing a password in it`, async () => {
      const refusals: [string, string][] = [
        ["http://user:s3cr3tpass@127.0.0.1:1", `${setting}: baseUrl must not contain credentials`],
        ["https://codesec.example.com/?token=s3cr3tpass", `${setting}: baseUrl must not have a query`],
        [
          "http://codesec.example.com",
          `${setting}: baseUrl "http://codesec.example.com" is plain http to another machine`,
        ],
      ];
      try {
        for (const [baseUrl, problem] of refusals) {
          await stack.setAllConfig({
            "e2e:mode": { value: mode },
            ...(mode === "stackConfig"
              ? {
                  "codesec:baseUrl": { value: baseUrl },
                  "codesec:token": { value: emulator.apiToken, secret: true },
                }
              : { "e2e:badBaseUrl": { value: baseUrl } }),
          });
          for (const command of [["preview"], ["up", "--yes"]]) {
            emulator.control.clearRequests();
            const { code, output } = await runPulumi(stack, command, `secret-check-${process.pid}`);
            const what = `${baseUrl} ${command[0]}`;
            expect(code, what).not.to.equal(0);
            expect(output, what).to.include(problem);
            expect(output.toLowerCase(), what).not.to.include("s3cr3tpass");
            expect(output, what).not.to.match(/property baseUrl value/);
            expect(emulator.control.requests(), what).to.deep.equal([]);
          }
        }
      } finally {
        await stack.removeAllConfig(["codesec:baseUrl", "codesec:token", "e2e:badBaseUrl"]);
      }
    });
  }

  it("a Provider named defaultOrg: the refusal names its token input, not stack config", async () => {
    await stack.setAllConfig({
      "e2e:mode": { value: "badToken" },
      "e2e:badValue": { value: "cst_1001_admin Qz7Wd3Lp", secret: true },
      "e2e:providerName": { value: "defaultOrg" },
    });
    try {
      emulator.control.clearRequests();
      const { code, output } = await runPulumi(stack, ["preview"], `secret-check-${process.pid}`);
      expect(code).not.to.equal(0);
      expect(output).to.match(
        /provider "defaultOrg" \(codesec\.Provider resource inputs\) token: token must contain only printable ASCII/,
        output,
      );
      expect(output).not.to.include("codesec:token");
      expect(output).not.to.include("pulumi config set");
      expect(output).not.to.include("Qz7Wd3Lp");
      expect(emulator.control.requests()).to.deep.equal([]);
    } finally {
      await stack.removeConfig("e2e:providerName");
    }
  });
});
