/**
 * A tiny local HTTP fake for the client's unit tests (the real emulator is covered by
 * tests/integration/client.emulator.test.ts), plus canned bodies and leak checks.
 * tests/unit/client.fakeServer.test.ts checks the fake itself.
 */
import { expect } from "chai";
import * as http from "http";
import type { AddressInfo } from "net";
import * as util from "util";
import * as zlib from "zlib";
import { CodeSecClient, type CodeSecClientOptions } from "../../client";

/** The token every unit test uses; it must never show up in an error or an inspected client. */
export const TOKEN = "tok_live_S3CRET_9f8e7d6c5b4a";

export interface RecordedRequest {
  method: string;
  /** Raw request target as sent (path and query, still percent-encoded). */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Parsed JSON body, when there is one. */
  json?: unknown;
  /** The client's port: equal ports for two requests mean one reused (keep-alive) connection. */
  remotePort: number;
}

export interface FakeResponse {
  status?: number;
  /** Serialized as the JSON body. */
  json?: unknown;
  /** Raw body (wins over json). */
  text?: string;
  headers?: Record<string, string>;
  /** Wait this long before sending headers. */
  delayMs?: number;
  /** Send headers at once, then wait this long before the body. */
  bodyDelayMs?: number;
  /** Destroy the connection without answering, after the whole request arrived (a lost answer). */
  destroy?: boolean;
  /** Send the headers (declaring the whole body) and only this many bytes of the body, then close. */
  cutOffAfter?: number;
  /** Send the headers and only this many bytes of the body, then nothing more (a stalled body). */
  stallAfter?: number;
  /** Chunked transfer encoding instead of a Content-Length. */
  chunked?: boolean;
  /** Compress the body and say so in Content-Encoding. */
  encoding?: "gzip" | "deflate" | "br";
}

export type Handler = (request: RecordedRequest, index: number) => FakeResponse | Promise<FakeResponse>;

export class FakeServer {
  readonly requests: RecordedRequest[] = [];
  #handler: Handler = () => ({ status: 200, json: {} });
  readonly #timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: http.Server,
    readonly baseUrl: string,
  ) {}

  static async start(handler?: Handler, options: { keepAliveTimeoutMs?: number } = {}): Promise<FakeServer> {
    // The request listener needs the instance, which needs the listening server's port.
    const holder: { fake?: FakeServer } = {};
    const server = http.createServer((req, res) => {
      void holder.fake?.handle(req, res);
    });
    if (options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = options.keepAliveTimeoutMs;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new FakeServer(server, `http://127.0.0.1:${port}`);
    holder.fake = fake;
    if (handler) fake.respond(handler);
    return fake;
  }

  /** Answers every request with the handler's response. */
  respond(handler: Handler): this {
    this.#handler = handler;
    return this;
  }

  /** Answers the n-th request with the n-th response; the last one repeats. */
  sequence(...responses: FakeResponse[]): this {
    return this.respond((_req, index) => responses[Math.min(index, responses.length - 1)]);
  }

  /** Always the same response. */
  always(response: FakeResponse): this {
    return this.respond(() => response);
  }

  client(options: Partial<CodeSecClientOptions> = {}): CodeSecClient {
    return new CodeSecClient({
      baseUrl: this.baseUrl,
      token: TOKEN,
      maxRetryDelayMs: 5,
      timeoutMs: 3000,
      ...options,
    });
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const parsed = new URL(req.url ?? "/", "http://fake");
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      url: req.url ?? "",
      path: parsed.pathname,
      query: parsed.searchParams,
      headers: req.headers,
      body,
      remotePort: req.socket.remotePort ?? 0,
    };
    if (body !== "") {
      try {
        recorded.json = JSON.parse(body);
      } catch {
        // left undefined: the test inspects `body`
      }
    }
    const index = this.requests.length;
    this.requests.push(recorded);
    const response = await this.#handler(recorded, index);
    await this.wait(response.delayMs);
    if (response.destroy === true) {
      req.socket.destroy();
      return;
    }
    if (res.destroyed) return;
    const raw = Buffer.from(
      response.text ?? (response.json === undefined ? "" : JSON.stringify(response.json)),
      "utf8",
    );
    const payload = encode(raw, response.encoding);
    const headers: Record<string, string> = {
      ...(response.json !== undefined && response.text === undefined
        ? { "content-type": "application/json" }
        : {}),
      ...(response.encoding === undefined ? {} : { "content-encoding": response.encoding }),
      ...(response.chunked === true ? {} : { "content-length": String(payload.length) }),
      ...response.headers,
    };
    res.writeHead(response.status ?? 200, headers);
    const partial = response.cutOffAfter ?? response.stallAfter;
    if (partial !== undefined) {
      res.write(payload.subarray(0, partial));
      // Let the partial body reach the client before the connection goes (or stays silent).
      if (response.cutOffAfter !== undefined) await this.wait(20).then(() => req.socket.destroy());
      return;
    }
    if (response.bodyDelayMs !== undefined) {
      res.flushHeaders();
      await this.wait(response.bodyDelayMs);
      if (res.destroyed) return;
    }
    res.end(payload);
  }

  private wait(ms: number | undefined): Promise<void> {
    if (ms === undefined || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        resolve();
      }, ms);
      this.#timers.add(timer);
    });
  }
}

function encode(body: Buffer, encoding: FakeResponse["encoding"]): Buffer {
  switch (encoding) {
    case undefined:
      return body;
    case "gzip":
      return zlib.gzipSync(body);
    case "deflate":
      return zlib.deflateSync(body);
    case "br":
      return zlib.brotliCompressSync(body);
  }
}

/** A base URL where nothing listens (a port that was just freed). */
export async function refusedBaseUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Awaits a rejection and returns the error, checking its class. */
export async function rejection<E extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  try {
    await promise;
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(type);
    return error as E;
  }
  throw new Error(`expected a rejection with ${type.name}`);
}

/** Asserts that `secret` appears in none of the ways an error or object can be shown or logged. */
export function assertNoSecret(value: unknown, secret: string = TOKEN): void {
  const views: Record<string, string> = {
    inspect: util.inspect(value, { showHidden: true, depth: Infinity, getters: true }),
    json: JSON.stringify(value) ?? "",
    string: String(value),
  };
  if (value instanceof Error) {
    views.message = value.message;
    views.stack = value.stack ?? "";
  }
  for (const [view, text] of Object.entries(views)) {
    expect(text, `${view} leaks the secret`).not.to.include(secret);
  }
}

/** Canned valid bodies for each operation, with extra fields the client must keep. */
export const SAMPLES = {
  scan: {
    id: "1001",
    deploymentId: "42",
    projectId: "7",
    branchId: "3",
    commit: "4f9c2b1e8a7d6c5b4a39281706f5e4d3c2b1a098",
    startTime: "2026-01-02T03:04:05Z",
    completeTime: "2026-01-02T03:09:05Z",
    exitCode: 0,
    isFullScan: true,
    duration: 300.5,
    findingsCounts: { total: 12, code: 5, supplyChain: 4, secrets: 3 },
    status: "SCAN_STATUS_RUNNING",
    enabledProducts: ["PRODUCT_SAST", "PRODUCT_SCA", "PRODUCT_SECRETS"],
  },
  branch: { id: 3, name: "refs/heads/main" },
  app: {
    id: "app-1",
    slug: "codesec-app",
    appId: "12345",
    scmType: "SCM_TYPE_PROVIDERA",
    baseUrl: "https://scm.example.com",
    requestId: "req-1",
    scmName: "Provider A",
    codeAccess: true,
    tenantId: "tenant-1",
  },
  subscription: {
    deploymentId: "42",
    configId: "cfg-1",
    subscription: { scmUrl: "https://scm.example.com/hooks/1", events: ["pull_request", "push"] },
  },
  user: {
    id: "u-1",
    name: "Ada Admin",
    email: "ada@example.com",
    login: "ada",
    authDetails: [
      {
        providerId: "p-1",
        providerType: "AUTH_PROVIDER_TYPE_SSO",
        sourceId: "s-1",
        current: true,
        expiresAt: "2027-01-01T00:00:00Z",
        authProviderId: "ap-1",
      },
    ],
    orgRole: "ORG_ROLE_ADMIN",
  },
  orgs: {
    userId: "u-1",
    orgs: [
      {
        id: "43",
        name: "other-org",
        displayName: "Other Org",
        slug: "other-org",
        sourceType: "SOURCE_TYPE_PROVIDERA",
        organizationId: "org-43",
        features: {
          featureFlags: [{ name: "new-ui", expiresAt: "2027-01-01T00:00:00Z" }],
          hasAutofix: true,
          hasDeepengine: false,
          hasTriageViaComment: true,
          hasDependencyQuery: false,
          defaultUserRole: "ORG_ROLE_MEMBER",
          editorServiceVersion: "1.2.3",
          noserviceDisabled: false,
        },
      },
    ],
  },
  rule(id: number) {
    return {
      id,
      channel: "slack",
      config: { channel: "#alerts" },
      is_enabled: true,
      name: `rule ${id}`,
      policy_slugs: ["default"],
      use_network_broker: false,
      config_error: "",
      send_scan_completion: true,
    };
  },
  provision: {
    repoFileUrls: { "101": "https://scm.example.com/org/repo/blob/main/.github/workflows/codesec.yml" },
    errors: [{ code: "UPDATE_ERROR_CODE_BAD_REQUEST", message: "no code access", ids: ["102"] }],
  },
};
