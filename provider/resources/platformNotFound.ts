/**
 * When a 404 means "the platform has no such object". Only the platform's own structured answer
 * (error code NOT_FOUND) counts: a 404 page from a proxy, or from a base URL with a wrong path, proves
 * nothing about the object, and treating it as "gone" would drop a resource or skip a demotion.
 */
import { CodeSecApiError } from "../../client";

export function isPlatformNotFound(error: unknown): error is CodeSecApiError {
  return error instanceof CodeSecApiError && error.status === 404 && error.code === "NOT_FOUND";
}
