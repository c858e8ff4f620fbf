/** Notification rules: `listNotificationRules` (list, with a limit and an opaque cursor). */
import { createHmac, timingSafeEqual } from "node:crypto";
import {
  ListNotificationRulesBody,
  ListNotificationRulesResponse,
  NOTIFICATION_LIMIT_DEFAULT,
  type NotificationRule,
  type NotificationRuleFilters,
} from "pulumi-codesec/api";
import { requireRole } from "../auth";
import { apiError } from "../errors";
import { operationRoute, type EmulatorContext } from "../operationRoute";
import type { EmulatorFastify } from "../typeProvider";

/** What a cursor token carries (signed, so a client cannot forge or alter it). */
export interface CursorPosition {
  /** Deployment the listing belongs to. */
  deploymentId: string;
  /** The next page starts after this rule id. */
  afterId: number;
  /** Fingerprint of the filters of the listing: a cursor only continues the listing it came from. */
  filters: string;
}

function filtersFingerprint(filters: NotificationRuleFilters | undefined): string {
  return JSON.stringify([filters?.channel ?? null, filters?.is_enabled ?? null]);
}

function mac(key: Uint8Array, body: string): Buffer {
  return createHmac("sha256", key).update(`notification-rules-cursor:${body}`).digest();
}

/** Encodes and signs a cursor position: `<base64url JSON>.<base64url HMAC-SHA256>`. */
export function encodeCursor(key: Uint8Array, position: CursorPosition): string {
  const body = Buffer.from(JSON.stringify({ v: 1, ...position }), "utf8").toString("base64url");
  return `${body}.${mac(key, body).toString("base64url")}`;
}

/**
 * The position in a cursor token, or undefined when the token was not issued by this state (or was altered).
 */
export function decodeCursor(key: Uint8Array, token: string): CursorPosition | undefined {
  const [body, signature, ...rest] = token.split(".");
  if (!body || !signature || rest.length > 0) return undefined;
  const expected = mac(key, body);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Partial<CursorPosition> & {
      v?: number;
    };
    if (
      parsed.v !== 1 ||
      typeof parsed.deploymentId !== "string" ||
      typeof parsed.afterId !== "number" ||
      typeof parsed.filters !== "string"
    ) {
      return undefined;
    }
    return { deploymentId: parsed.deploymentId, afterId: parsed.afterId, filters: parsed.filters };
  } catch {
    return undefined;
  }
}

export function registerNotificationRuleRoutes(app: EmulatorFastify, ctx: EmulatorContext): void {
  operationRoute(
    app,
    ctx,
    "listNotificationRules",
    { body: ListNotificationRulesBody, response: ListNotificationRulesResponse },
    ({ params, body, caller }) => {
      const deploymentId = params.deploymentId;
      if (String(body.deploymentId) !== deploymentId) {
        throw apiError(
          "INVALID_ARGUMENT",
          `body.deploymentId (${body.deploymentId}) must equal the path parameter deploymentId (${deploymentId})`,
        );
      }
      requireRole(ctx.store, caller, deploymentId, "read");
      const limit = body.options?.optionalLimit ?? NOTIFICATION_LIMIT_DEFAULT;
      const fingerprint = filtersFingerprint(body.filters);
      let afterId = Number.NEGATIVE_INFINITY;
      const token = body.options?.cursor?.token;
      if (token !== undefined) {
        const position = decodeCursor(ctx.store.signingKey, token);
        if (!position) {
          throw apiError(
            "INVALID_ARGUMENT",
            "body.options.cursor.token is not a cursor this platform issued (invalid or altered)",
          );
        }
        if (position.deploymentId !== deploymentId) {
          throw apiError(
            "INVALID_ARGUMENT",
            `body.options.cursor.token belongs to a listing of another deployment`,
          );
        }
        if (position.filters !== fingerprint) {
          throw apiError(
            "INVALID_ARGUMENT",
            "body.options.cursor.token was issued for different filters; send the same filters as the first page",
          );
        }
        afterId = position.afterId;
      }
      const { rules: page, more } = ctx.store.notificationRulePage(deploymentId, {
        afterId,
        limit,
        matches: (r) =>
          (body.filters?.channel === undefined || r.channel === body.filters.channel) &&
          (body.filters?.is_enabled === undefined || r.is_enabled === body.filters.is_enabled),
      });
      const rules: NotificationRule[] = page.map(({ deploymentId: _deploymentId, ...rule }) => rule);
      const last = page[page.length - 1];
      return {
        notification_rules: rules,
        ...(more && last !== undefined
          ? {
              cursor: {
                token: encodeCursor(ctx.store.signingKey, {
                  deploymentId,
                  afterId: last.id,
                  filters: fingerprint,
                }),
              },
            }
          : {}),
      };
    },
  );
}
