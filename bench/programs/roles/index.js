"use strict";
/**
 * N organization roles in deployment 1001 for members 100000 ... 100000+N-1 (bench/support/fixtures.ts),
 * declared by one of three providers (stack config `bench:provider`):
 *
 * - `codesec`: `codesec.UserRole`, the package under test (credentials from codesec:baseUrl/token);
 * - `noop`: the engine floor, a dynamic provider that calls nothing (create returns an id);
 * - `http`: the HTTP floor, a dynamic provider that makes the calls codesec.UserRole should make
 *   (operation 1 on create, update and delete, operation 8 once per provider process on read) with a bare
 *   keep-alive `node:http` request and nothing else (credentials from BENCH_BASE_URL/BENCH_TOKEN).
 *
 * `bench:count` sets N; `bench:changed` = k gives the first k roles another role (an update of k).
 * Plain JavaScript, so that no TypeScript compile adds the same constant to every side.
 */
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config("bench");
const which = config.require("provider");
const count = config.requireNumber("count");
const changed = config.getNumber("changed") || 0;

/**
 * The floors' one provider object each (the engine caches a serialized provider by object). The no-op
 * floor has only what the phases need (no read: refresh keeps the state; no delete: destroy forgets), in
 * arrow functions, so that its stored text is as short as a provider's can be.
 */
const noopProvider = {
  diff: async (_id, olds, news) => ({ changes: olds.role !== news.role }),
  create: async (inputs) => ({ id: `${inputs.deploymentId}/${inputs.userId}`, outs: inputs }),
  update: async (_id, _olds, news) => ({ outs: news }),
};

/** One API request with a shared keep-alive agent; resolves to the body, rejects on a non-2xx status. */
function bareRequest(method, path, body) {
  const http = require("node:http");
  const shared = globalThis;
  shared.benchAgent = shared.benchAgent || new http.Agent({ keepAlive: true });
  const data = body === undefined ? undefined : JSON.stringify(body);
  const headers = { authorization: `Bearer ${process.env.BENCH_TOKEN}` };
  if (data !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = Buffer.byteLength(data);
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(path, process.env.BENCH_BASE_URL),
      { method, headers, agent: shared.benchAgent },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () => {
          if (response.statusCode >= 200 && response.statusCode < 300)
            resolve(Buffer.concat(chunks).toString());
          else reject(new Error(`${method} ${path}: HTTP ${response.statusCode}`));
        });
      },
    );
    request.on("error", reject);
    request.end(data);
  });
}

function setRole(deploymentId, userId, newRole) {
  return bareRequest("PATCH", `/api/agent/deployments/${deploymentId}/users/${userId}/roles`, {
    deploymentId,
    userId,
    newRole,
  });
}

const httpProvider = {
  async diff(_id, olds, news) {
    return { changes: olds.role !== news.role };
  },
  async create(inputs) {
    await setRole(inputs.deploymentId, inputs.userId, inputs.role);
    return { id: `${inputs.deploymentId}/${inputs.userId}`, outs: inputs };
  },
  async read(id, props) {
    const shared = globalThis;
    shared.benchCurrentUser = shared.benchCurrentUser || bareRequest("GET", "/api/auth/users/current");
    await shared.benchCurrentUser;
    return { id, props };
  },
  async update(_id, olds, news) {
    if (olds.role !== news.role) await setRole(news.deploymentId, news.userId, news.role);
    return { outs: news };
  },
  async delete(_id, props) {
    await setRole(props.deploymentId, props.userId, props.roleOnDestroy);
  },
};

function declare(name, args) {
  if (which === "codesec") return new (require("pulumi-codesec").UserRole)(name, args);
  if (which === "noop") return new pulumi.dynamic.Resource(noopProvider, name, args, {}, "bench", "NoopRole");
  if (which === "http") return new pulumi.dynamic.Resource(httpProvider, name, args, {}, "bench", "HttpRole");
  throw new Error(`bench:provider must be codesec, noop or http, got ${which}`);
}

for (let i = 0; i < count; i++) {
  declare(`role-${i}`, {
    deploymentId: "1001",
    userId: String(100000 + i),
    role: i < changed ? "ORG_ROLE_READONLY" : "ORG_ROLE_ADMIN",
    roleOnDestroy: "ORG_ROLE_MEMBER",
  });
}
