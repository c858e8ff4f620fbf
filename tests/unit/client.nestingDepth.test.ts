/**
 * Values nested 10,000 levels deep. In every field (and an unknown one) of every client method that takes
 * an argument object: a CodeSecInputError naming the path where the nesting bound was passed, and no
 * request sent. In an answer of each of the ten operations (an extra field the schema does not look
 * into, which the caller's JSON.stringify or Pulumi's serialization would overflow on): a
 * CodeSecResponseError naming the path.
 */
import { expect } from "chai";
import type { TObject } from "@sinclair/typebox";
import {
  CodeSecInputError,
  CodeSecResponseError,
  MAX_NESTING_DEPTH,
  OPERATIONS,
  type CodeSecClient,
  type OperationKey,
} from "../../client";
import {
  CompleteScmAppRequestArgs,
  GetBranchArgs,
  GetScanArgs,
  GetScmAppArgs,
  ListAllNotificationRulesArgs,
  ListJoinableOrganizationsArgs,
  ListNotificationRulesArgs,
  ProvisionWorkflowsArgs,
  SubscribeScmWebhookArgs,
  UpdateUserRoleArgs,
} from "../../api/schemas";
import { nestedArrays, nestedObjects } from "../support/deepValues";
import { FakeServer, rejection } from "../support/fakeServer";
import { OPERATION_ANSWERS, OPERATION_CALLS, OPERATION_KEYS } from "../support/operationCalls";

interface Method {
  operation: OperationKey;
  schema: TObject;
  valid: Record<string, unknown>;
  call: (client: CodeSecClient, args: Record<string, unknown>) => Promise<unknown>;
}

const METHODS: Record<string, Method> = {
  updateUserRole: {
    operation: "updateUserRole",
    schema: UpdateUserRoleArgs,
    valid: { deploymentId: "42", userId: "u-2", newRole: "ORG_ROLE_ADMIN" },
    call: (client, args) => client.updateUserRole(args as never),
  },
  provisionWorkflows: {
    operation: "provisionWorkflows",
    schema: ProvisionWorkflowsArgs,
    valid: { deploymentId: "42" },
    call: (client, args) => client.provisionWorkflows(args as never),
  },
  completeScmAppRequest: {
    operation: "completeScmAppRequest",
    schema: CompleteScmAppRequestArgs,
    valid: { requestId: "req-1", code: "otc-1001-b-Kx4Vm1Rc" },
    call: (client, args) => client.completeScmAppRequest(args as never),
  },
  getScmApp: {
    operation: "getScmApp",
    schema: GetScmAppArgs,
    valid: { deploymentId: "42", requestId: "req-1" },
    call: (client, args) => client.getScmApp(args as never),
  },
  subscribeScmWebhook: {
    operation: "subscribeScmWebhook",
    schema: SubscribeScmWebhookArgs,
    valid: { deploymentId: "42", configId: "cfg-1" },
    call: (client, args) => client.subscribeScmWebhook(args as never),
  },
  getScan: {
    operation: "getScan",
    schema: GetScanArgs,
    valid: { deploymentId: "42", scanId: "1001" },
    call: (client, args) => client.getScan(args as never),
  },
  getBranch: {
    operation: "getBranch",
    schema: GetBranchArgs,
    valid: { deploymentId: "42", projectId: "7", branchId: "3" },
    call: (client, args) => client.getBranch(args as never),
  },
  listJoinableOrganizations: {
    operation: "listJoinableOrganizations",
    schema: ListJoinableOrganizationsArgs,
    valid: {},
    call: (client, args) => client.listJoinableOrganizations(args),
  },
  listNotificationRules: {
    operation: "listNotificationRules",
    schema: ListNotificationRulesArgs,
    valid: { deploymentId: "42" },
    call: (client, args) => client.listNotificationRules(args as never),
  },
  listAllNotificationRules: {
    operation: "listNotificationRules",
    schema: ListAllNotificationRulesArgs,
    valid: { deploymentId: "42" },
    call: (client, args) => client.listAllNotificationRules(args as never),
  },
};

const DEEP: [string, () => unknown, string][] = [
  ["arrays", () => nestedArrays(10_000), "[0]"],
  ["objects", () => nestedObjects(10_000, "k"), ".k"],
];

describe("CodeSecClient: arguments nested 10,000 levels deep", () => {
  let server: FakeServer;
  before(async () => {
    server = await FakeServer.start();
  });
  after(async () => server.close());

  it("every client method with an argument object is covered", () => {
    const operations = new Set(Object.values(METHODS).map((method) => method.operation));
    expect([...operations].sort()).to.deep.equal(
      Object.keys(OPERATIONS)
        .filter((key) => key !== "getCurrentUser")
        .sort(),
    );
  });

  for (const [name, method] of Object.entries(METHODS)) {
    it(`${name}: a CodeSecInputError naming the path, before any request`, async () => {
      const client = server.client();
      const fields = [...Object.keys(method.schema.properties), "extra"];
      for (const field of fields) {
        for (const [shape, make, step] of DEEP) {
          const error = await rejection(
            method.call(client, { ...method.valid, [field]: make() }),
            CodeSecInputError,
          );
          // The argument object is level 1, the field's value level 2: level 65 lies 63 steps below it.
          const path = `${field}${step.repeat(MAX_NESTING_DEPTH - 1)}`;
          const what = `${name} ${field} (${shape})`;
          expect(error.field, what).to.equal(path);
          expect(error.message, what).to.equal(
            `${path} must be within 64 levels of nested objects and arrays, got ${shape === "arrays" ? "an array" : "an object"} at level 65`,
          );
          expect(error).to.include({ operation: method.operation });
        }
      }
      expect(server.requests).to.have.length(0);
    });
  }
});

describe("CodeSecClient: answers nested 10,000 levels deep", () => {
  let server: FakeServer;
  before(async () => {
    server = await FakeServer.start();
  });
  after(async () => server.close());

  for (const operation of OPERATION_KEYS) {
    it(`${operation}: a CodeSecResponseError naming the path`, async () => {
      // Written out, not JSON.stringify'd: that overflows on such a value.
      const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
      const rest = JSON.stringify(OPERATION_ANSWERS[operation]).slice(1, -1);
      server.always({ status: 200, text: `{"extra":${deep}${rest === "" ? "" : ","}${rest}}` });
      const error = await rejection(OPERATION_CALLS[operation](server.client()), CodeSecResponseError);
      const path = `extra${"[0]".repeat(MAX_NESTING_DEPTH - 1)}`;
      expect(error).to.include({ operation, fieldPath: path, status: 200 });
      expect(error.message).to.include(
        `${path} must be within 64 levels of nested objects and arrays, but got an array at level 65`,
      );
    });
  }
});
