import { expect } from "chai";
import { scmAppProvider } from "../support/dynamicProviders";
import type { ScmApp } from "../../api/schemas/scm";
import { configureStack } from "../support/stackConfig";

/** An app as `getScmApp` returns it, from the emulator's default fixtures (deployment 1001). */
const APP: ScmApp = {
  id: "scmapp-1001-a",
  slug: "codesec-acme",
  appId: "310001",
  scmType: "SCM_TYPE_PROVIDERA",
  baseUrl: "https://scm.example.test",
  requestId: "apprq-1001-a",
  scmName: "acme",
  codeAccess: true,
  tenantId: "tenant-acme",
};
const ID = "1001/apprq-1001-a";
const INPUTS = { deploymentId: "1001", requestId: "apprq-1001-a" };

/** State as pulumi-codesec 0.2.0 wrote it: the app nested under `app` and `appliedApp`. */
function stateV020(app: ScmApp, appliedApp: ScmApp) {
  return { __provider: "stub", ...INPUTS, app, appliedApp };
}

describe("codesec.ScmApp: state written by 0.2.0 (nested `app`)", function () {
  // No call is expected: the credential check at preview is off, and nobody listens on the base URL.
  before(async () => {
    await configureStack({
      "codesec:baseUrl": "http://127.0.0.1:9",
      "codesec:token": "unused-token",
      "codesec:skipCredentialsValidation": "true",
    });
  });

  it("diff shows a one-time update (no drift) that update turns into the flat shape, with no call", async () => {
    const olds = stateV020(APP, APP);
    const diff = await scmAppProvider.diff(ID, olds as never, INPUTS);
    expect(diff.changes).to.equal(true);
    expect(diff.replaces).to.deep.equal([]);

    const updated = await scmAppProvider.update(ID, olds as never, INPUTS);
    expect(updated.outs).to.deep.equal({
      ...INPUTS,
      scmAppId: APP.id,
      slug: APP.slug,
      appId: APP.appId,
      scmType: APP.scmType,
      baseUrl: APP.baseUrl,
      scmName: APP.scmName,
      codeAccess: APP.codeAccess,
      tenantId: APP.tenantId,
      platform: "http://127.0.0.1:9",
      appliedApp: APP,
    });
    expect((await scmAppProvider.diff(ID, updated.outs!, INPUTS)).changes).to.equal(false);
  });

  it("a drift refreshed into 0.2.0 state is kept: the update records the reported app", async () => {
    const renamed = { ...APP, scmName: "renamed-in-the-ui" };
    const olds = stateV020(renamed, APP);
    expect((await scmAppProvider.diff(ID, olds as never, INPUTS)).changes).to.equal(true);
    const updated = await scmAppProvider.update(ID, olds as never, INPUTS);
    expect(updated.outs!.scmName).to.equal("renamed-in-the-ui");
    expect(updated.outs!.appliedApp).to.deep.equal(renamed);
    expect(updated.outs).not.to.have.property("app");
  });

  it("check never carries a refresh's reported fields into the new inputs (0.4.0 did)", async () => {
    const olds = { ...INPUTS, scmName: "acme", platformReported: { scmName: "renamed-in-the-ui" } };
    const checked = await scmAppProvider.check(olds, { ...INPUTS, code: "one-time-code" });
    expect(checked.failures).to.equal(undefined);
    expect(checked.inputs).to.deep.equal({ ...INPUTS, code: "one-time-code" });
  });
});
