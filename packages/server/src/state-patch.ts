/**
 * A viewer's new view as the changes from the view it received last (`state-patch` on the
 * WebSocket). After each event most of a view is what it was (the same characters, the same log
 * with one entry more), so the server sends the top-level fields that changed and, for arrays that
 * only lost entries at their start and gained entries at their end (a log), just those ends.
 *
 * This module has no dependencies: the web app applies patches with the same code.
 */

/** The receiver's view at `version`, as changes to the view it holds at `base`. */
export interface StatePatchMessage {
  type: 'state-patch';
  version: number;
  /** The version of the view this patch applies to: the last `state` or `state-patch` received. */
  base: number;
  /** Top-level fields with a new value. */
  set?: Record<string, unknown>;
  /** Top-level fields no longer present. */
  unset?: string[];
  /** Top-level arrays: drop this many entries from the start, then append these at the end. */
  arrays?: Record<string, { drop: number; append: unknown[] }>;
}

type Plain = Record<string, unknown>;

/** Sets a field; one named __proto__ is defined, so that it stays an ordinary field. */
function put(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

function isPlainObject(value: unknown): value is Plain {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

const has = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/**
 * True when `a` and `b` are the same value, or objects (or arrays) with the same keys whose values
 * are the same in this sense `depth` levels further down, and the same values (identity) below
 * that: equal as JSON, decided without walking whole trees. Views are rebuilt as fresh objects
 * around parts of the state that did not change (sheets, log entries), so two levels find them.
 */
function sameShallow(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (depth < 0 || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const y = b as unknown[];
    if (a.length !== y.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameShallow(a[i], y[i], depth - 1)) return false;
    return true;
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  // Counted, not listed: no array of keys per object compared.
  let count = 0;
  for (const k in a) {
    if (!has(a, k)) continue;
    if (!has(b, k) || !sameShallow(a[k], b[k], depth - 1)) return false;
    count++;
  }
  for (const k in b) if (has(b, k)) count--;
  return count === 0;
}

/** How many candidate starting points the array comparison tries before giving up on it. */
const MAX_TRIES = 4;

/**
 * `after` as `before` less its first `drop` entries plus `append`, or null when `after` does not
 * keep a run of `before`'s entries that way.
 */
function arrayChange(before: readonly unknown[], after: readonly unknown[]): { drop: number; append: unknown[] } | null {
  if (after.length === 0) return null;
  let tries = 0;
  for (let drop = 0; drop < before.length; drop++) {
    const kept = before.length - drop;
    if (kept > after.length) continue;
    if (before[drop] !== after[0] && !sameShallow(before[drop], after[0], 1)) continue;
    if (++tries > MAX_TRIES) return null;
    let same = true;
    // Entries kept are, as a rule, the very same objects: identity first, the walk only when not.
    for (let i = 1; i < kept && same; i++) same = before[drop + i] === after[i] || sameShallow(before[drop + i], after[i], 1);
    if (same) return { drop, append: after.slice(kept) };
  }
  return null;
}

/**
 * The changes that turn `before` into `after`, or null when they are not both plain objects (send
 * the whole view then). Unchanged fields are found by identity, so views built from shared parts
 * (the same log entries, the same sheets) compare quickly.
 */
export function diffState(before: unknown, after: unknown): Diff | null {
  if (!isPlainObject(before) || !isPlainObject(after)) return null;
  // Made once per viewer and event: the parts of the result are made only when they have fields, and
  // the keys are visited without arrays of them (plain objects: for-in visits their own keys, the
  // check keeps out any enumerable key inherited).
  let set: Plain | undefined;
  let arrays: Record<string, { drop: number; append: unknown[] }> | undefined;
  let unset: string[] | undefined;
  for (const key in after) {
    if (!has(after, key)) continue;
    const a = before[key];
    const b = after[key];
    if (has(before, key) && sameShallow(a, b, 2)) continue;
    if (Array.isArray(a) && Array.isArray(b)) {
      const change = arrayChange(a, b);
      if (change) {
        put((arrays ??= {}), key, change);
        continue;
      }
    }
    put((set ??= {}), key, b);
  }
  for (const key in before) if (has(before, key) && !has(after, key)) (unset ??= []).push(key);
  const diff: Diff = {};
  if (set) diff.set = set;
  if (unset) diff.unset = unset;
  if (arrays) diff.arrays = arrays;
  return diff;
}

type Diff = Omit<StatePatchMessage, 'type' | 'version' | 'base'>;

function sameKeysAndValues(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined, same: (x: unknown, y: unknown) => boolean): boolean {
  if (a === undefined || b === undefined) return a === b;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== others[i] || !same(a[keys[i]!], b[keys[i]!])) return false;
  return true;
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * True when two changes hold the same fields in the same order with the same values (identity), so
 * that they serialize to the same text: viewers whose views changed by the same parts (the same new
 * log entries, the same new counters) share one serialization of the changes.
 */
export function sameDiff(a: Diff, b: Diff): boolean {
  if (a === b) return true;
  if ((a.unset === undefined) !== (b.unset === undefined) || (a.unset && !sameList(a.unset, b.unset!))) return false;
  if (!sameKeysAndValues(a.set, b.set, (x, y) => x === y)) return false;
  return sameKeysAndValues(a.arrays, b.arrays, (x, y) => {
    const p = x as { drop: number; append: unknown[] };
    const q = y as { drop: number; append: unknown[] };
    return p.drop === q.drop && sameList(p.append, q.append);
  });
}

/** The view `patch` describes, from the view it applies to (which is left as it is). */
export function applyStatePatch(state: unknown, patch: Pick<StatePatchMessage, 'set' | 'unset' | 'arrays'>): unknown {
  if (!isPlainObject(state)) throw new TypeError('a state patch applies to an object');
  const next: Plain = { ...state };
  for (const key of patch.unset ?? []) delete next[key];
  for (const [key, change] of Object.entries(patch.arrays ?? {})) {
    const current = next[key];
    if (!Array.isArray(current) || change.drop > current.length) throw new TypeError(`a state patch changes "${key}", which is not such a list`);
    put(next, key, [...current.slice(change.drop), ...change.append]);
  }
  for (const [key, value] of Object.entries(patch.set ?? {})) put(next, key, value);
  return next;
}

/**
 * JSON texts already written during one turn of the server, by the object they are the text of:
 * the events of a command are written once for the store, and the log entries that hold the same
 * result objects (a roll's result is both the event's and its entry's) take those texts instead of
 * writing them again. Objects of views and events are never changed once made, so a text stays the
 * object's text. Kept for one turn only: nothing here outlives the messages it was made for.
 */
export type KnownTexts = Map<object, string>;

/** Keys as JSON writes them, kept for the few names events and views use (a handful of fields each). */
const quotedKeys = new Map<string, string>();
const MAX_QUOTED_KEYS = 1000;

function quoted(key: string): string {
  let text = quotedKeys.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (quotedKeys.size < MAX_QUOTED_KEYS && key.length <= 64) quotedKeys.set(key, text);
  }
  return text;
}

/** Plain objects written field by field: no own `toJSON` to call in place of the fields. */
function writtenByFields(value: object): value is Plain {
  return isPlainObject(value) && typeof value.toJSON !== 'function';
}

/**
 * The same text as JSON.stringify(value), made from `known` where it holds `value` or one of its
 * top-level fields. With `remember`, the texts of the object fields written are added to `known`.
 */
export function jsonWith(value: unknown, known: KnownTexts, remember = false): string | undefined {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const whole = known.get(value);
  if (whole !== undefined) return whole;
  if (!writtenByFields(value)) return JSON.stringify(value);
  let text = '{';
  for (const key of Object.keys(value)) {
    const field = value[key];
    let part: string | undefined;
    if (typeof field === 'object' && field !== null) {
      part = known.get(field);
      if (part === undefined) {
        part = JSON.stringify(field);
        if (remember) known.set(field, part);
      }
    } else {
      // undefined, functions and symbols give no text: the field is left out, as JSON.stringify does.
      part = JSON.stringify(field);
    }
    if (part === undefined) continue;
    text += `${text.length > 1 ? ',' : ''}${quoted(key)}:${part}`;
  }
  return `${text}}`;
}

/** The text of one object a list gains: each is written once for all the viewers whose patches append it. */
function jsonOfAppended(value: unknown, known: KnownTexts): string {
  const text = jsonWith(value, known) ?? 'null';
  if (typeof value === 'object' && value !== null) known.set(value, text);
  return text;
}

/**
 * A `state-patch` message as JSON text, the same as JSON.stringify of it, except that each object a
 * list gains is written once for all the patches made with the same `known` (and with the texts of
 * the parts it already holds).
 */
export function statePatchText(version: number, base: number, diff: Diff, known: KnownTexts = new Map()): string {
  // Written in the order JSON.stringify({ type, version, base, ...diff }) writes it, the lists last,
  // without the objects and arrays that would take (one text per audience and event).
  let text = `{"type":"state-patch","version":${JSON.stringify(version)},"base":${JSON.stringify(base)}`;
  for (const key in diff) {
    if (key === 'arrays' || !has(diff, key)) continue;
    const part = JSON.stringify(diff[key as keyof Diff]);
    if (part !== undefined) text += `,${quoted(key)}:${part}`;
  }
  const { arrays } = diff;
  if (!arrays) return `${text}}`;
  text += ',"arrays":{';
  let first = true;
  for (const key in arrays) {
    if (!has(arrays, key)) continue;
    const { drop, append } = arrays[key]!;
    text += `${first ? '' : ','}${quoted(key)}:{"drop":${JSON.stringify(drop)},"append":[`;
    first = false;
    for (let i = 0; i < append.length; i++) text += `${i > 0 ? ',' : ''}${jsonOfAppended(append[i], known)}`;
    text += ']}';
  }
  return `${text}}}`;
}
