/**
 * A create or update that applied part of its work and then failed: the engine records `properties` as the
 * state of a resource that failed to initialize (so what was applied is not lost, and the next `pulumi up`
 * applies again), and shows `reasons`. Both providers pass it on that way: the dynamic provider through
 * the error's `id` and `properties`, the plugin as gRPC `ErrorResourceInitFailed`.
 */
export class ResourceInitError extends Error {
  constructor(
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[],
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The same failure with more properties recorded (the platform, the dynamic provider's own key). */
  withProperties(more: Record<string, unknown>): ResourceInitError {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as ResourceInitError;
    Object.assign(copy, this, { properties: { ...this.properties, ...more } });
    Object.defineProperty(copy, "message", { value: this.message, enumerable: false, writable: true });
    Object.defineProperty(copy, "stack", { value: this.stack, enumerable: false, writable: true });
    return copy;
  }
}
