/** Fault specs (which are explicit enough to arm), their phases, and the field paths of `omitField`. */
import { expect } from "chai";
import { Type } from "@sinclair/typebox";
import { firstHalf } from "../../emulator/faultAnswers";
import { FaultInjector, faultKind, type FaultSpec } from "../../emulator/faults";
import { removeField, schemaAllowsField } from "../../emulator/fieldPath";
import { ListNotificationRulesResponse, ProvisionResult, ScanResponse } from "../../api/schemas";

const SCAN = "/api/v2/deployments/1001/scans/3001";

describe("emulator fault specs", () => {
  it("arms each answer kind alone, with or without latency, in the phase it needs", () => {
    const faults = new FaultInjector();
    const valid: FaultSpec[] = [
      { status: 503 },
      { drop: true },
      { malformed: true },
      { latencyMs: 5 },
      { phase: "after", status: 503, latencyMs: 5 },
      { phase: "after", drop: true },
      { phase: "after", malformed: true },
      { phase: "after", latencyMs: 5 },
      { phase: "after", truncate: true },
      { phase: "after", stall: true },
      { phase: "after", omitField: "scan.status" },
      { phase: "before", drop: true, truncate: false, stall: false },
    ];
    for (const spec of valid) expect(() => faults.add(spec), JSON.stringify(spec)).not.to.throw();
    expect(faults.list()).to.have.length(valid.length);
  });

  it("refuses answers that need the real body outside phase after", () => {
    const faults = new FaultInjector();
    for (const spec of [
      { truncate: true },
      { stall: true, phase: "before" },
      { omitField: "scan.status" },
    ] as FaultSpec[]) {
      expect(() => faults.add(spec), JSON.stringify(spec)).to.throw(/needs "phase": "after"/);
    }
  });

  it("refuses a fault that does nothing, or gives two answers", () => {
    const faults = new FaultInjector();
    expect(() => faults.add({ phase: "after" })).to.throw(/at least one of latencyMs/);
    expect(() => faults.add({ phase: "after", truncate: true, omitField: "x" })).to.throw(
      /at most one of .*truncate and omitField/,
    );
    expect(() => faults.add({ phase: "after", stall: true, drop: true })).to.throw(/at most one of/);
    expect(faults.list()).to.deep.equal([]);
  });

  it("checks omitField against the answers of the operations the fault can match", () => {
    const faults = new FaultInjector();
    faults.registerResponseSchema("getScan", ScanResponse);
    faults.registerResponseSchema("provisionWorkflows", ProvisionResult);
    expect(() =>
      faults.add({ operation: "getScan", phase: "after", omitField: "scan.status" }),
    ).not.to.throw();
    expect(() => faults.add({ operation: "getScan", phase: "after", omitField: "app.slug" })).to.throw(
      /not a field of the answer of getScan/,
    );
    expect(() => faults.add({ path: SCAN, phase: "after", omitField: "repoFileUrls" })).to.throw(
      /not a field of the answer of getScan/,
    );
    // A fault matching several operations is accepted when any of their answers can hold the field.
    expect(() => faults.add({ phase: "after", omitField: "repoFileUrls.7001" })).not.to.throw();
    expect(() => faults.add({ phase: "after", omitField: "nowhere" })).to.throw(/not a field/);
  });

  it("names its kind as the request log does", () => {
    expect(faultKind({ status: 500 })).to.equal("status");
    expect(faultKind({ latencyMs: 10 })).to.equal("latency");
    expect(faultKind({ latencyMs: 10, drop: true })).to.equal("drop");
    expect(faultKind({ phase: "after", truncate: true })).to.equal("truncate");
    expect(faultKind({ phase: "after", stall: true })).to.equal("stall");
    expect(faultKind({ phase: "after", omitField: "a" })).to.equal("omitField");
    expect(faultKind({ malformed: true })).to.equal("malformed");
  });

  it("takes faults by phase, each counted down on its own", () => {
    const faults = new FaultInjector();
    faults.add({ operation: "getScan", phase: "after", drop: true });
    faults.add({ operation: "getScan", status: 503 });
    expect(faults.take("getScan", "GET", SCAN, "before")?.status).to.equal(503);
    expect(faults.take("getScan", "GET", SCAN, "before")).to.equal(undefined);
    expect(faults.take("getScan", "GET", SCAN, "after")?.drop).to.equal(true);
    expect(faults.list()).to.deep.equal([]);
  });
});

describe("emulator fault bodies", () => {
  it("the first half always leaves at least one byte out", () => {
    for (const text of ["{}", '{"a":1}', "x", "[]", '{"deploymentId":"1001"}']) {
      const body = Buffer.from(text);
      const half = firstHalf(body);
      expect(half.length, text).to.be.lessThan(body.length);
      expect(body.subarray(0, half.length).equals(half)).to.equal(true);
    }
    expect(firstHalf(Buffer.from("{}")).toString()).to.equal("{");
  });
});

describe("emulator field paths", () => {
  it("removes a nested field, through array indexes, and reports a missing one", () => {
    const body = { scan: { id: "1", status: "DONE" }, rules: [{ id: 1, channel: "slack" }] };
    expect(removeField(body, ["scan", "status"])).to.equal(true);
    expect(removeField(body, ["rules", "0", "channel"])).to.equal(true);
    expect(body).to.deep.equal({ scan: { id: "1" }, rules: [{ id: 1 }] });
    expect(removeField(body, ["scan", "status"])).to.equal(false);
    expect(removeField(body, ["rules", "7", "id"])).to.equal(false);
    expect(removeField(body, ["rules", "0"])).to.equal(false); // an element is not a field
    expect(removeField(body, ["scan", "id", "deeper"])).to.equal(false);
  });

  it("knows which fields a response schema lets an answer hold", () => {
    expect(schemaAllowsField(ScanResponse, ["scan", "status"])).to.equal(true);
    expect(schemaAllowsField(ScanResponse, ["scan", "findingsCounts", "total"])).to.equal(true);
    expect(schemaAllowsField(ScanResponse, ["scan", "nope"])).to.equal(false);
    expect(schemaAllowsField(ProvisionResult, ["repoFileUrls", "7001"])).to.equal(true);
    expect(schemaAllowsField(ProvisionResult, ["errors", "0", "code"])).to.equal(true);
    expect(schemaAllowsField(ProvisionResult, ["errors", "code"])).to.equal(false);
    expect(schemaAllowsField(ListNotificationRulesResponse, ["notification_rules", "0", "channel"])).to.equal(
      true,
    );
    expect(schemaAllowsField(Type.Object({ a: Type.Unknown() }), ["a", "anything"])).to.equal(true);
    expect(
      schemaAllowsField(Type.Object({ a: Type.Union([Type.Null(), Type.Object({ b: Type.String() })]) }), [
        "a",
        "b",
      ]),
    ).to.equal(true);
  });
});
