/**
 * Lookups by id that no id can break: records built from client input are keyed maps without a
 * prototype, and reads check own properties only, so ids such as "constructor" or "__proto__" are
 * ordinary ids.
 */
export function ownGet<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

export function ownHas(record: Readonly<Record<string, unknown>>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

/** A copy of `record` with `key` set, without a prototype (so no inherited key ever reads as present). */
export function withEntry<V>(record: Readonly<Record<string, V>>, key: string, value: V): Record<string, V> {
  const out = Object.create(null) as Record<string, V>;
  for (const k of Object.keys(record)) out[k] = record[k]!;
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

export function withoutEntry<V>(record: Readonly<Record<string, V>>, key: string): Record<string, V> {
  const out = Object.create(null) as Record<string, V>;
  for (const k of Object.keys(record)) if (k !== key) out[k] = record[k]!;
  return out;
}
