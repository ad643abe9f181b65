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
