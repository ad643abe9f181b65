export { appendLog, EMPTY_LOG, logAt, logEntries, type TableLog } from '@personae/core';

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
