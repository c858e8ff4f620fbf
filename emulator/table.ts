/**
 * One collection of the emulator's state, indexed so that a request costs what it touches: items in
 * their fixture order, found by a unique key or listed by a group key without scanning the others.
 *
 * Items are deep-frozen: a change never edits an item in place, it replaces it with a changed copy. So
 * a change touches one item, and handing an item out costs a copy of that item alone. Every change returns
 * the step that undoes it, which is how the store keeps a mutation atomic when a later step (or the save)
 * fails.
 */

/** Undoes one change; undo steps run in the reverse order of their changes. */
export type Undo = () => void;

/** Freezes `value` and everything reachable from it (plain JSON data: objects and arrays). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

/**
 * An indexed collection of `T`. `U` names the unique keys (each maps an item to a string that no other
 * item has), `G` the group keys (items sharing a key are listed together, in collection order).
 */
export class Table<T, U extends string, G extends string = never> {
  private readonly rows: T[];
  private readonly unique = new Map<U, Map<string, number>>();
  private readonly grouped = new Map<G, Map<string, number[]>>();

  /** Takes `items` (they are frozen, not copied). */
  constructor(
    items: T[],
    private readonly uniqueKeys: Readonly<Record<U, (item: T) => string>>,
    private readonly groupKeys: Readonly<Record<G, (item: T) => string>> = {} as Record<G, never>,
  ) {
    this.rows = items;
    for (const name of Object.keys(uniqueKeys) as U[]) this.unique.set(name, new Map());
    for (const name of Object.keys(groupKeys) as G[]) this.grouped.set(name, new Map());
    items.forEach((item, position) => {
      deepFreeze(item);
      this.index(item, position);
    });
  }

  /** The items, in collection order: the array the state file saves (frozen items; do not change it). */
  get items(): readonly T[] {
    return this.rows;
  }

  /** The item whose unique key `by` is `key`. */
  find(by: U, key: string): T | undefined {
    const position = this.map(this.unique, by).get(key);
    return position === undefined ? undefined : this.rows[position];
  }

  /** The items whose group key `by` is `key`, in collection order. */
  group(by: G, key: string): T[] {
    const positions = this.map(this.grouped, by).get(key) ?? [];
    return positions.map((position) => this.rows[position]);
  }

  /** Appends `item` (frozen); throws when one of its unique keys is taken. */
  add(item: T): Undo {
    for (const name of this.unique.keys()) {
      const key = this.uniqueKeys[name](item);
      if (this.map(this.unique, name).has(key)) throw new Error(`duplicate ${name} ${JSON.stringify(key)}`);
    }
    deepFreeze(item);
    const position = this.rows.length;
    this.rows.push(item);
    this.index(item, position);
    return () => {
      this.unindex(item);
      this.rows.pop();
    };
  }

  /**
   * Replaces the item whose unique key `by` is `key` with `next` (frozen), at the same place. The
   * replacement keeps every key of the item it replaces (changes of keys are not needed, so not supported).
   */
  replace(by: U, key: string, next: T): Undo {
    const position = this.map(this.unique, by).get(key);
    if (position === undefined) throw new Error(`no item with ${by} ${JSON.stringify(key)}`);
    const previous = this.rows[position];
    for (const name of this.unique.keys()) {
      if (this.uniqueKeys[name](next) !== this.uniqueKeys[name](previous))
        throw new Error(`a replacement must keep its ${name}`);
    }
    for (const name of this.grouped.keys()) {
      if (this.groupKeys[name](next) !== this.groupKeys[name](previous))
        throw new Error(`a replacement must keep its ${name}`);
    }
    this.rows[position] = deepFreeze(next);
    return () => {
      this.rows[position] = previous;
    };
  }

  private index(item: T, position: number): void {
    for (const [name, keys] of this.unique) keys.set(this.uniqueKeys[name](item), position);
    for (const [name, groups] of this.grouped) {
      const key = this.groupKeys[name](item);
      const positions = groups.get(key);
      if (positions) positions.push(position);
      else groups.set(key, [position]);
    }
  }

  /** Removes the last item's index entries (it is the only item `add` can undo). */
  private unindex(item: T): void {
    for (const [name, keys] of this.unique) keys.delete(this.uniqueKeys[name](item));
    for (const [name, groups] of this.grouped) {
      const key = this.groupKeys[name](item);
      const positions = groups.get(key);
      positions?.pop();
      if (positions?.length === 0) groups.delete(key);
    }
  }

  private map<K, V>(maps: Map<K, V>, name: K): V {
    const found = maps.get(name);
    if (found === undefined) throw new Error(`no index ${String(name)}`);
    return found;
  }
}
