import { TimeSlice } from './yield';
/**
 * JSON from clients, parsed with bounds: nesting deeper than `maxDepth` and keys named `__proto__`
 * are refused before anything else looks at the value, so no later step (validation, hashing,
 * copying) can overflow the stack or reach an object's prototype through client input.
 */

export class JsonInputError extends Error {
  constructor(
    readonly code: 'bad_json' | 'too_deep' | 'forbidden_key',
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'JsonInputError';
  }
}

/** Default nesting bound: far above what any message or export of this server holds. */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The deepest nesting of objects and arrays in JSON text (strings are skipped). One pass, no recursion. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return deepest;
}

// A key spelled "__proto__", with any of its letters escaped as \u00XX.
const suspectProto = /"(?:_|\\u005[fF]){2}(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[fF])(?:t|\\u0074)(?:o|\\u006[fF])(?:_|\\u005[fF]){2}"\s*:/;

/** Path of the first own `__proto__` key in a parsed value, or null. Iterative. */
function protoKeyPath(value: unknown): string | null {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    for (const key of Object.keys(v)) {
      const child = path === '' ? key : `${path}.${key}`;
      if (key === '__proto__') return child;
      stack.push({ value: (v as Record<string, unknown>)[key], path: child });
    }
  }
  return null;
}

/** Parses client JSON; throws `JsonInputError` (never anything else) when it is refused. */
export function parseClientJson(text: string, maxDepth: number = MAX_JSON_DEPTH): unknown {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const depth = jsonDepth(text);
  if (depth > maxDepth) {
    throw new JsonInputError('too_deep', `the JSON nests ${depth} levels deep; at most ${maxDepth} are accepted`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JsonInputError('bad_json', `the body is not valid JSON (${(error as Error).message})`);
  }
  if (suspectProto.test(text)) {
    const path = protoKeyPath(value);
    if (path !== null) throw new JsonInputError('forbidden_key', `${path}: the key "__proto__" is not accepted`, path);
  }
  return value;
}

const COMMA = 0x2c;

/**
 * Parses a large JSON object whose bulk is one array under `key` (an export's `events`) without
 * holding the event loop: one pass finds the array's elements (yielding every few milliseconds),
 * then the rest of the object and each element are parsed on their own, with a yield between slices.
 * The same bounds as `parseClientJson` apply (nesting, `__proto__` keys), with paths into the array
 * named `key.N...`. Throws `JsonInputError` when refused.
 */
export async function parseClientJsonInSlices(text: string, key: string, maxDepth: number = MAX_JSON_DEPTH, slice = new TimeSlice(5)): Promise<unknown> {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const first = /\S/.exec(text);
  if (!first || text.charCodeAt(first.index) !== OPEN_OBJECT) return parseClientJson(text, maxDepth);
  const n = text.length;
  let depth = 0;
  let deepest = 0;
  // Inside the top-level object: the next string is a key (after "{" or ","), and the last key read.
  let expectKey = false;
  let lastKey: string | null = null;
  let arrayStart = -1;
  let arrayEnd = -1;
  let inArray = false;
  let elementStart = -1;
  const elements: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) {
    if ((i & 0x3fff) === 0) await slice.check();
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
      if (depth === 1 && expectKey) {
        try {
          lastKey = JSON.parse(text.slice(start, i + 1)) as string;
        } catch (error) {
          throw new JsonInputError('bad_json', `the body is not valid JSON (${(error as Error).message})`);
        }
        expectKey = false;
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === 0 && c === OPEN_OBJECT) expectKey = true;
      if (depth === 1 && c === OPEN_ARRAY && lastKey === key) {
        if (arrayStart >= 0) throw new JsonInputError('bad_json', `the key "${key}" appears twice`, key);
        arrayStart = i;
        elementStart = i + 1;
        inArray = true;
      }
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === 2 && inArray && c === CLOSE_ARRAY) {
        if (elements.length > 0 || text.slice(elementStart, i).trim() !== '') elements.push([elementStart, i]);
        arrayEnd = i;
        inArray = false;
      }
      depth--;
    } else if (c === COMMA) {
      if (depth === 1) expectKey = true;
      else if (depth === 2 && inArray) {
        elements.push([elementStart, i]);
        elementStart = i + 1;
      }
    }
  }
  if (deepest > maxDepth) {
    throw new JsonInputError('too_deep', `the JSON nests ${deepest} levels deep; at most ${maxDepth} are accepted`);
  }
  if (depth !== 0 || inArray) throw new JsonInputError('bad_json', 'the body is not valid JSON (it ends inside an object, array or string)');
  if (arrayStart < 0) return parseClientJson(text, maxDepth);
  const rest = parseClientJson(`${text.slice(0, arrayStart)}[]${text.slice(arrayEnd + 1)}`, maxDepth) as Record<string, unknown>;
  await slice.check();
  const items: unknown[] = [];
  for (const [i, [from, to]] of elements.entries()) {
    try {
      items.push(parseClientJson(text.slice(from, to), maxDepth - 2));
    } catch (error) {
      if (!(error instanceof JsonInputError)) throw error;
      const field = `${key}.${i}${error.field === undefined ? '' : `.${error.field}`}`;
      throw new JsonInputError(error.code, `${key}.${i}: ${error.message}`, field);
    }
    await slice.check();
  }
  rest[key] = items;
  return rest;
}

/**
 * True when `value` reads back from its JSON text as an equal value: plain objects and arrays of
 * strings, finite numbers (not -0), booleans and null, with no undefined field, no hole, no symbol
 * key. Such a value can be kept as it is instead of being copied through JSON.parse.
 */
export function survivesJson(value: unknown, depth = 0): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_JSON_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!(i in value) || !survivesJson(value[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      if (Object.getOwnPropertySymbols(value).length > 0) return false;
      const record = value as Record<string, unknown>;
      // for-in visits the own enumerable keys here (the prototype is Object.prototype or null, and
      // holds no enumerable key) without making an array of them for every object.
      for (const key in record) if (!survivesJson(record[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}
