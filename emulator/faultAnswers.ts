/**
 * The broken answers injected faults send, written on the raw response (Fastify's reply is hijacked, so
 * nothing serializes, validates or completes them): a destroyed connection, a body that is not JSON, a
 * body cut short, a body that stops, a body without one field.
 */
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import { destroyByEmulator } from "./connections";
import { fieldPathSegments, removeField } from "./fieldPath";

/** The broken body a `malformed` fault answers. */
export const MALFORMED_BODY = '{"error": "this body is deliberately cut off", "partial": [1, 2';

const JSON_TYPE = "application/json; charset=utf-8";

/** Destroys the request's connection: the client sees it close (or reset) without a complete answer. */
export function destroyConnection(request: FastifyRequest): void {
  destroyByEmulator(request.raw.socket);
}

/** The first half of a body's bytes, rounded down, so at least one byte is always missing. */
export function firstHalf(body: Buffer): Buffer {
  return body.subarray(0, Math.floor(body.length / 2));
}

function writeHead(request: FastifyRequest, reply: FastifyReply, contentLength?: number): void {
  reply.hijack();
  reply.raw.writeHead(200, {
    "content-type": JSON_TYPE,
    "x-request-id": request.id,
    ...(contentLength !== undefined ? { "content-length": String(contentLength) } : {}),
  });
}

/** 200 with a body that is not valid JSON. */
export function sendMalformed(request: FastifyRequest, reply: FastifyReply): void {
  writeHead(request, reply);
  reply.raw.end(MALFORMED_BODY);
}

/** 200 announcing the real body's length, the first half of it, then a destroyed connection. */
export function sendTruncated(request: FastifyRequest, reply: FastifyReply, body: string): void {
  const bytes = Buffer.from(body, "utf8");
  writeHead(request, reply, bytes.length);
  // Destroy only once the half has reached the socket, so the client does receive it.
  reply.raw.write(firstHalf(bytes), () => destroyConnection(request));
}

/**
 * 200 announcing the real body's length and the first half of it, then nothing: the connection stays open
 * until the client gives up or the caller destroys the returned socket.
 */
export function sendStalled(request: FastifyRequest, reply: FastifyReply, body: string): Socket {
  const bytes = Buffer.from(body, "utf8");
  writeHead(request, reply, bytes.length);
  reply.raw.write(firstHalf(bytes));
  return request.raw.socket;
}

/**
 * 200 with the real body minus the field at `path`, sent as it is (serializing it through the response
 * schema would turn a missing required field into a 500). False, sending nothing, when there is no such field.
 */
export function sendWithoutField(
  request: FastifyRequest,
  reply: FastifyReply,
  body: string,
  path: string,
): boolean {
  const parsed: unknown = JSON.parse(body);
  if (!removeField(parsed, fieldPathSegments(path))) return false;
  const text = JSON.stringify(parsed);
  writeHead(request, reply, Buffer.byteLength(text, "utf8"));
  reply.raw.end(text);
  return true;
}
