"use strict";
/**
 * The HTTP floor: a dynamic provider making the calls codesec.UserRole must make, the cheapest way that makes
 * them: one `PATCH .../users/{userId}/roles` (set a user's role) on create, on an update that changes the
 * role and on delete; on refresh one `GET /api/auth/users/current` (read the current user) per provider
 * process; a bare keep-alive `node:http` request and nothing else (no validation, no timeout, no rate limit,
 * and no retry but the one Node's documentation prescribes for keep-alive: a request on a reused socket that
 * the server had closed meanwhile is sent again on a new one; without it the floor failed 2 of 1,000 requests
 * with "socket hang up"). Credentials from BENCH_BASE_URL / BENCH_TOKEN. Stored by Pulumi as
 * `require("codesec-bench-floors/http")`, as short as pulumi-codesec's own stub (see ./noop.js).
 */
const http = require("node:http");

const agent = new http.Agent({ keepAlive: true });
let currentUser;

/** One request; resolves to the body, rejects on a non-2xx status. */
function request(method, path, body, retried = false) {
  const data = body === undefined ? undefined : JSON.stringify(body);
  const headers = { authorization: `Bearer ${process.env.BENCH_TOKEN}` };
  if (data !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = Buffer.byteLength(data);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, process.env.BENCH_BASE_URL), { method, headers, agent }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        if (res.statusCode >= 200 && res.statusCode < 300) resolve(Buffer.concat(chunks).toString());
        else reject(new Error(`${method} ${path}: HTTP ${res.statusCode}`));
      });
    });
    req.on("error", (error) => {
      // The server closed an idle keep-alive socket as this request went out on it: nothing reached it.
      if (req.reusedSocket && error.code === "ECONNRESET" && !retried) {
        request(method, path, body, true).then(resolve, reject);
      } else {
        reject(error);
      }
    });
    req.end(data);
  });
}

function setRole(deploymentId, userId, newRole) {
  return request("PATCH", `/api/agent/deployments/${deploymentId}/users/${userId}/roles`, {
    deploymentId,
    userId,
    newRole,
  });
}

module.exports = {
  async diff(_id, olds, news) {
    return { changes: olds.role !== news.role };
  },
  async create(inputs) {
    await setRole(inputs.deploymentId, inputs.userId, inputs.role);
    return { id: `${inputs.deploymentId}/${inputs.userId}`, outs: inputs };
  },
  async read(id, props) {
    currentUser = currentUser || request("GET", "/api/auth/users/current");
    await currentUser;
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
