/**
 * The table's log, append-only, with O(1) appends. States share one growing array of entries and each
 * state reads only the first `length` of them: a state never sees entries appended after it, so
 * folding stays pure for every earlier state. Appending to a state that is not the newest (a replay
 * from a checkpoint, a decision that was not stored) copies its prefix once and carries on from the
 * copy.
 */
export interface TableLog<Entry> {
  readonly length: number;
  /** Shared with later states; only the first `length` entries belong to this one. */
  readonly shared: Entry[];
}

export const EMPTY_LOG: TableLog<never> = Object.freeze({ length: 0, shared: Object.freeze([]) as never[] });

export function appendLog<Entry>(log: TableLog<Entry>, entry: Entry): TableLog<Entry> {
  // The empty log is every new table's: its first entry starts an array of the table's own.
  const shared = log.length > 0 && log.shared.length === log.length ? log.shared : log.shared.slice(0, log.length);
  shared.push(entry);
  return { length: log.length + 1, shared };
}

/** The entry at `index` (negative: from the end), or undefined. */
export function logAt<Entry>(log: TableLog<Entry>, index: number): Entry | undefined {
  const i = index < 0 ? log.length + index : index;
  return i >= 0 && i < log.length ? log.shared[i] : undefined;
}

/** The log's entries, oldest first. */
export function logEntries<Entry>(log: TableLog<Entry>): readonly Entry[] {
  return log.shared.length === log.length ? log.shared : log.shared.slice(0, log.length);
}

/**
 * Values by key that a fold adds and removes (the sealed secret rolls), with O(1) changes: like the
 * log, states share one list of changes and one map that is current for the newest state; each state
 * is the first `length` changes. Reading or changing a state that is not the newest rebuilds its map
 * from its changes once.
 */
export interface KeyedLog<Value> {
  readonly length: number;
  /** Shared with later states; `map` is the state after all of `changes`. */
  readonly shared: { readonly changes: Array<readonly [string, Value | null]>; readonly map: Map<string, Value> };
}

export function emptyKeyed<Value>(): KeyedLog<Value> {
  return { length: 0, shared: { changes: [], map: new Map() } };
}

const rebuilt = new WeakMap<KeyedLog<unknown>, Map<string, unknown>>();

function mapOf<Value>(keyed: KeyedLog<Value>): Map<string, Value> {
  if (keyed.shared.changes.length === keyed.length) return keyed.shared.map;
  let map = rebuilt.get(keyed) as Map<string, Value> | undefined;
  if (!map) {
    map = new Map();
    for (let i = 0; i < keyed.length; i++) {
      const [key, value] = keyed.shared.changes[i]!;
      if (value === null) map.delete(key);
      else map.set(key, value);
    }
    rebuilt.set(keyed, map);
  }
  return map;
}

/** Sets (or with null removes) the value of `key`. */
export function keyedSet<Value>(keyed: KeyedLog<Value>, key: string, value: Value | null): KeyedLog<Value> {
  const shared =
    keyed.shared.changes.length === keyed.length ? keyed.shared : { changes: keyed.shared.changes.slice(0, keyed.length), map: new Map(mapOf(keyed)) };
  shared.changes.push([key, value]);
  if (value === null) shared.map.delete(key);
  else shared.map.set(key, value);
  return { length: keyed.length + 1, shared };
}

export function keyedGet<Value>(keyed: KeyedLog<Value>, key: string): Value | undefined {
  return mapOf(keyed).get(key);
}

/** The values, in the order their keys were first set. */
export function keyedValues<Value>(keyed: KeyedLog<Value>): Value[] {
  return [...mapOf(keyed).values()];
}
