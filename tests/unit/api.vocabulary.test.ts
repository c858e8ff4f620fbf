/**
 * The API definitions export only value sets the spec fixes (the organization role enumeration). Where the
 * spec gives one value or none (scan status, products, provision error codes, SCM types, webhook event
 * names), the schemas take any string, and the emulator's own fixture vocabulary stays in the emulator.
 */
import { expect } from "chai";
import * as api from "pulumi-codesec/api";
import * as vocabulary from "../../emulator/vocabulary";

const NOT_THE_SPECS = [
  "SCAN_STATUSES",
  "PRODUCTS",
  "PROVISION_ERROR_CODES",
  "SCM_TYPES",
  "SCM_WEBHOOK_EVENTS",
] as const;

describe("API vocabulary: only what the spec fixes", () => {
  it("pulumi-codesec/api exports no value set the spec leaves open", () => {
    for (const name of NOT_THE_SPECS) expect(api, name).not.to.have.property(name);
    expect(api.ORG_ROLES).to.deep.equal([
      "ORG_ROLE_ADMIN",
      "ORG_ROLE_MEMBER",
      "ORG_ROLE_IMPERSONATOR",
      "ORG_ROLE_READONLY",
    ]);
  });

  it("the response schemas keep values the real platform may send beyond the emulator's", () => {
    const scan = {
      id: "1",
      deploymentId: "2",
      projectId: "3",
      branchId: "4",
      commit: "abc",
      startTime: "2025-01-01T00:00:00Z",
      isFullScan: true,
      findingsCounts: { total: 0, code: 0, supplyChain: 0, secrets: 0 },
      status: "SCAN_STATUS_SOMETHING_NEW",
      enabledProducts: ["PRODUCT_NOT_YET_SEEN"],
    };
    expect(api.schemaIssues(api.Scan, scan)).to.deep.equal([]);
    const error = { code: "UPDATE_ERROR_CODE_SOMETHING_NEW", message: "m", ids: [] };
    expect(api.schemaIssues(api.ProvisionError, error)).to.deep.equal([]);
  });

  it("the emulator's fixture vocabulary is its own and includes the values the spec gives", () => {
    for (const name of NOT_THE_SPECS) expect(vocabulary, name).to.have.property(name);
    expect(vocabulary.SCAN_STATUSES).to.include("SCAN_STATUS_RUNNING");
    expect(vocabulary.PROVISION_ERROR_CODES).to.include("UPDATE_ERROR_CODE_BAD_REQUEST");
    expect(vocabulary.SCM_TYPES).to.include("SCM_TYPE_PROVIDERA");
    expect(vocabulary.PRODUCTS).to.have.members(["PRODUCT_SAST", "PRODUCT_SCA", "PRODUCT_SECRETS"]);
  });
});
