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
