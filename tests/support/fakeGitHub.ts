/**
 * The part of GitHub's REST API that `codesec-review --post-comment` uses, on 127.0.0.1: list a pull
 * request's comments (paged, with `Link` headers), create one, update one; with the token check and the
 * error answers GitHub gives (401, 403, 404, 422). Failures, or any raw answer, can be forced per operation.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface StoredComment {
  id: number;
  body: string;
  user: { login: string };
}

export type Operation = "list" | "create" | "update";

export class FakeGitHub {
  readonly comments: StoredComment[] = [];
  readonly requests: { method: string; url: string; authorization?: string }[] = [];
  /** Status (and message) to answer for an operation instead of doing it. */
  readonly failures = new Map<Operation, { status: number; message: string }>();
  /** A raw answer (any status, body and headers) for an operation instead of doing it. */
  readonly answers = new Map<Operation, { status: number; body: string; headers?: Record<string, string> }>();
  pageSize = 100;
  #nextId = 1;

  private constructor(
    private readonly server: http.Server,
    readonly token: string,
    readonly repository: string,
    readonly pullRequest: number,
  ) {}

  static async start(token: string, repository = "acme/infra", pullRequest = 42): Promise<FakeGitHub> {
    const holder: { fake?: FakeGitHub } = {};
    const server = http.createServer((request, response) => void holder.fake!.handle(request, response));
    const fake = (holder.fake = new FakeGitHub(server, token, repository, pullRequest));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A comment written by someone, as if posted earlier. */
  add(login: string, body: string): StoredComment {
    const comment = { id: this.#nextId++, body, user: { login } };
    this.comments.push(comment);
    return comment;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    let body = "";
    for await (const chunk of request) body += String(chunk);
    this.requests.push({
      method: request.method ?? "",
      url: request.url ?? "",
      authorization: request.headers.authorization,
    });
    const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(JSON.stringify(json));
    };
    if (request.headers.authorization !== `Bearer ${this.token}`)
      return send(401, { message: "Bad credentials" });
    const url = new URL(request.url ?? "/", this.apiUrl);
    const list = new RegExp(`^/repos/${this.repository}/issues/${this.pullRequest}/comments$`);
    const one = new RegExp(`^/repos/${this.repository}/issues/comments/(\\d+)$`);
    const operation: Operation | undefined =
      list.test(url.pathname) && request.method === "GET"
        ? "list"
        : list.test(url.pathname) && request.method === "POST"
          ? "create"
          : one.test(url.pathname) && request.method === "PATCH"
            ? "update"
            : undefined;
    if (operation === undefined) return send(404, { message: "Not Found" });
    const answer = this.answers.get(operation);
    if (answer) {
      response.writeHead(answer.status, answer.headers ?? {});
      return void response.end(answer.body);
    }
    const failure = this.failures.get(operation);
    if (failure) return send(failure.status, { message: failure.message });
    const html = (id: number) =>
      `https://github.example/${this.repository}/pull/${this.pullRequest}#issuecomment-${id}`;
    const shown = (c: StoredComment) => ({ ...c, html_url: html(c.id) });
    if (operation === "list") {
      const page = Number(url.searchParams.get("page") ?? "1");
      const size = Math.min(Number(url.searchParams.get("per_page") ?? "30"), this.pageSize);
      const items = this.comments.slice((page - 1) * size, page * size).map(shown);
      const more = page * size < this.comments.length;
      const next = new URL(url);
      next.searchParams.set("page", String(page + 1));
      return send(200, items, more ? { link: `<${next.href}>; rel="next"` } : {});
    }
    const text = (JSON.parse(body || "{}") as { body?: unknown }).body;
    if (typeof text !== "string" || text.length > 65_536) {
      return send(422, { message: "Validation Failed", errors: [{ field: "body", code: "custom" }] });
    }
    if (operation === "create") return send(201, shown(this.add("github-actions[bot]", text)));
    const comment = this.comments.find((c) => c.id === Number(one.exec(url.pathname)![1]));
    if (!comment) return send(404, { message: "Not Found" });
    comment.body = text;
    return send(200, shown(comment));
  }
}
