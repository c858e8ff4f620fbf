/**
 * A bound on how deeply a value nests objects and arrays, checked before anything walks the value
 * recursively. TypeBox's checks and error iterator, JSON.stringify, the engine's serialization and the
 * provider's own walks all recurse, and throw a bare `RangeError` (call stack exceeded) somewhere past a
 * few thousand levels; this walk uses an explicit stack, so it gives a message naming the path instead.
 */
import { pathOfKeys, type SchemaIssue } from "./schemaIssues";

/** Deepest nesting an input may have: the argument object is level 1. Real inputs stay below 10. */
export const MAX_NESTING_DEPTH = 64;

interface Frame {
  readonly value: object;
  /** 1 for the root. */
  readonly level: number;
  readonly parent?: Frame;
  readonly key?: string | number;
}

/**
 * The first object or array (depth first, in key order) that lies more than `limit` levels deep in
 * `value`, as a {@link SchemaIssue} of kind `tooDeep` naming its path; undefined when there is none.
 * Shared parts are walked once per level they are reached at, so a value that contains itself ends at
 * the limit and one that shares parts across levels cannot make the walk explode.
 *
 * @example
 * const issue = nestingIssue(inputs);
 * if (issue) throw new Error(issueMessage(issue, { name: "getScan", noun: "argument" }));
 */
export function nestingIssue(value: unknown, limit: number = MAX_NESTING_DEPTH): SchemaIssue | undefined {
  if (!isContainer(value)) return undefined;
  const deepestSeen = new Map<object, number>();
  const stack: Frame[] = [{ value, level: 1 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.level > limit) {
      return {
        kind: "tooDeep",
        path: pathOf(frame),
        expected: `within ${limit} levels of nested objects and arrays`,
        value: frame.value,
        depth: frame.level,
      };
    }
    const seen = deepestSeen.get(frame.value);
    if (seen !== undefined && seen >= frame.level) continue;
    deepestSeen.set(frame.value, frame.level);
    const level = frame.level + 1;
    // Pushed last to first, so that the first child is walked first.
    if (Array.isArray(frame.value)) {
      const items = frame.value as unknown[];
      for (let index = items.length - 1; index >= 0; index--) {
        const item = items[index];
        if (isContainer(item)) stack.push({ value: item, level, parent: frame, key: index });
      }
    } else {
      const record = frame.value as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let index = keys.length - 1; index >= 0; index--) {
        const item = record[keys[index]];
        if (isContainer(item)) stack.push({ value: item, level, parent: frame, key: keys[index] });
      }
    }
  }
  return undefined;
}

function isContainer(value: unknown): value is object {
  return value !== null && typeof value === "object";
}

/** The dotted path (`filters.ids[0]`) from the root to `frame`, as the schema issues write it. */
function pathOf(frame: Frame): string {
  const keys: (string | number)[] = [];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) keys.push(at.key);
  return pathOfKeys(keys.reverse());
}
