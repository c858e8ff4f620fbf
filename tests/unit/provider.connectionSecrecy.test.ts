/**
 * A connection given by name is not a secret; an object `{ baseUrl, token }` is (it holds a token). So a
 * name stays readable in the state and in a diff (`connection: "org2"`, not `[secret]`), for the dynamic
 * resources (the props and secret outputs a resource class declares) and the native plugin (which values
 * of `connection` leave it as secrets) alike; an object, or a value not known when the resource is
 * declared, is kept secret.
 */
import { expect } from "chai";
import * as pulumi from "@pulumi/pulumi";
import { declaredProps, resourceOptions } from "../../provider/dynamic/resourceProps";
import { isSecretValue, type ResourceDefinition } from "../../provider/resources/definition";
import { RESOURCE_DEFINITIONS, RESOURCE_KIND_NAMES } from "../../provider/resources/registry";

const object = { baseUrl: "https://codesec.example.com", token: "cst_1001_admin_secret" };

describe("a connection's secrecy: a name is readable, an object with a token is secret", () => {
  for (const kind of RESOURCE_KIND_NAMES) {
    const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];

    it(`${kind} (dynamic): a name is neither wrapped as a secret nor declared a secret output`, () => {
      const args = { deploymentId: "1001", connection: "org2" };
      expect(declaredProps(definition, args).connection).to.equal("org2");
      const secretOutputs = resourceOptions(definition, undefined, args).additionalSecretOutputs;
      expect(secretOutputs).not.to.include("connection");
      // Fields that are always secret stay declared (an ScmApp's code).
      for (const [name, field] of Object.entries(definition.inputs)) {
        if (field.secret === true) expect(secretOutputs, name).to.include(name);
      }
    });

    it(`${kind} (dynamic): an object, or a connection not known yet, is secret in and out`, async () => {
      for (const connection of [object, pulumi.output("org2")]) {
        const args = { deploymentId: "1001", connection };
        expect(pulumi.Output.isInstance(declaredProps(definition, args).connection)).to.equal(true);
        expect(resourceOptions(definition, undefined, args).additionalSecretOutputs).to.include("connection");
      }
      expect(
        await pulumi.isSecret(declaredProps(definition, { connection: object }).connection as never),
      ).to.equal(true);
    });

    it(`${kind} (native): a name leaves the plugin readable, an object as a secret`, () => {
      expect(isSecretValue(definition, "connection", "org2")).to.equal(false);
      expect(isSecretValue(definition, "connection", object)).to.equal(true);
    });
  }
});
