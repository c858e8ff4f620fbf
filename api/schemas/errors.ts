/** The error body every failed request answers (the spec leaves it open; see docs/api-behaviour.md). */
import type { Static } from "@sinclair/typebox";
import { Type } from "../typeBuilder";

export const ApiErrorBody = Type.Object({
  error: Type.Object({
    /** Machine-readable code, e.g. NOT_FOUND, PERMISSION_DENIED, DEPLOYMENT_MIGRATED. */
    code: Type.String(),
    message: Type.String(),
    /** Same value as the x-request-id response header. */
    requestId: Type.Optional(Type.String()),
  }),
});
export type ApiErrorBody = Static<typeof ApiErrorBody>;
