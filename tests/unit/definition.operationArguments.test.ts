/**
 * A kind's calls take their arguments from its inputs through its definition: each argument its
 * operation's schema names comes from the input of that name or the one sent as it (`sentAs`), an input
 * whose change is only recorded goes with destroy alone, and what the kind works out itself (one entry of
 * a map) takes the place of any input. So an input added to a definition and to the operation's schema is
 * sent with no change to the kind's implementation.
 */
import { expect } from "chai";
import { Type } from "../../api/typeBuilder";
import { UpdateUserRoleArgs } from "../../api/schemas/users";
import { CompleteScmAppRequestArgs, GetScmAppArgs } from "../../api/schemas/scm";
import { ProvisionWorkflowsArgs } from "../../api/schemas/provisioning";
import { operationArguments } from "../../provider/resources/operationArguments";
import {
  sentInputNames,
  type InputField,
  type ResourceDefinition,
} from "../../provider/resources/definition";
import { RESOURCE_DEFINITIONS, RESOURCE_KIND_NAMES } from "../../provider/resources/registry";

const userRole = RESOURCE_DEFINITIONS.UserRole;
const userRoles = RESOURCE_DEFINITIONS.UserRoles;
const scmApp = RESOURCE_DEFINITIONS.ScmApp;
const provisioning = RESOURCE_DEFINITIONS.WorkflowProvisioning;

const USER_ROLE = {
  deploymentId: "1001",
  userId: "502",
  role: "ORG_ROLE_ADMIN",
  roleOnDestroy: "ORG_ROLE_READONLY",
  triggers: 3,
  connection: "ci",
};

/** A field map and a schema with one more optional input, `note`, sent as `comment`. */
function withNote(fields: Record<string, InputField>, onChange: InputField["onChange"]) {
  const note: InputField = { schema: Type.Optional(Type.String()), description: "A note.", onChange };
  return {
    fields: { ...fields, note: { ...note, sentAs: "comment" } },
    schema: Type.Object({ ...UpdateUserRoleArgs.properties, comment: Type.Optional(Type.String()) }),
  };
}

describe("operationArguments: a call's arguments follow from the definition", () => {
  it("UserRole: create and update send the role as newRole, and nothing the schema does not name", () => {
    expect(operationArguments(UpdateUserRoleArgs, USER_ROLE, userRole.inputs)).to.deep.equal({
      deploymentId: "1001",
      userId: "502",
      newRole: "ORG_ROLE_ADMIN",
    });
  });

  it("UserRole: destroy sends roleOnDestroy as newRole in the role's place", () => {
    const sent = operationArguments(UpdateUserRoleArgs, USER_ROLE, userRole.inputs, { step: "destroy" });
    expect(sent).to.deep.equal({ deploymentId: "1001", userId: "502", newRole: "ORG_ROLE_READONLY" });
  });

  it("UserRoles: one entry's user and role take the place of the maps; the deployment comes from the inputs", () => {
    const inputs = {
      deploymentId: "1001",
      roles: { "502": "ORG_ROLE_ADMIN" },
      roleOnDestroy: "ORG_ROLE_MEMBER",
      rolesOnDestroy: { "502": "ORG_ROLE_READONLY" },
    };
    for (const step of ["apply", "destroy"] as const) {
      const given = { userId: "502", newRole: "ORG_ROLE_READONLY" as const };
      expect(operationArguments(UpdateUserRoleArgs, inputs, userRoles.inputs, { step, given })).to.deep.equal(
        {
          deploymentId: "1001",
          userId: "502",
          newRole: "ORG_ROLE_READONLY",
        },
      );
    }
  });

  it("ScmApp: completing sends the request and its code, reading sends the deployment and the request", () => {
    const inputs = { deploymentId: "1001", requestId: "apprq-1", code: "one-time", connection: "ci" };
    expect(operationArguments(CompleteScmAppRequestArgs, inputs, scmApp.inputs)).to.deep.equal({
      requestId: "apprq-1",
      code: "one-time",
    });
    expect(operationArguments(GetScmAppArgs, inputs, scmApp.inputs)).to.deep.equal({
      deploymentId: "1001",
      requestId: "apprq-1",
    });
  });

  it("an input added to the definition and the schema is sent by apply, under its request name", () => {
    const { fields, schema } = withNote(userRole.inputs, "update");
    const inputs = { ...USER_ROLE, note: "promoted for the audit" };
    expect(operationArguments(schema, inputs, fields)).to.deep.equal({
      deploymentId: "1001",
      userId: "502",
      newRole: "ORG_ROLE_ADMIN",
      comment: "promoted for the audit",
    });
    expect(operationArguments(schema, { ...USER_ROLE }, fields), "left out: not sent").to.not.have.property(
      "comment",
    );
  });

  it("an added input whose change is only recorded, sharing its request name with none, is sent by every call", () => {
    const { fields, schema } = withNote(userRoles.inputs, "record");
    const inputs = { deploymentId: "1001", roles: { "502": "ORG_ROLE_ADMIN" }, note: "left the team" };
    const given = { userId: "502", newRole: "ORG_ROLE_MEMBER" as const };
    for (const step of ["apply", "destroy"] as const) {
      expect(operationArguments(schema, inputs, fields, { step, given }), step).to.include({
        comment: "left the team",
      });
    }
  });

  it("a kind with no call at destroy sends an input whose change is only recorded", () => {
    const fields = {
      ...provisioning.inputs,
      ghaOptions: { ...provisioning.inputs.ghaOptions, onChange: "record" as const },
    };
    const ghaOptions = { prEnabled: true };
    const sent = operationArguments(ProvisionWorkflowsArgs, { deploymentId: "1001", ghaOptions }, fields);
    expect(sent).to.deep.include({ ghaOptions });
  });

  it("UserRole: destroy with no role on destroy sends no role: the applied role is never sent in its place", () => {
    const { roleOnDestroy: _none, ...inputs } = USER_ROLE;
    const sent = operationArguments(UpdateUserRoleArgs, inputs, userRole.inputs, { step: "destroy" });
    expect(sent).to.deep.equal({ deploymentId: "1001", userId: "502" });
  });

  it("UserRole: apply with no role sends no role on destroy in its place", () => {
    const { role: _none, ...inputs } = USER_ROLE;
    expect(operationArguments(UpdateUserRoleArgs, inputs, userRole.inputs)).to.deep.equal({
      deploymentId: "1001",
      userId: "502",
    });
  });

  it("UserRoles: a map is never sent as its entries' argument", () => {
    const inputs = {
      deploymentId: "1001",
      roles: { "502": "ORG_ROLE_ADMIN" },
      rolesOnDestroy: { "502": "ORG_ROLE_MEMBER" },
    };
    for (const step of ["apply", "destroy"] as const) {
      const sent = operationArguments(UpdateUserRoleArgs, inputs, userRoles.inputs, { step });
      expect(sent, step).to.deep.equal({ deploymentId: "1001" });
    }
  });

  it("every request name a definition declares is an argument of one of the kind's operations", () => {
    for (const kind of RESOURCE_KIND_NAMES) {
      const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
      const names = definition.implementation.sentArguments.flatMap((schema) =>
        Object.keys(schema.properties),
      );
      for (const [input, field] of Object.entries(definition.inputs)) {
        if (field.sentAs !== undefined) expect(names, `${kind}.${input}`).to.include(field.sentAs);
      }
    }
    expect(sentInputNames(userRole)).to.include.members(["role", "roleOnDestroy"]);
  });
});
