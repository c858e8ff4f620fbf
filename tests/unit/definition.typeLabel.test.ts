/**
 * A kind's implementation names the kind in its messages by the definition's `name`, which the generic
 * steps pass in: no implementation spells its type token itself.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { RESOURCE_DEFINITIONS, RESOURCE_KIND_NAMES } from "../../provider/resources/registry";
import { kindFolder } from "../../provider/resources/kindFolder";
import type { ResourceDefinition } from "../../provider/resources/definition";
import { readResource } from "../../provider/resources/lifecycle";
import type { ProviderContext } from "../../provider/providerContext";

const ctx: ProviderContext = {
  config: (key) => ({ "codesec:baseUrl": "http://127.0.0.1:9", "codesec:token": "unused-token" })[key],
  log: () => undefined,
};

describe("a kind's type in its implementation's messages", () => {
  for (const kind of RESOURCE_KIND_NAMES) {
    it(`${kind}: the implementation spells no type token`, () => {
      const file = path.join(__dirname, "../../provider/resources", kindFolder(kind), "implementation.ts");
      expect(fs.readFileSync(file, "utf8")).not.to.match(/["'`]codesec:[A-Z]/);
    });
  }

  it("a lookup by a malformed id names the kind by its definition's name", async () => {
    const renamed: ResourceDefinition = { ...RESOURCE_DEFINITIONS.UserRole, name: "RenamedRole" };
    let message = "";
    await readResource(renamed, "not-an-id", undefined, ctx).catch((e: Error) => (message = e.message));
    expect(message).to.match(/^codesec:RenamedRole: id "not-an-id" is not of the form/);
  });
});
