/**
 * A stack of the credentials program (tests/e2e/programs/credentials) against an emulator: the default
 * connection in stack config and the named connections "org2" (a second organization) and "user" (a
 * user JWT), set with `--path` as a user sets them, each with a freshly minted token.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import * as path from "node:path";
import type { EmulatorHandle } from "../../../emulator/index";
import { createStack, prepareProgram } from "../support/harness";

export const CREDENTIALS_PROGRAM = path.join(__dirname, "../programs/credentials");
export const ORG2 = { deploymentId: "2002", adminUserId: "601" } as const;

/** A new API token of `userId` in `deploymentId`. */
export async function mintToken(
  emulator: EmulatorHandle,
  deploymentId: string,
  userId: string,
): Promise<string> {
  return (await emulator.control.mintCredential({ deploymentId, userId, kind: "apiToken" })).credential;
}

export interface CredentialStack {
  stack: Stack;
  programDir: string;
  /** The tokens in use now, by connection. */
  tokens: { default: string; org2: string };
}

/** A stack of the credentials program; its program and state go under `under` when given. */
export async function credentialStack(
  emulator: EmulatorHandle,
  name: string,
  extra: Record<string, { value: string; secret?: boolean }> = {},
  under?: string,
): Promise<CredentialStack> {
  const programDir = prepareProgram(CREDENTIALS_PROGRAM, { under });
  const tokens = {
    default: await mintToken(emulator, emulator.deploymentId, emulator.sample.userId),
    org2: await mintToken(emulator, ORG2.deploymentId, ORG2.adminUserId),
  };
  const s = emulator.sample;
  const stack = await createStack(programDir, name, {
    "codesec:baseUrl": { value: emulator.baseUrl },
    "codesec:token": { value: tokens.default, secret: true },
    "e2e:deploymentId": { value: emulator.deploymentId },
    "e2e:memberUserId": { value: s.memberUserId },
    "e2e:adminUserId": { value: s.userId },
    "e2e:org2DeploymentId": { value: ORG2.deploymentId },
    "e2e:org2AdminUserId": { value: ORG2.adminUserId },
    "e2e:scmAppRequestId": { value: s.scmAppRequestId },
    "e2e:scmAppCode": { value: s.scmAppCode, secret: true },
    "e2e:scmConfigId": { value: s.scmConfigId },
    ...extra,
  });
  await setNamedConnection(stack, "org2", emulator.baseUrl, tokens.org2);
  await setNamedConnection(stack, "user", emulator.baseUrl, emulator.jwt);
  return { stack, programDir, tokens };
}

/** `pulumi config set --path codesec:connections.<name>.baseUrl` and `--secret --path ....token`. */
export async function setNamedConnection(
  stack: Stack,
  name: string,
  baseUrl: string,
  token: string,
): Promise<void> {
  await stack.setConfig(`codesec:connections.${name}.baseUrl`, { value: baseUrl }, true);
  await stack.setConfig(`codesec:connections.${name}.token`, { value: token, secret: true }, true);
}

/**
 * Rotates both API tokens: new ones go into stack config, the old ones are revoked on the platform.
 * Returns the new tokens.
 */
export async function rotateTokens(
  emulator: EmulatorHandle,
  target: CredentialStack,
): Promise<CredentialStack["tokens"]> {
  const fresh = {
    default: await mintToken(emulator, emulator.deploymentId, emulator.sample.userId),
    org2: await mintToken(emulator, ORG2.deploymentId, ORG2.adminUserId),
  };
  await target.stack.setConfig("codesec:token", { value: fresh.default, secret: true });
  await setNamedConnection(target.stack, "org2", emulator.baseUrl, fresh.org2);
  emulator.control.revokeCredential(target.tokens.default);
  emulator.control.revokeCredential(target.tokens.org2);
  target.tokens = fresh;
  return fresh;
}
