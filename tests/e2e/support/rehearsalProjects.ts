/**
 * The release rehearsal's projects (tests/e2e/release.rehearsal.test.ts, bench/installs.ts): one per
 * language, TypeScript on the native SDK, TypeScript on the dynamic resources, Python, Go and YAML, each
 * the same program (a UserRole made an admin), as a user writes it and installs it from the registries;
 * and the names of what the release publishes.
 */
import { expect } from "chai";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./harness";
import { GO_SDK_MODULE } from "./languagePrograms";

export { GO_SDK_MODULE };

const manifest = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
  version: string;
  devDependencies: Record<string, string>;
};
export const version = manifest.version;
/** The @pulumi/pulumi (npm) and pulumi (PyPI) the programs use: the version the CLI is built from. */
export const PULUMI_SDK_VERSION = manifest.devDependencies["@pulumi/pulumi"];
/** The schema's pluginDownloadURL (the SDKs carry it). */
export const PLUGIN_SERVER = "github://api.github.com/pulumi-codesec";
/** Where the CLI downloads from for PLUGIN_SERVER: the GitHub releases of pulumi-codesec/pulumi-codesec. */
export const PLUGIN_SOURCE = `${PLUGIN_SERVER}/pulumi-codesec`;
/** The folder of the module cache that holds the SDK's module (and nothing else of the machine's). */
export const GO_SDK_OWNER = "github.com/pulumi-codesec";
export const PLUGIN_ARCHIVE = `pulumi-resource-codesec-v${version}-linux-amd64.tar.gz`;

/** What a TypeScript project installs besides @pulumi/pulumi and the package it uses. */
export const TYPESCRIPT_DEV_DEPENDENCIES = {
  typescript: "~5.9.3",
  "ts-node": "^10.9.2",
  "@types/node": "^22.18.0",
};

/**
 * The packages of other publishers that the users' installs resolve through Verdaccio: the TypeScript
 * projects' and the emulator's (the package.json dependencies of this package and of the emulator).
 */
export function thirdPartyPackages(): string[] {
  const dependenciesOf = (file: string) =>
    (JSON.parse(readFileSync(path.join(repoRoot, file), "utf8")) as { dependencies: Record<string, string> })
      .dependencies;
  const all: Record<string, string> = {
    ...dependenciesOf("package.json"),
    ...dependenciesOf("emulator/package.json"),
    ...TYPESCRIPT_DEV_DEPENDENCIES,
    "@pulumi/pulumi": PULUMI_SDK_VERSION,
  };
  return Object.entries(all)
    .filter(([name]) => name !== "pulumi-codesec")
    .map(([name, range]) => `${name}@${range}`);
}

/** A language's project: its files, how its user installs it, what proves it installed from the registries. */
export interface Project {
  readonly title: string;
  readonly files: Record<string, string>;
  /** Files written once the emulator runs, from its sample data. */
  readonly filesFor?: (sample: Sample) => Record<string, string>;
  /** Environment of this project's commands beyond the user's `user` (an activated virtual environment). */
  readonly env?: (dir: string, user: NodeJS.ProcessEnv) => Record<string, string>;
  readonly install: string[][];
  readonly installedFrom: (dir: string, installOutput: string) => void;
  /** Whether the program runs the native plugin (which `pulumi up` downloads). */
  readonly plugin: boolean;
}

/** What an emulator started for a project serves: its address, a token and the sample's ids. */
export interface Sample {
  readonly baseUrl: string;
  readonly apiToken: string;
  readonly deploymentId: string;
  readonly memberUserId: string;
}

/** What one project's run measured, in seconds. */
export interface Outcome {
  readonly install: number;
  readonly up: number;
  readonly preview: number;
  readonly destroy: number;
  readonly pulumiHome: string;
}

const typescriptProject = (
  title: string,
  dependencies: Record<string, string>,
  program: string,
  plugin: boolean,
): Project => ({
  title,
  files: {
    "Pulumi.yaml": "runtime: nodejs\n",
    "package.json": JSON.stringify(
      {
        name: "rehearsal",
        private: true,
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": PULUMI_SDK_VERSION, ...dependencies },
        devDependencies: TYPESCRIPT_DEV_DEPENDENCIES,
      },
      null,
      2,
    ),
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        strict: true,
        outDir: "bin",
        target: "es2020",
        module: "commonjs",
        moduleResolution: "node",
        sourceMap: true,
        forceConsistentCasingInFileNames: true,
      },
      files: ["index.ts"],
    }),
    "index.ts": program,
  },
  install: [["npm", "install", "--no-audit", "--no-fund"]],
  installedFrom: (dir) => {
    const lock = JSON.parse(readFileSync(path.join(dir, "package-lock.json"), "utf8")) as {
      packages: Record<string, { resolved?: string }>;
    };
    const resolved = Object.entries(lock.packages).filter(([name]) => name !== "");
    expect(resolved.length).to.be.greaterThan(10);
    for (const [name, entry] of resolved) {
      expect(entry.resolved, `${name} in package-lock.json`).to.match(/^http:\/\/127\.0\.0\.1:\d+\//);
    }
  },
  plugin,
});

const TYPESCRIPT_PROGRAM = (module: string) => `import * as pulumi from "@pulumi/pulumi";
import * as codesec from "${module}";

const config = new pulumi.Config();
const role = new codesec.UserRole("member", {
  deploymentId: config.require("deploymentId"),
  userId: config.require("userId"),
  role: codesec.OrgRole.Admin,
});
export const memberRole = role.role;
`;

export const PROJECTS: Project[] = [
  typescriptProject(
    "TypeScript on the native SDK",
    { "@pulumi-codesec/codesec": version },
    TYPESCRIPT_PROGRAM("@pulumi-codesec/codesec"),
    true,
  ),
  typescriptProject(
    "TypeScript on the dynamic resources",
    { "pulumi-codesec": version },
    TYPESCRIPT_PROGRAM("pulumi-codesec"),
    false,
  ),
  {
    title: "Python",
    files: {
      "Pulumi.yaml": "runtime: python\n",
      "requirements.txt": `pulumi==${PULUMI_SDK_VERSION}\npulumi_codesec==${version}\n`,
      "__main__.py": `import pulumi
import pulumi_codesec as codesec

config = pulumi.Config()
role = codesec.UserRole(
    "member",
    deployment_id=config.require("deploymentId"),
    user_id=config.require("userId"),
    role=codesec.OrgRole.ADMIN,
)
pulumi.export("memberRole", role.role)
`,
    },
    // The virtual environment, activated as a user's shell activates it; PULUMI_PYTHON_CMD names its
    // interpreter too, for the language host built here, which reads no virtualenv option.
    env: (dir, user) => ({
      VIRTUAL_ENV: path.join(dir, "venv"),
      PATH: `${path.join(dir, "venv/bin")}:${user.PATH}`,
      PULUMI_PYTHON_CMD: path.join(dir, "venv/bin/python"),
    }),
    install: [
      ["python3", "-m", "venv", "venv"],
      [
        "venv/bin/pip",
        "install",
        "--disable-pip-version-check",
        "--report",
        "pip-report.json",
        "-r",
        "requirements.txt",
      ],
    ],
    installedFrom: (dir) => {
      const report = JSON.parse(readFileSync(path.join(dir, "pip-report.json"), "utf8")) as {
        install: { metadata: { name: string }; download_info: { url: string } }[];
      };
      const sdk = report.install.find(
        (item) => item.metadata.name.replace(/[-_]/g, "_") === "pulumi_codesec",
      );
      expect(sdk?.download_info.url, "pulumi_codesec's download").to.match(
        new RegExp(`^http://127\\.0\\.0\\.1:\\d+/packages/pulumi_codesec-${version.replace(/\./g, "\\.")}-`),
      );
    },
    plugin: true,
  },
  {
    title: "Go",
    files: {
      "Pulumi.yaml": "runtime: go\n",
      "main.go": `package main

import (
	"github.com/pulumi-codesec/pulumi-codesec/sdk/go/codesec"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		role, err := codesec.NewUserRole(ctx, "member", &codesec.UserRoleArgs{
			DeploymentId: pulumi.String(cfg.Require("deploymentId")),
			UserId:       pulumi.String(cfg.Require("userId")),
			Role:         codesec.OrgRoleAdmin,
		})
		if err != nil {
			return err
		}
		ctx.Export("memberRole", role.Role)
		return nil
	})
}
`,
    },
    install: [
      ["go", "mod", "init", "rehearsal"],
      ["go", "get", `${GO_SDK_MODULE}@v${version}`],
      ["go", "mod", "tidy"],
    ],
    installedFrom: (dir) => {
      const sums = readFileSync(path.join(dir, "go.sum"), "utf8");
      expect(sums).to.include(`${GO_SDK_MODULE} v${version} h1:`);
    },
    plugin: true,
  },
  {
    title: "YAML",
    // The YAML language host reads a config value that looks like a number as a number, even when the
    // project declares it a string, and the provider refuses a number as an id: the program names the
    // sample's ids itself, as strings. It names the plugin's version and where to download it too (the
    // SDKs of the other languages carry both).
    files: {},
    filesFor: (sample) => ({
      "Pulumi.yaml": `runtime: yaml
resources:
  member:
    type: codesec:UserRole
    properties:
      deploymentId: ${JSON.stringify(sample.deploymentId)}
      userId: ${JSON.stringify(sample.memberUserId)}
      role: ORG_ROLE_ADMIN
    options:
      version: ${version}
      pluginDownloadURL: ${PLUGIN_SERVER}
outputs:
  memberRole: \${member.role}
`,
    }),
    install: [],
    installedFrom: () => undefined,
    plugin: true,
  },
];

/** An archive's SHA-256 as the release's SHA256SUMS names it. */
export function releaseSumIn(releaseDir: string, file: string): string {
  const line = readFileSync(path.join(releaseDir, "SHA256SUMS"), "utf8")
    .split("\n")
    .find((text) => text.endsWith(`  ${file}`));
  if (line === undefined) throw new Error(`SHA256SUMS names no ${file}`);
  return line.split("  ")[0];
}

export function slug(title: string): string {
  return title.replace(/[^a-z]+/gi, "-").toLowerCase();
}
