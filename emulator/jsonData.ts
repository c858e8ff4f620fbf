/**
 * Whether a value is JSON data: what `JSON.stringify` then `JSON.parse` gives back unchanged. The store
 * keeps a fixture set as JSON text (EmulatorStore.open), so a value it would drop (a function, a symbol,
 * an undefined field) or change (a Date, a class instance's `toJSON`, NaN, an empty array slot) must be
 * refused where the set is checked, not lost without a word. A fixture file is JSON parsed: the only
 * such value one can hold is a number too large for a double (`1e400`, Infinity).
 */
import { pathOfKeys } from "pulumi-codesec/api";

/** At most this many problems are listed (as many as the schema's, fixtureChecks.ts). */
const MAX_PROBLEMS = 10;

/** An object or array being walked, and where it is. */
interface Frame {
  readonly value: object;
  readonly parent?: Frame;
  readonly key?: string | number;
  /** Set on the entry that closes `value` once everything in it is walked. */
  readonly leaving?: true;
}

/**
 * One line per value in `value` that is not JSON data, e.g. `config.sign: a function, not JSON data`,
 * in the order found, naming its dotted path (`rules[0].config`, as the schema issues write it) and its
 * kind, never the value itself (it may be a secret); `root` names `value` itself. Empty when `value` is
 * JSON data. Walks with its own stack (no recursion limit); a part shared by two fields is walked at
 * each, as JSON writes it at each, and a cycle (which JSON cannot write) is reported.
 */
export function nonJsonDataProblems(
  value: unknown,
  root = "the value",
  limit: number = MAX_PROBLEMS,
): string[] {
  const problems: string[] = [];
  const report = (parent: Frame | undefined, key: string | number | undefined, what: string) => {
    const keys: (string | number)[] = key === undefined ? [] : [key];
    for (let at = parent; at?.key !== undefined; at = at.parent) keys.push(at.key);
    const path = keys.length === 0 ? root : pathOfKeys(keys.reverse());
    const hint = what === "undefined" && typeof key === "string" ? " (leave the field out)" : "";
    problems.push(`${path}: ${what}, not JSON data${hint}`);
  };
  /** The objects and arrays inside which the walk is: a cycle leads back to one of them. */
  const walking = new Set<object>();
  const stack: Frame[] = [];
  /** The objects and arrays of the one being walked, queued after it in key order (the stack reverses them). */
  const inside: Frame[] = [];
  /** Reports `item` or queues it for walking; a primitive that is JSON data needs nothing. */
  const visit = (item: unknown, parent: Frame | undefined, key: string | number | undefined) => {
    if (typeof item !== "object" || item === null) {
      const what = primitiveProblem(item, key);
      if (what !== undefined) report(parent, key, what);
    } else if (walking.has(item)) {
      report(parent, key, "a circular reference");
    } else {
      const what = containerProblem(item);
      if (what !== undefined) report(parent, key, what);
      else inside.push({ value: item, parent, key });
    }
  };
  const queueInside = () => {
    while (inside.length > 0) stack.push(inside.pop()!);
  };
  visit(value, undefined, undefined);
  queueInside();
  while (stack.length > 0 && problems.length < limit) {
    const frame = stack.pop()!;
    if (frame.leaving === true) {
      walking.delete(frame.value);
      continue;
    }
    walking.add(frame.value);
    stack.push({ value: frame.value, leaving: true });
    if (Array.isArray(frame.value)) {
      const items = frame.value as unknown[];
      for (let index = 0; index < items.length; index++) {
        if (index in items) visit(items[index], frame, index);
        else report(frame, index, "an empty slot");
      }
    } else {
      const record = frame.value as Record<string, unknown>;
      for (const key of Object.keys(record)) visit(record[key], frame, key);
    }
    queueInside();
  }
  return problems.slice(0, limit);
}

/** What a primitive is, worded for a message, when JSON would drop or change it (`key` undefined: the root). */
function primitiveProblem(value: unknown, key: string | number | undefined): string | undefined {
  switch (typeof value) {
    case "number":
      return Number.isFinite(value) ? undefined : String(value);
    case "undefined":
      // At the root there is nothing to drop: the schema says what is missing.
      if (key === undefined) return undefined;
      return "undefined";
    case "function":
      return "a function";
    case "symbol":
      return "a symbol";
    case "bigint":
      return "a bigint";
    default:
      return undefined;
  }
}

/** What a non-plain object (a Date, a class instance) is, for a message; undefined for arrays and plain objects. */
function containerProblem(value: object): string | undefined {
  if (Array.isArray(value)) return undefined;
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype === null || prototype === Object.prototype) return undefined;
  const name = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof name !== "string" || name === "") return "an object with a prototype";
  // The built-ins people put in data by mistake read better without "an instance of".
  return ["Date", "Map", "Set", "RegExp"].includes(name) ? `a ${name}` : `an instance of ${name}`;
}
