import { expect } from "chai";
import { SignJWT } from "jose";
import {
  JWT_AUDIENCE,
  JWT_ISSUER,
  authenticate,
  requireDeployment,
  requireRole,
  requireScheme,
  signUserJwt,
  verifyUserJwt,
  type Caller,
} from "../../emulator/auth";
import { ApiError } from "../../emulator/errors";
import { defaultFixtures } from "../../emulator/defaultFixtures";
import { EmulatorStore } from "../../emulator/store";

const TOKENS = Object.fromEntries(defaultFixtures().apiTokens.map((t) => [t.id, t.value]));

/** Runs `action` and returns the ApiError it throws (fails when it does not throw one). */
async function apiErrorOf(action: () => unknown): Promise<ApiError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

describe("emulator auth", () => {
  let store: EmulatorStore;
  beforeEach(() => {
    store = EmulatorStore.open({ fixtures: defaultFixtures() });
  });

  describe("API tokens", () => {
    it("a web-API token resolves to its owner and deployment", async () => {
      const caller = await authenticate(store, `Bearer ${TOKENS["tok-1001-admin"]}`);
      expect(caller).to.deep.equal({
        scheme: "apiToken",
        userId: "501",
        deploymentId: "1001",
        tokenId: "tok-1001-admin",
      });
    });

    it("the Bearer scheme name is case-insensitive", async () => {
      const caller = await authenticate(store, `bearer ${TOKENS["tok-1001-member"]}`);
      expect(caller.userId).to.equal("502");
    });

    it("a token without the Web API permission answers 403 saying so", async () => {
      const error = await apiErrorOf(() => authenticate(store, `Bearer ${TOKENS["tok-1001-noweb"]}`));
      expect(error.status).to.equal(403);
      expect(error.code).to.equal("PERMISSION_DENIED");
      expect(error.message).to.match(/Web API permission/);
    });

    it("a scope-restricted token answers 403 saying so", async () => {
      const error = await apiErrorOf(() => authenticate(store, `Bearer ${TOKENS["tok-1001-scoped"]}`));
      expect(error.status).to.equal(403);
      expect(error.message).to.match(/restricted to limited scopes/);
    });

    it("an expired token answers 401", async () => {
      const error = await apiErrorOf(() => authenticate(store, `Bearer ${TOKENS["tok-1001-expired"]}`));
      expect(error.status).to.equal(401);
      expect(error.message).to.match(/expired/);
    });

    it("an unknown token answers 401 with WWW-Authenticate", async () => {
      const error = await apiErrorOf(() => authenticate(store, "Bearer cst_not_a_real_token_00000"));
      expect(error.status).to.equal(401);
      expect(error.code).to.equal("UNAUTHENTICATED");
      expect(error.headers["www-authenticate"]).to.match(/^Bearer realm="codesec", error="invalid_token"/);
    });

    it("a missing or malformed Authorization header answers 401", async () => {
      for (const header of [undefined, "", "Basic dXNlcjpwYXNz", "Bearer", "Bearer a b"]) {
        const error = await apiErrorOf(() => authenticate(store, header));
        expect(error.status, String(header)).to.equal(401);
        expect(error.headers["www-authenticate"]).to.match(/^Bearer realm="codesec"/);
      }
    });
  });

  describe("user JWTs", () => {
    it("a signed JWT resolves to its user and deployment", async () => {
      const jwt = await signUserJwt(store.signingKey, { userId: "503", deploymentId: "1001" });
      expect(await authenticate(store, `Bearer ${jwt}`)).to.deep.equal({
        scheme: "jwt",
        userId: "503",
        deploymentId: "1001",
      });
    });

    it("an expired JWT answers 401", async () => {
      const jwt = await signUserJwt(
        store.signingKey,
        { userId: "501", deploymentId: "1001" },
        { expiresInSeconds: -60 },
      );
      const error = await apiErrorOf(() => authenticate(store, `Bearer ${jwt}`));
      expect(error.status).to.equal(401);
      expect(error.message).to.match(/expired/);
    });

    it("a JWT that expires later is refused once that time has come", async () => {
      const now = new Date("2030-01-01T00:00:00Z");
      const jwt = await signUserJwt(
        store.signingKey,
        { userId: "501", deploymentId: "1001" },
        { expiresInSeconds: 60, now },
      );
      expect((await verifyUserJwt(store.signingKey, jwt, new Date(now.getTime() + 30_000))).userId).to.equal(
        "501",
      );
      const error = await apiErrorOf(() =>
        verifyUserJwt(store.signingKey, jwt, new Date(now.getTime() + 61_000)),
      );
      expect(error.status).to.equal(401);
    });

    it("a tampered JWT answers 401", async () => {
      const jwt = await signUserJwt(store.signingKey, { userId: "503", deploymentId: "1001" });
      const [header, payload, signature] = jwt.split(".") as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
      const forged = Buffer.from(JSON.stringify({ ...claims, sub: "501" })).toString("base64url");
      const error = await apiErrorOf(() => authenticate(store, `Bearer ${header}.${forged}.${signature}`));
      expect(error.status).to.equal(401);
      expect(error.message).to.match(/not valid/);
    });

    it("a JWT signed with another key, or unsigned, answers 401", async () => {
      const otherKey = new Uint8Array(32).fill(7);
      const foreign = await signUserJwt(otherKey, { userId: "501", deploymentId: "1001" });
      expect((await apiErrorOf(() => authenticate(store, `Bearer ${foreign}`))).status).to.equal(401);
      const header = Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url");
      const payload = Buffer.from(
        JSON.stringify({
          sub: "501",
          deploymentId: "1001",
          iss: JWT_ISSUER,
          aud: JWT_AUDIENCE,
          exp: 4102444800,
        }),
      ).toString("base64url");
      expect((await apiErrorOf(() => authenticate(store, `Bearer ${header}.${payload}.`))).status).to.equal(
        401,
      );
    });

    it("a JWT without the deploymentId claim answers 401", async () => {
      const jwt = await new SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setSubject("501")
        .setIssuer(JWT_ISSUER)
        .setAudience(JWT_AUDIENCE)
        .setExpirationTime("1h")
        .sign(store.signingKey);
      expect((await apiErrorOf(() => authenticate(store, `Bearer ${jwt}`))).status).to.equal(401);
    });

    it("a JWT of an unknown or deleted user answers 401", async () => {
      const ghost = await signUserJwt(store.signingKey, { userId: "999", deploymentId: "1001" });
      expect((await apiErrorOf(() => authenticate(store, `Bearer ${ghost}`))).status).to.equal(401);
      const fixtures = defaultFixtures();
      fixtures.users[1].deletedAt = "2025-01-01T00:00:00Z";
      const withDeleted = EmulatorStore.open({ fixtures });
      const jwt = await signUserJwt(withDeleted.signingKey, { userId: "502", deploymentId: "1001" });
      const error = await apiErrorOf(() => authenticate(withDeleted, `Bearer ${jwt}`));
      expect(error.status).to.equal(401);
      expect(error.message).to.match(/deleted/);
    });
  });

  describe("rules", () => {
    const admin: Caller = {
      scheme: "apiToken",
      userId: "501",
      deploymentId: "1001",
      tokenId: "tok-1001-admin",
    };
    const readonlyUser: Caller = { scheme: "jwt", userId: "503", deploymentId: "1001" };

    it("`listJoinableOrganizations` accepts only a user JWT", async () => {
      const error = await apiErrorOf(() => requireScheme(admin, "listJoinableOrganizations"));
      expect(error.status).to.equal(403);
      expect(error.message).to.match(
        /listJoinableOrganizations \(GET \/api\/auth\/users\/current\/deployments\/joinable\) requires a user JWT/,
      );
      expect(() => requireScheme(readonlyUser, "listJoinableOrganizations")).not.to.throw();
      expect(() => requireScheme(admin, "getScan")).not.to.throw();
    });

    it("a credential reaches only its own deployment", async () => {
      expect(() => requireDeployment(admin, "1001")).not.to.throw();
      const error = await apiErrorOf(() => requireDeployment(admin, "2002"));
      expect(error.status).to.equal(403);
      expect(error.message).to.equal(
        "this credential belongs to deployment 1001 and cannot access deployment 2002",
      );
      // Same answer for a deployment that does not exist: existence is not revealed.
      expect((await apiErrorOf(() => requireDeployment(admin, "999999"))).status).to.equal(403);
    });

    it("writes need ORG_ROLE_ADMIN; every role can read", async () => {
      expect(requireRole(store, admin, "1001", "admin")).to.equal("ORG_ROLE_ADMIN");
      expect(requireRole(store, readonlyUser, "1001", "read")).to.equal("ORG_ROLE_READONLY");
      for (const userId of ["502", "503", "504"]) {
        const caller: Caller = { scheme: "jwt", userId, deploymentId: "1001" };
        expect(() => requireRole(store, caller, "1001", "read")).not.to.throw();
        const error = await apiErrorOf(() => requireRole(store, caller, "1001", "admin"));
        expect(error.status).to.equal(403);
        expect(error.message).to.match(/needs ORG_ROLE_ADMIN/);
      }
    });

    it("role changes take effect at once, and a removed member is refused", async () => {
      store.setRole("501", "1001", "ORG_ROLE_MEMBER");
      expect((await apiErrorOf(() => requireRole(store, admin, "1001", "admin"))).status).to.equal(403);
      store.setRole("501", "1001", null);
      const error = await apiErrorOf(() => requireRole(store, admin, "1001", "read"));
      expect(error.message).to.equal("user 501 is not a member of deployment 1001");
    });
  });
});
