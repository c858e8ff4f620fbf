/**
 * The token-rotation advice a refresh or destroy adds to a 401 (provider/resources/staleCredentials.ts).
 * The UserRoles of one stack share one failed lookup of the token's owner, so one error object reaches
 * the advice once per resource: it must still read the advice once (a bad token in a drift check printed
 * it three times per error).
 */
import { expect } from "chai";
import { CodeSecApiError } from "../../client/errors";
import {
  ROTATION_ADVICE,
  rotationAdvice,
  splitRotationAdvice,
  withRotationAdvice,
} from "../../provider/resources/staleCredentials";
import { CONFIG_ORIGIN_LABEL_PATTERN, providerInputsOrigin, STACK_CONFIG } from "../../provider/connection";

const details = {
  operation: "getCurrentUser",
  attempts: 1,
  retried: false,
  deadlineReached: false,
} as const;

/** A connection whose token came from stack config (`codesec:token`, or a named connection there). */
const fromStackConfig = { origin: STACK_CONFIG, fromOrigin: true };

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

describe("token-rotation advice on a 401", () => {
  it("is added once, however many steps the same error passes through", async () => {
    const shared = new CodeSecApiError("HTTP 401 UNAUTHENTICATED", { ...details, status: 401 });
    for (let i = 0; i < 3; i++) {
      expect(await rejectionOf(withRotationAdvice(() => Promise.reject(shared), fromStackConfig))).to.equal(
        shared,
      );
    }
    expect(shared.message).to.equal(`HTTP 401 UNAUTHENTICATED ${ROTATION_ADVICE}`);
  });

  it("is added once to an error whose message grew after it was advised", async () => {
    const shared = new CodeSecApiError("HTTP 401 UNAUTHENTICATED", { ...details, status: 401 });
    await rejectionOf(withRotationAdvice(() => Promise.reject(shared), fromStackConfig));
    shared.message = `${shared.message} (while reading UserRole "max")`;
    await rejectionOf(withRotationAdvice(() => Promise.reject(shared), fromStackConfig));
    expect(shared.message).to.equal(
      `HTTP 401 UNAUTHENTICATED ${ROTATION_ADVICE} (while reading UserRole "max")`,
    );
  });

  it("names where the token is set: stack config for the default provider, an explicit Provider's inputs for it", async () => {
    const byDefault = new CodeSecApiError("HTTP 401 UNAUTHENTICATED", { ...details, status: 401 });
    await rejectionOf(withRotationAdvice(() => Promise.reject(byDefault), fromStackConfig));
    expect(byDefault.message).to.equal(`HTTP 401 UNAUTHENTICATED ${ROTATION_ADVICE}`);
    expect(ROTATION_ADVICE).to.match(/^If the token was rotated in stack config: `pulumi refresh` and /);

    const explicit = new CodeSecApiError("HTTP 401 UNAUTHENTICATED", { ...details, status: 401 });
    await rejectionOf(
      withRotationAdvice(() => Promise.reject(explicit), {
        origin: providerInputsOrigin("org2"),
        fromOrigin: true,
      }),
    );
    expect(explicit.message).to.equal(
      "HTTP 401 UNAUTHENTICATED " +
        ROTATION_ADVICE.replace(
          "If the token was rotated in stack config:",
          'If the token was rotated in provider "org2" (codesec.Provider resource inputs):',
        ),
    );
    expect(explicit.message).not.to.include("stack config");
  });

  it("is not added where the token did not come from the origin's settings (the environment, a connection object)", async () => {
    // `pulumi up` records neither: the environment is always current, an object reaches the state only with
    // the resource's next update.
    for (const origin of [STACK_CONFIG, providerInputsOrigin("org2")]) {
      const error = new CodeSecApiError("HTTP 401 UNAUTHENTICATED", { ...details, status: 401 });
      await rejectionOf(withRotationAdvice(() => Promise.reject(error), { origin, fromOrigin: false }));
      expect(error.message, origin.label).to.equal("HTTP 401 UNAUTHENTICATED");
      // The same error through a step whose token did come from the origin: advised then, once.
      await rejectionOf(withRotationAdvice(() => Promise.reject(error), { origin, fromOrigin: true }));
      expect(error.message, origin.label).to.equal(`HTTP 401 UNAUTHENTICATED ${rotationAdvice(origin)}`);
    }
  });

  it("is not added to other failures", async () => {
    const forbidden = new CodeSecApiError("HTTP 403", { ...details, status: 403 });
    expect(
      (await rejectionOf(withRotationAdvice(() => Promise.reject(forbidden), fromStackConfig))).message,
    ).to.equal("HTTP 403");
  });

  describe("read back from a message (codesec-drift gives each advice once)", () => {
    // Provider names a program may give: a colon, quotes, a backslash, the advice's own words, a line
    // separator (quoted escaped).
    const providers = ["org2", "org:3", 'a"b', "back\\slash", "If the token was rotated in x: y", "l\u2028s"];
    const origins = [STACK_CONFIG, ...providers.map(providerInputsOrigin)];

    it("the label pattern matches every label an origin has, whole", () => {
      const whole = new RegExp(`^${CONFIG_ORIGIN_LABEL_PATTERN}$`);
      for (const origin of origins) expect(origin.label, origin.label).to.match(whole);
      for (const other of [
        "Vault",
        "stack config codesec:token",
        'provider "org2"',
        "provider org2 (codesec.Provider resource inputs)",
      ])
        expect(other).not.to.match(whole);
    });

    it("finds each origin's advice and leaves the rest of the message as it was", () => {
      for (const origin of origins) {
        const advice = rotationAdvice(origin);
        expect(splitRotationAdvice(`HTTP 401 UNAUTHENTICATED ${advice}`), origin.label).to.deep.equal({
          text: "HTTP 401 UNAUTHENTICATED",
          advice: [advice],
        });
        expect(splitRotationAdvice(`HTTP 401 ${advice} (while reading UserRole "max")`)).to.deep.equal({
          text: 'HTTP 401 (while reading UserRole "max")',
          advice: [advice],
        });
      }
    });

    it("takes no look-alike from the platform's own message as advice, and is the same on every call", () => {
      const platform =
        "HTTP 401 UNAUTHENTICATED: If the token was rotated in Vault, sync it. If the token was rotated in " +
        "stack config, wait a minute.";
      for (let i = 0; i < 2; i++) {
        expect(splitRotationAdvice(`${platform} ${ROTATION_ADVICE}`)).to.deep.equal({
          text: platform,
          advice: [ROTATION_ADVICE],
        });
        expect(splitRotationAdvice(platform)).to.deep.equal({ text: platform, advice: [] });
      }
    });
  });
});
