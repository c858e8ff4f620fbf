import { expect } from "chai";
import { FakeServer, SAMPLES } from "../support/fakeServer";

describe("client test fake server", () => {
  let server: FakeServer;
  afterEach(async () => server.close());

  it("records requests and answers in sequence, repeating the last response", async () => {
    server = await FakeServer.start();
    server.sequence(
      { status: 200, json: { branch: SAMPLES.branch } },
      { status: 200, json: { branch: { id: 4, name: "x" } } },
    );
    const client = server.client();
    const args = { deploymentId: "42", projectId: "7", branchId: "3" };
    expect((await client.getBranch(args)).id).to.equal(3);
    expect((await client.getBranch(args)).id).to.equal(4);
    expect((await client.getBranch(args)).id).to.equal(4);
    expect(server.requests).to.have.length(3);
    expect(server.requests[0]!.method).to.equal("GET");
  });

  it("closes promptly even while a delayed answer is pending", async () => {
    server = await FakeServer.start();
    server.always({ delayMs: 10_000, json: {} });
    const pending = server
      .client({ timeoutMs: 50, retries: 0 })
      .getCurrentUser()
      .catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await server.close();
    expect(await pending).to.be.instanceOf(Error);
  });
});
