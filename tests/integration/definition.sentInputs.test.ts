/**
 * The inputs a kind's definition says it sends (`sentInputNames`: derived from its operations' arguments
 * schemas, by each input's name or the request name it is sent as) are exactly the inputs its create and
 * destroy put in a request: every input is set to a value of its own, the requests are captured on their
 * way to the emulator, and an input is sent when its text values, or its request name (a JSON key) with
 * its value, are in them. An update that changes one sent input (whose change updates) sends its new value;
 * a kind whose update makes no call (ScmApp) has no such input: its sent inputs reach the platform at
 * creation only.
 */
import { expect } from "chai";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import type * as pulumi from "@pulumi/pulumi";
import { forgetDeclaredRoles } from "../../provider/resources/declaredRoles";
import { dynamicProviderOf } from "../../provider/dynamic/kindProviders";
import type { TSchema } from "@sinclair/typebox";
import {
  sentInputNames,
  type InputField,
  type ResourceDefinition,
} from "../../provider/resources/definition";
import {
  RESOURCE_DEFINITIONS,
  RESOURCE_KIND_NAMES,
  type ResourceKind,
} from "../../provider/resources/registry";
import type { EmulatorHandle } from "../../emulator/index";
import { useEmulator } from "../support/emulator";
import { configureStack } from "../support/stackConfig";

/**
 * The inputs whose values must be real (ids the emulator knows, roles that differ between a create and a
 * destroy), in as many runs as it takes for each to be used: a per-user role on destroy hides the role on
 * destroy for that user. Every other input (but `connection`, which chooses where requests go) gets a value
 * derived from its schema in the first run ({@link derivedValue}), so an input added to a definition is
 * checked here with no change to this file.
 */
const RUNS: Record<ResourceKind, (h: EmulatorHandle) => Record<string, unknown>[]> = {
  UserRole: (h) => [
    {
      deploymentId: h.deploymentId,
      userId: h.sample.memberUserId,
      role: "ORG_ROLE_ADMIN",
      roleOnDestroy: "ORG_ROLE_READONLY",
    },
  ],
  UserRoles: (h) => [
    {
      deploymentId: h.deploymentId,
      roles: { [h.sample.memberUserId]: "ORG_ROLE_ADMIN" },
      rolesOnDestroy: { [h.sample.memberUserId]: "ORG_ROLE_READONLY" },
      roleOnDestroy: "ORG_ROLE_MEMBER",
    },
    {
      deploymentId: h.deploymentId,
      roles: { [h.sample.memberUserId]: "ORG_ROLE_ADMIN" },
      roleOnDestroy: "ORG_ROLE_MEMBER",
    },
  ],
  WorkflowProvisioning: (h) => [{ deploymentId: h.deploymentId }],
  ScmWebhookSubscription: (h) => [{ deploymentId: h.deploymentId, configId: h.sample.scmConfigId }],
  ScmApp: (h) => [
    { deploymentId: h.deploymentId, requestId: h.sample.scmAppRequestId, code: h.sample.scmAppCode },
  ],
};

/**
 * The kinds whose update makes no call: every input they send is sent at creation only, so none of them
 * may be one whose change updates in place.
 */
const UPDATE_MAKES_NO_CALL: ReadonlySet<ResourceKind> = new Set(["ScmApp"]);

/**
 * A new value for a sent input an update changes, where the value must be real (a role); every other
 * input gets a new value derived from its schema.
 */
const CHANGED: Partial<Record<ResourceKind, (h: EmulatorHandle) => Record<string, unknown>>> = {
  UserRole: () => ({ role: "ORG_ROLE_MEMBER" }),
  UserRoles: (h) => ({ roles: { [h.sample.memberUserId]: "ORG_ROLE_MEMBER" } }),
};

let derivedCount = 0;

/**
 * A valid value of `schema` of its own, for the input `name`: a text no other value holds (digits where the
 * schema's pattern asks for them), the boolean its default is not, a number other than its default, one item,
 * one entry, an object with its
 * required properties (or its first one, when none is required). A schema it cannot satisfy fails the test,
 * naming the input to list in RUNS instead.
 */
function derivedValue(schema: TSchema, name: string): unknown {
  derivedCount += 1;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.anyOf)) return derivedValue(schema.anyOf[0] as TSchema, name);
  switch (schema.type) {
    case "boolean":
      return schema.default !== true;
    case "integer":
    case "number": {
      const least = typeof schema.minimum === "number" ? schema.minimum : derivedCount;
      return least === schema.default ? least + 1 : least;
    }
    case "array":
      return [derivedValue(schema.items as TSchema, `${name}[0]`)];
    case "object": {
      const entries = schema.patternProperties as Record<string, TSchema> | undefined;
      if (entries !== undefined) {
        const [value] = Object.values(entries);
        return { [`${name}-key-${derivedCount}`]: derivedValue(value, `${name}.key`) };
      }
      const properties = (schema.properties ?? {}) as Record<string, TSchema>;
      const required = (schema.required ?? []) as string[];
      const names = required.length > 0 ? required : Object.keys(properties).slice(0, 1);
      return Object.fromEntries(names.map((key) => [key, derivedValue(properties[key], `${name}.${key}`)]));
    }
    case "string":
    case undefined: {
      if (schema.format === "date-time") return new Date(Date.UTC(2020, 0, derivedCount)).toISOString();
      const candidates = [`${name}-derived-${derivedCount}`, `${90_000_000 + derivedCount}`];
      const pattern = typeof schema.pattern === "string" ? new RegExp(schema.pattern) : undefined;
      const value = candidates.find((text) => pattern === undefined || pattern.test(text));
      if (value !== undefined && schema.format === undefined) return value;
    }
  }
  throw new Error(`no value can be derived for ${name}: give it a real one in RUNS`);
}

/** The runs of `kind`: RUNS's, the first with a derived value for every input no run names. */
function runsOf(kind: ResourceKind, h: EmulatorHandle): Record<string, unknown>[] {
  const runs = RUNS[kind](h);
  const named = new Set(runs.flatMap((inputs) => Object.keys(inputs)));
  const inputs: Record<string, InputField> = RESOURCE_DEFINITIONS[kind].inputs;
  for (const [name, field] of Object.entries(inputs)) {
    if (name !== "connection" && !named.has(name)) runs[0][name] = derivedValue(field.schema, name);
  }
  return runs;
}

/**
 * What a request carrying `value` as `name` holds: each text value and object key (a map's key may be sent
 * in a path), and each number or boolean as its JSON key with that value (`"allowPartialFailure":true`), so
 * that a request with the key but another value does not count.
 */
function marksOf(value: unknown, name: string): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "number" || typeof value === "boolean") return [`"${name}":${JSON.stringify(value)}`];
  if (Array.isArray(value)) return value.flatMap((item) => marksOf(item, name));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([key, inner]) => [key, ...marksOf(inner, key)]);
  return [];
}

/**
 * Whether the requests carry an input with its value under its request name `name` (its key alone is not
 * enough).
 */
function isIn(requests: string, name: string, value: unknown): boolean {
  const marks = marksOf(value, name);
  return marks.length > 0 && marks.every((mark) => requests.includes(mark));
}

describe("the inputs a definition says are sent are those its requests carry", () => {
  const emulator = useEmulator();
  const captured: string[] = [];
  let proxy: http.Server;
  let proxyUrl: string;

  before(async () => {
    const target = new URL(emulator().baseUrl);
    // Between the provider and the emulator: records each request's method, target and body.
    proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        captured.push(`${req.method} ${decodeURIComponent(req.url ?? "")} ${body.toString("utf8")}`);
        const forward = http.request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        forward.on("error", () => res.destroy());
        forward.end(body);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });

  after(async () => {
    proxy.closeAllConnections();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
  });

  for (const kind of RESOURCE_KIND_NAMES) {
    it(`${kind}: create and destroy send exactly its sent inputs`, async () => {
      const h = emulator();
      await configureStack({ "codesec:baseUrl": proxyUrl, "codesec:token": h.apiToken });
      const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
      const provider = dynamicProviderOf(kind) as Required<pulumi.dynamic.ResourceProvider>;
      const runs = runsOf(kind, h);
      const declared = Object.keys(definition.inputs).filter((name) => name !== "connection");
      const set = new Set(runs.flatMap((inputs) => Object.keys(inputs)));
      expect([...set].sort(), "every input is set in some run").to.deep.equal([...declared].sort());

      const sent = new Set<string>();
      for (const inputs of runs) {
        h.control.reset();
        forgetDeclaredRoles(); // each run is a program's `pulumi up`
        const checked = await provider.check({}, inputs);
        expect(checked.failures ?? []).to.deep.equal([]);
        captured.length = 0;
        const created = await provider.create(checked.inputs);
        forgetDeclaredRoles(); // then a `pulumi destroy`, which runs no program
        await provider.delete(created.id, created.outs);
        const requests = captured.join("\n");
        for (const [name, value] of Object.entries(inputs)) {
          if (isIn(requests, definition.inputs[name].sentAs ?? name, value)) sent.add(name);
        }
      }
      expect([...sent].sort()).to.deep.equal(sentInputNames(definition).sort());
    });

    it(`${kind}: an update that changes one sent input sends its new value`, async () => {
      const h = emulator();
      await configureStack({ "codesec:baseUrl": proxyUrl, "codesec:token": h.apiToken });
      const definition: ResourceDefinition = RESOURCE_DEFINITIONS[kind];
      const provider = dynamicProviderOf(kind) as Required<pulumi.dynamic.ResourceProvider>;
      const updated = sentInputNames(definition).filter(
        (name) => definition.inputs[name].onChange === "update",
      );
      h.control.reset();
      forgetDeclaredRoles();
      const [inputs] = runsOf(kind, h);
      const checked = await provider.check({}, inputs);
      expect(checked.failures ?? []).to.deep.equal([]);
      const created = await provider.create(checked.inputs);
      if (UPDATE_MAKES_NO_CALL.has(kind)) {
        expect(
          updated,
          "a sent input of a kind whose update makes no call changes by replacement",
        ).to.deep.equal([]);
        captured.length = 0;
        await provider.update(created.id, created.outs, checked.inputs);
        expect(captured, "the update's requests").to.deep.equal([]);
        return;
      }
      let olds = created.outs as Record<string, unknown>;
      let news = checked.inputs as Record<string, unknown>;
      for (const name of updated) {
        const value = CHANGED[kind]?.(h)[name] ?? derivedValue(definition.inputs[name].schema, name);
        forgetDeclaredRoles();
        const next = await provider.check(news, { ...news, [name]: value });
        expect(next.failures ?? [], name).to.deep.equal([]);
        const diff = await provider.diff(created.id, olds, next.inputs);
        expect(diff.changes, `${name}: a change`).to.equal(true);
        captured.length = 0;
        const outcome = await provider.update(created.id, olds, next.inputs);
        const requests = captured.join("\n");
        expect(
          isIn(requests, definition.inputs[name].sentAs ?? name, value),
          `${name} sent by the update`,
        ).to.equal(true);
        olds = (outcome.outs as Record<string, unknown> | undefined) ?? olds;
        news = next.inputs as Record<string, unknown>;
      }
    });
  }
});
