import { expect } from "chai";
import * as http from "node:http";
import * as zlib from "node:zlib";
import { FakeServer, SAMPLES } from "../support/fakeServer";

interface RawAnswer {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  complete: boolean;
}

/** A plain node:http GET that reports what arrived, complete or not. */
function rawGet(baseUrl: string, stopAfterBytes?: number): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${baseUrl}/x`, { agent: false }, (response) => {
      const chunks: Buffer[] = [];
      const done = (): void =>
        resolve({ headers: response.headers, body: Buffer.concat(chunks), complete: response.complete });
      response.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        if (stopAfterBytes !== undefined && Buffer.concat(chunks).length >= stopAfterBytes) {
          done();
          request.destroy();
        }
      });
      response.on("error", () => undefined);
      response.on("close", done);
    });
    request.on("error", reject);
  });
}

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
    expect(server.requests[0].method).to.equal("GET");
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

  it("frames a body with Content-Length, or chunked when asked", async () => {
    server = await FakeServer.start();
    server.sequence({ text: "hello" }, { text: "hello", chunked: true });
    const plain = await rawGet(server.baseUrl);
    expect(plain.headers["content-length"]).to.equal("5");
    const chunked = await rawGet(server.baseUrl);
    expect(chunked.headers["transfer-encoding"]).to.equal("chunked");
    expect(chunked.headers["content-length"]).to.equal(undefined);
    expect(chunked.body.toString()).to.equal("hello");
  });

  it("cuts a body off after N bytes and closes, declaring the whole length", async () => {
    server = await FakeServer.start();
    server.always({ text: "0123456789", cutOffAfter: 4 });
    const answer = await rawGet(server.baseUrl);
    expect(answer).to.deep.include({ complete: false });
    expect(answer.headers["content-length"]).to.equal("10");
    expect(answer.body.toString()).to.equal("0123");
  });

  it("stalls a body after N bytes, keeping the connection open", async () => {
    server = await FakeServer.start();
    server.always({ text: "0123456789", stallAfter: 3 });
    const answer = await rawGet(server.baseUrl, 3);
    expect(answer.body.toString()).to.equal("012");
    expect(answer.complete).to.equal(false);
  });

  it("compresses a body when asked, saying so in Content-Encoding", async () => {
    server = await FakeServer.start();
    server.always({ text: "hello", encoding: "gzip" });
    const answer = await rawGet(server.baseUrl);
    expect(answer.headers["content-encoding"]).to.equal("gzip");
    expect(zlib.gunzipSync(answer.body).toString()).to.equal("hello");
  });

  it("records the client's port, so that tests can tell reused connections from new ones", async () => {
    server = await FakeServer.start();
    await rawGet(server.baseUrl);
    await rawGet(server.baseUrl);
    const [first, second] = server.requests.map((request) => request.remotePort);
    expect(first).to.be.above(0);
    expect(second).not.to.equal(first);
  });
});
