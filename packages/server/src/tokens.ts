import { hash, randomBytes } from 'node:crypto';

/** Kinds of secret a table hands out; the prefix only helps a person tell links apart. */
export type TokenKind = 'gm' | 'player' | 'invite' | 'observer';

const PREFIX: Record<TokenKind, string> = { gm: 'gm', player: 'pl', invite: 'in', observer: 'ob' };

/** A new secret: 256 random bits from the platform CSPRNG, base64url encoded. */
export function newToken(kind: TokenKind): string {
  return `${PREFIX[kind]}_${randomBytes(32).toString('base64url')}`;
}

/**
 * Tokens are stored only as their SHA-256 digest. A slow password hash is not needed: the tokens
 * carry 256 bits of entropy, so the digest cannot be reversed by guessing.
 */
export function hashToken(token: string): string {
  return sha256Hex(token);
}

/** Short random identifiers for tables and participants (96 bits). */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('base64url')}`;
}

/** A JSON text with object keys sorted, so equal values give equal text whatever the key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of inOrder(Object.keys(value))) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/**
 * The keys in the order `sort()` gives them (by UTF-16 code units), sorted where they are: an
 * object's few keys cost no work array of the built-in sort, made for every object of every command.
 */
function inOrder(keys: string[]): string[] {
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

/** The SHA-256 digest of a text's UTF-8 bytes, in hex (one call, without a Hash object to make and feed). */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
