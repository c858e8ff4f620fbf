/**
 * One rule set at preview and apply: every case of the bad-input catalogue goes through both sides of
 * its pair (see badInputCatalogue.ts), which must reject it before any network call, naming the same
 * field; every accepted case must be accepted by both. Writes the "bad-input" report section.
 */
import { expect } from "chai";
import * as pulumi from "@pulumi/pulumi";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as codesec from "../../provider";
import { clientFor, clientSettingsFrom } from "../../provider/clients";
import { resolveConnection } from "../../provider/connection";
import { CodeSecConnectionError } from "../../provider/errors";
import { run } from "../../provider/dynamic";
import {
  RESOURCE_DEFINITIONS,
  RESOURCE_KIND_NAMES,
  type ResourceKind,
} from "../../provider/resources/registry";
import { sentInputNames, type ResourceDefinition } from "../../provider/resources/definition";
import { dynamicProviderOf } from "../../provider/dynamic/kindProviders";
import { CodeSecClient, CodeSecInputError } from "../../client";
import { markdownTable, writeReportSection } from "../support/reliabilityReport";
import { ACCEPTED, REJECTED, type CatalogueCase } from "./badInputCatalogue";

/** What one side did with a case: refused it naming a field, or let it through. */
type Verdict =
  { kind: "rejected"; field: string } | { kind: "accepted" } | { kind: "notApplicable"; why: string };

const PROVIDERS = Object.fromEntries(
  RESOURCE_KIND_NAMES.map((kind) => [kind, dynamicProviderOf(kind)]),
) as Record<ResourceKind, pulumi.dynamic.ResourceProvider>;

/**
 * Inputs a resource sends to the platform, from its definition (a field outside these is checked by
 * `check` alone), with the `connection` apply resolves, and the request body the client measures.
 */
const SENT_INPUTS = Object.fromEntries(
  RESOURCE_KIND_NAMES.map((kind) => {
    const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
    const body = definition.implementation.requestBodies === undefined ? [] : ["body"];
    return [kind, [...sentInputNames(definition), "connection", ...body]];
  }),
) as Partial<Record<ResourceKind, readonly string[]>> as Record<ResourceKind, readonly string[]>;

/** A sent input whose change is only recorded is what destroy sends (a role on destroy). */
function sentByDestroy(kind: ResourceKind, input: string | undefined): input is string {
  if (input === undefined) return false;
  const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
  return sentInputNames(definition).includes(input) && definition.inputs[input].onChange === "record";
}

/**
 * Why apply has no verdict on a resource input it never sends: a name the kind does not declare, or an
 * input only stored (a change to it is only recorded). Any other declared input applies the resource
 * again when it changes, so it is sent: one coming out unsent is a wrong list of sent inputs.
 */
function neverSent(kind: ResourceKind, input: string): string | undefined {
  const field = (RESOURCE_DEFINITIONS[kind] as ResourceDefinition).inputs[input];
  if (field === undefined) return "not an input of the kind; check runs again at up";
  if (field.onChange === "record") return "stored only, never sent; check runs again at up";
  return undefined;
}

function fieldOf(error: unknown): string | undefined {
  if (error instanceof CodeSecInputError || error instanceof CodeSecConnectionError) return error.field;
  return undefined;
}

/** Runs `work`; a CodeSecInputError or CodeSecConnectionError is a rejection, anything else acceptance. */
async function verdictOf(
  work: () => Promise<unknown>,
  rename: Record<string, string> = {},
): Promise<Verdict> {
  try {
    await work();
  } catch (error) {
    const field = fieldOf(error);
    if (field !== undefined) {
      const [root, ...rest] = field.split(/(?=[.[])/);
      return { kind: "rejected", field: [rename[root] ?? root, ...rest].join("") };
    }
  }
  return { kind: "accepted" };
}

function describe_(verdict: Verdict): string {
  if (verdict.kind === "rejected") return `rejected: ${verdict.field}`;
  return verdict.kind === "accepted" ? "accepted" : `n/a (${verdict.why})`;
}

describe("bad-input catalogue: the same verdict at preview and at apply", function () {
  const requests: string[] = [];
  let server: http.Server;
  let baseUrl: string;
  const rows: unknown[][] = [];
  // The section is written only when both checks passed: a report never shows a failing run.
  let passed = 0;
  const stack: Record<string, string> = {};

  before(async () => {
    server = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    Object.assign(stack, {
      "codesec:baseUrl": baseUrl,
      "codesec:token": "catalogue-token",
      "codesec:skipCredentialsValidation": "true",
      "codesec:connections": JSON.stringify({ org2: { baseUrl, token: "org2-token" } }),
    });
    await run("UserRole", {
      config: { get: (key: string) => stack[key], require: (key: string) => stack[key] },
    });
    pulumi.runtime.setAllConfig(stack);
  });

  after(async () => {
    pulumi.runtime.setAllConfig({});
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const lookup = (key: string) => stack[key];
  const client = () => clientFor(resolveConnection(undefined, lookup), clientSettingsFrom(lookup));

  /** Both sides of a case: [preview, apply]. */
  async function sidesOf(c: CatalogueCase): Promise<[Verdict, Verdict]> {
    if (c.surface === "resource") {
      const provider = PROVIDERS[c.target];
      const preview = await verdictOf(async () => {
        const result = await provider.check!({}, c.inputs);
        const failures = result.failures ?? [];
        if (failures.length > 0)
          throw new CodeSecInputError(
            failures.map((f) => (f as unknown as { path: string }).path).join(" "),
            "",
          );
      });
      const root = c.field?.split(/[.[]/)[0];
      if (root !== undefined && !SENT_INPUTS[c.target].includes(root)) {
        const why = neverSent(c.target, root) ?? `${root} is declared and applies again, yet never sent`;
        return [preview, { kind: "notApplicable", why }];
      }
      // Apply is the provider's own code: create sends the inputs; destroy sends a role on destroy.
      const apply = sentByDestroy(c.target, root)
        ? await verdictOf(() => provider.delete!("1001/502", c.inputs), { newRole: root })
        : await verdictOf(() => provider.create(c.inputs), { newRole: "role" });
      return [preview, apply];
    }
    if (c.surface === "function") {
      const fn = (codesec as unknown as Record<string, (a: unknown, o?: object) => Promise<unknown>>)[
        c.target
      ];
      const preview = await verdictOf(() => fn(c.args, c.options));
      if (c.field?.startsWith("connection")) {
        const connection = (c.options as { connection?: unknown }).connection;
        return [
          preview,
          await verdictOf(() => Promise.resolve(clientFor(resolveConnection(connection, lookup)))),
        ];
      }
      if (c.target === "getCurrentUser" && c.field !== undefined) {
        return [preview, { kind: "notApplicable", why: "the client method takes no arguments" }];
      }
      const args = c.args as Record<string, unknown> | null | undefined;
      const apply = await verdictOf(
        async () => {
          switch (c.target) {
            case "getCurrentUser":
              return client().getCurrentUser();
            case "getJoinableOrganizations":
              return client().listJoinableOrganizations(args as never);
            case "getNotificationRules": {
              if (args === null || typeof args !== "object")
                return client().listAllNotificationRules(args as never);
              const { limit, ...rest } = args;
              return client().listAllNotificationRules({
                ...rest,
                ...(limit === undefined ? {} : { pageSize: limit }),
              } as never);
            }
            default:
              return (client() as unknown as Record<string, (a: unknown) => Promise<unknown>>)[c.target](
                args,
              );
          }
        },
        { pageSize: "limit" },
      );
      return [preview, apply];
    }
    const verdict = await verdictOf(async () => {
      if (c.target === "new CodeSecClient")
        return new CodeSecClient({ baseUrl, token: "t", ...(c.args as object) });
      return (client() as unknown as Record<string, (a: unknown) => Promise<unknown>>)[c.target](c.args);
    });
    return [verdict, verdict];
  }

  it(`rejects each of the ${REJECTED.length} bad inputs before any request, naming the field on both sides`, async () => {
    const problems: string[] = [];
    for (const [index, c] of REJECTED.entries()) {
      requests.length = 0;
      const [preview, apply] = await sidesOf(c);
      const sent = requests.length;
      const label = `${c.surface} ${c.target}: ${c.name}`;
      if (preview.kind !== "rejected" || preview.field !== c.field) {
        problems.push(`${label}: preview ${describe_(preview)}, expected rejected: ${c.field}`);
      }
      const root = c.field?.split(/[.[]/)[0];
      if (
        c.surface === "resource" &&
        apply.kind === "notApplicable" &&
        neverSent(c.target, root!) === undefined
      ) {
        problems.push(`${label}: apply ${describe_(apply)}, expected rejected: ${c.field}`);
      }
      if (apply.kind === "accepted" || (apply.kind === "rejected" && apply.field !== c.field)) {
        problems.push(`${label}: apply ${describe_(apply)}, expected rejected: ${c.field}`);
      }
      if (sent !== 0) problems.push(`${label}: ${sent} request(s) sent`);
      rows.push([
        index + 1,
        c.surface,
        c.target,
        c.name,
        c.field,
        describe_(preview),
        describe_(apply),
        sent,
      ]);
    }
    expect(problems).to.deep.equal([]);
    passed++;
  });

  it(`accepts each of the ${ACCEPTED.length} edge inputs on both sides`, async () => {
    const problems: string[] = [];
    for (const c of ACCEPTED) {
      const [preview, apply] = await sidesOf(c);
      if (preview.kind !== "accepted" || apply.kind !== "accepted") {
        problems.push(
          `${c.surface} ${c.target}: ${c.name}: preview ${describe_(preview)}, apply ${describe_(apply)}`,
        );
      }
      rows.push(["", c.surface, c.target, c.name, "(valid)", describe_(preview), describe_(apply), "-"]);
    }
    expect(problems).to.deep.equal([]);
    passed++;
  });

  after(() => {
    if (passed !== 2) return;
    const rejected = REJECTED.length;
    const surfaces = (s: string) => REJECTED.filter((c) => c.surface === s).length;
    writeReportSection({
      id: "bad-input",
      title: "Bad-input catalogue",
      markdown: [
        `${rejected} bad inputs (${surfaces("resource")} resource inputs, ${surfaces("function")} function ` +
          `arguments, ${surfaces("client")} client arguments and options) and ${ACCEPTED.length} valid edge ` +
          "inputs, from `tests/reliability/badInputCatalogue.ts`. Preview is the provider's `check` for a " +
          "resource input, the function for a function argument; apply is the client calls the provider " +
          "or function then makes. Every bad input was refused on both sides before any request, naming " +
          "the same field; every valid one was accepted on both.",
        "",
        markdownTable(["#", "surface", "target", "case", "field", "preview", "apply", "requests"], rows),
      ].join("\n"),
    });
  });
});
