/**
 * Bench programs (bench/programs/*) as stacks driven through the real Pulumi CLI, with the end-to-end
 * suite's harness: the packed package installed as a user installs it, a local file backend, passphrase
 * secrets, no network service.
 */
import type { ConfigMap, LocalWorkspace, Stack } from "@pulumi/pulumi/automation";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { cpSync } from "node:fs";
import { createStack, nativePluginEnv, scratchDir, useModules } from "../../tests/e2e/support/harness";
import { benchModules } from "./modules";

/** The programs under bench/programs. */
export type BenchProgram = "roles" | "kinds" | "smallStack";

/** Where each stack's folder goes: one scratch folder for the run, so their state files sit side by side. */
let stacksDir: string | undefined;

/**
 * A fresh copy of `program` (its own folder, so its own state) as stack `name`, with `config` set and
 * `env` added to the CLI's environment (which the program and its dynamic providers inherit), with the
 * native plugin's launcher on PATH and the bench's node_modules (./modules.ts).
 */
export async function benchStack(
  program: BenchProgram,
  name: string,
  config: ConfigMap,
  env: Record<string, string> = {},
): Promise<Stack> {
  stacksDir ??= scratchDir("bench-stacks");
  const dir = scratchDir(`${program}-${name}`, stacksDir);
  cpSync(path.join(__dirname, "..", "programs", program), dir, { recursive: true });
  useModules(dir, benchModules());
  // The native plugin (pulumi-resource-codesec) on PATH for every stack: only the native side starts it.
  return createStack(dir, name, config, { ...nativePluginEnv(), ...env });
}

/** A scratch folder for the run (removed when the process ends), beside the stacks' folders. */
export function benchScratchDir(name: string): string {
  return scratchDir(name);
}

/** Config of a codesec connection: the emulator's base URL and its token, stored as a secret. */
export function connectionConfig(baseUrl: string, token: string): ConfigMap {
  return { "codesec:baseUrl": { value: baseUrl }, "codesec:token": { value: token, secret: true } };
}

/** One resource of an exported checkpoint, as far as the size figures read it. */
export interface StoredResource {
  type: string;
  urn: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/**
 * The resources of the stack's checkpoint as `pulumi stack export` prints them (secrets encrypted); with
 * room for the checkpoint of a 1,000-resource stack (several MB, beyond execFileSync's default buffer).
 */
export function storedResources(stack: Stack): StoredResource[] {
  const workspace = stack.workspace as LocalWorkspace;
  const text = execFileSync("pulumi", ["stack", "export", "--stack", stack.name], {
    cwd: workspace.workDir,
    env: { ...process.env, ...workspace.envVars },
    encoding: "utf8",
    maxBuffer: 512 * 2 ** 20,
  });
  const exported = JSON.parse(text) as { deployment?: { resources?: StoredResource[] } };
  return exported.deployment?.resources ?? [];
}

/** Bytes of one resource's entry in the checkpoint (compact JSON, as the file backend writes it). */
export function entryBytes(resource: StoredResource): number {
  return Buffer.byteLength(JSON.stringify(resource), "utf8");
}
