/**
 * Fastify's type provider for TypeBox: a route's `request.body`, `params` and `query` are typed from the
 * TypeBox schemas it is registered with (`Static<schema>`), so handlers need no casts. Types only: the
 * emulator validates with the API's own checks and words (./requestValidation).
 *
 * The few lines of `@fastify/type-provider-typebox` that this needs are written here rather than added as
 * a dependency: its runtime half (a validator compiler) would go unused, and its releases for the
 * TypeBox 0.34 line the API uses (5.x) are no longer its current major.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from "fastify";

/** Types a request part by the TypeBox schema that validates it (unknown when there is none). */
export interface TypeBoxTypeProvider extends FastifyTypeProvider {
  readonly validator: this["schema"] extends TSchema ? Static<this["schema"]> : unknown;
  readonly serializer: this["schema"] extends TSchema ? Static<this["schema"]> : unknown;
}

/** The emulator's Fastify instance, typed by its routes' TypeBox schemas. */
export type EmulatorFastify = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module "fastify" {
  /** What the emulator's routes carry in their `config`. */
  interface FastifyContextConfig {
    /** The operation a route serves (absent on the control surface and on unknown paths). */
    operation?: import("pulumi-codesec/api").OperationKey;
    /** What a control route does, for `GET /__emulator/`. */
    summary?: string;
  }
}
