/**
 * What the state-size comparison says when the engine cannot store the naive provider (the package's
 * implementation captured by value): an intended n/a, not a failure of the run. Pulumi's closure
 * serializer cannot capture the implementation (it holds values such as a running timer); that is the
 * comparison's point, and why the package stores a short stub that loads the implementation by name.
 */
export function byValueNotStored(reason: string): { log: string; detail: string } {
  const meaning =
    "n/a, as intended: Pulumi's closure serializer cannot store this package's implementation captured by " +
    "value, which is why pulumi-codesec stores a stub that loads it by package name instead";
  return {
    log: `  by-value provider: ${meaning} (the serializer's reason: ${reason})`,
    detail: `${meaning}; the serializer's reason: ${reason}`,
  };
}
