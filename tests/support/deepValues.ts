/** Values nested deeper than any recursive walk survives, for tests of the nesting bound. */

/** `levels` arrays inside one another, the innermost holding "x". */
export function nestedArrays(levels: number): unknown {
  let value: unknown = "x";
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

/** `levels` objects inside one another under the key `key`, the innermost holding "x". */
export function nestedObjects(levels: number, key = "a"): unknown {
  let value: unknown = "x";
  for (let i = 0; i < levels; i++) value = { [key]: value };
  return value;
}
