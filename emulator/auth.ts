/**
 * Credentials and access rules. A bearer credential is either an API token (an opaque string from the
 * store) or a user JWT (HS256, signed with the state's key). Each credential belongs to one user and one
 * deployment; the user's role in that deployment, read at request time, decides what it may do.
 */
import { randomUUID } from "node:crypto";
import { SignJWT, errors as joseErrors, jwtVerify } from "jose";
import {
  OPERATIONS,
  operationLabel,
  type AuthScheme,
  type OperationKey,
  type OrgRole,
} from "pulumi-codesec/api";
import { apiError } from "./errors";
import type { EmulatorStore } from "./store";

/** `iss` of every user JWT the emulator signs. */
export const JWT_ISSUER = "codesec-emulator";
/** `aud` of every user JWT the emulator signs. */
export const JWT_AUDIENCE = "codesec-api";
/** Lifetime of the JWT `startEmulator` hands out (and the default of minted JWTs): 24 hours. */
export const DEFAULT_JWT_LIFETIME_SECONDS = 24 * 60 * 60;

const REALM = 'Bearer realm="codesec"';

/** Who is calling, resolved from the Authorization header. */
export interface Caller {
  scheme: AuthScheme;
  userId: string;
  /** The one deployment this credential reaches. */
  deploymentId: string;
  /** Id (never the value) of the API token, for API-token callers. */
  tokenId?: string;
}

/** What a user JWT asserts. */
export interface UserJwtClaims {
  userId: string;
  deploymentId: string;
}

/** Signs a user JWT (HS256) carrying `sub` (user id), `deploymentId`, `iat`, `exp`, `iss`, `aud`, `jti`. */
export async function signUserJwt(
  key: Uint8Array,
  claims: UserJwtClaims,
  options: { expiresInSeconds?: number; now?: Date } = {},
): Promise<string> {
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const lifetime = options.expiresInSeconds ?? DEFAULT_JWT_LIFETIME_SECONDS;
  return new SignJWT({ deploymentId: claims.deploymentId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.userId)
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + lifetime)
    .setJti(randomUUID())
    .sign(key);
}

function unauthenticated(message: string, error = "invalid_token") {
  return apiError("UNAUTHENTICATED", message, {
    "www-authenticate": `${REALM}, error="${error}", error_description="${message.replace(/"/g, "'")}"`,
  });
}

/** Verifies signature, algorithm, issuer, audience and expiry; throws a 401 ApiError otherwise. */
export async function verifyUserJwt(
  key: Uint8Array,
  jwt: string,
  now: Date = new Date(),
): Promise<UserJwtClaims> {
  try {
    const { payload } = await jwtVerify(jwt, key, {
      algorithms: ["HS256"],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: ["sub", "exp"],
      currentDate: now,
    });
    const deploymentId = payload.deploymentId;
    if (typeof payload.sub !== "string" || typeof deploymentId !== "string") {
      throw unauthenticated("the JWT lacks its sub or deploymentId claim");
    }
    return { userId: payload.sub, deploymentId };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired)
      throw unauthenticated("the JWT has expired; obtain a new one");
    if (error instanceof joseErrors.JOSEError) {
      throw unauthenticated("the JWT is not valid (bad signature, algorithm, issuer or audience)");
    }
    throw error;
  }
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Whether a bearer credential has the shape of a JWT (three base64url parts) rather than an API token. */
export function isJwtShaped(credential: string): boolean {
  return JWT_SHAPE.test(credential);
}

/**
 * Resolves the Authorization header to a caller, or throws: 401 (missing, malformed, unknown, revoked,
 * expired, tampered, deleted user) or 403 (an API token without the Web API permission, or restricted to
 * scopes).
 */
export async function authenticate(
  store: EmulatorStore,
  authorization: string | undefined,
  now: Date = new Date(),
): Promise<Caller> {
  if (authorization === undefined || authorization.trim() === "") {
    throw apiError(
      "UNAUTHENTICATED",
      "the Authorization header is missing; send Authorization: Bearer <API token or JWT>",
      {
        "www-authenticate": REALM,
      },
    );
  }
  const match = /^Bearer +([^\s]+)\s*$/i.exec(authorization);
  if (!match?.[1]) {
    throw unauthenticated(
      "the Authorization header must have the form 'Bearer <API token or JWT>'",
      "invalid_request",
    );
  }
  const credential = match[1];
  let caller: Caller;
  if (isJwtShaped(credential)) {
    const claims = await verifyUserJwt(store.signingKey, credential, now);
    caller = { scheme: "jwt", ...claims };
  } else {
    const token = store.apiTokenByValue(credential);
    if (!token) throw unauthenticated("the API token is not known (revoked or mistyped)");
    if (token.revokedAt !== undefined) {
      throw unauthenticated("the API token has been revoked; create a new one in the organization settings");
    }
    if (token.expiresAt !== undefined && Date.parse(token.expiresAt) <= now.getTime()) {
      throw unauthenticated("the API token has expired; create a new one in the organization settings");
    }
    if (!token.webApi) {
      throw apiError(
        "PERMISSION_DENIED",
        "the API token does not have the Web API permission; enable it in the organization's token settings",
        { "www-authenticate": `${REALM}, error="insufficient_scope"` },
      );
    }
    if (token.scoped) {
      throw apiError(
        "PERMISSION_DENIED",
        "the API token is restricted to limited scopes of access; the web API needs an unrestricted token",
        { "www-authenticate": `${REALM}, error="insufficient_scope"` },
      );
    }
    caller = {
      scheme: "apiToken",
      userId: token.userId,
      deploymentId: token.deploymentId,
      tokenId: token.id,
    };
  }
  const user = store.user(caller.userId);
  if (!user) throw unauthenticated(`the credential's user ${caller.userId} does not exist`);
  if (user.deletedAt !== undefined)
    throw unauthenticated(`the credential's user ${caller.userId} has been deleted`);
  return caller;
}

/**
 * Throws 403 when the operation does not accept the caller's scheme (listing joinable organizations takes
 * only a JWT).
 */
export function requireScheme(caller: Caller, key: OperationKey): void {
  const operation = OPERATIONS[key];
  if ((operation.schemes as readonly AuthScheme[]).includes(caller.scheme)) return;
  const accepted = operation.schemes.map((s) => (s === "jwt" ? "a user JWT" : "an API token")).join(" or ");
  throw apiError(
    "PERMISSION_DENIED",
    `${operationLabel(key)} requires ${accepted}; ` +
      `${caller.scheme === "jwt" ? "user JWTs" : "API tokens"} are not accepted`,
  );
}

/**
 * Throws 403 unless the credential belongs to `deploymentId`. The answer is the same whether that
 * deployment exists or not, so it reveals nothing about other organizations.
 */
export function requireDeployment(caller: Caller, deploymentId: string): void {
  if (caller.deploymentId === deploymentId) return;
  throw apiError(
    "PERMISSION_DENIED",
    `this credential belongs to deployment ${caller.deploymentId} and cannot access deployment ${deploymentId}`,
  );
}

/** What an operation needs: any role (`read`) or ORG_ROLE_ADMIN (`admin`). */
export type Access = "read" | "admin";

/**
 * The caller's current role in `deploymentId` (read now, so role changes take effect at once); throws
 * 403 when the user is no longer a member or, for `admin`, is not an admin.
 */
export function requireRole(
  store: EmulatorStore,
  caller: Caller,
  deploymentId: string,
  access: Access,
): OrgRole {
  requireDeployment(caller, deploymentId);
  const role = store.roleOf(caller.userId, deploymentId);
  if (role === undefined) {
    throw apiError(
      "PERMISSION_DENIED",
      `user ${caller.userId} is not a member of deployment ${deploymentId}`,
    );
  }
  if (access === "admin" && role !== "ORG_ROLE_ADMIN") {
    throw apiError(
      "PERMISSION_DENIED",
      `this operation needs ORG_ROLE_ADMIN in deployment ${deploymentId}; user ${caller.userId} has ${role}`,
    );
  }
  return role;
}
