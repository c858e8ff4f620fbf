/** A schema marked secret stays secret through the copies the shapes make of it (Optional, described). */
import { expect } from "chai";
import { Type } from "@sinclair/typebox";
import { described, firstSchemaIssue, issueMessage } from "../../api/schemaIssues";
import { OneTimeCode } from "../../api/schemas/scm";

describe("secret schemas", () => {
  const code = " otc-leaked-value ";
  const wrappings = {
    "as declared": OneTimeCode,
    "made optional": Type.Optional(OneTimeCode),
    described: described(OneTimeCode, "The one-time code."),
    "made optional, then described": described(Type.Optional(OneTimeCode), "The one-time code."),
  };

  for (const [how, schema] of Object.entries(wrappings)) {
    it(`a bad value is never quoted when the schema is ${how}`, () => {
      const issue = firstSchemaIssue(Type.Object({ code: schema }), { code });
      expect(issue, "the padded code must be refused").to.not.equal(undefined);
      const message = issueMessage(issue!, { name: "completeScmAppRequest", noun: "argument" });
      expect(message).to.include("code");
      expect(message).to.not.include("otc-leaked-value");
    });
  }
});
