import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashToken, sha256Hex } from '../src/tokens';

describe('sha256Hex', () => {
  it('is the SHA-256 of the UTF-8 text, in hex', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(sha256Hex(text)).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
      }),
    );
  });

  it('gives a token the digest stored for it', () => {
    expect(hashToken('pl_abc')).toBe(createHash('sha256').update('pl_abc').digest('hex'));
  });
});

describe('canonicalJson', () => {
  // Command digests are stored: the text must stay the one keys sorted by Array.prototype.sort give.
  const sortedCopy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sortedCopy);
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value).sort()) out[key] = sortedCopy((value as Record<string, unknown>)[key]);
      return out;
    }
    return value;
  };

  it('writes keys in the order sort() gives them, whatever order they came in', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }], B: null, é: 'x', '10': 0, '2': 0 })).toBe('{"2":0,"10":0,"B":null,"a":[{"c":3,"d":2}],"b":1,"é":"x"}');
    const key = fc.string({ unit: 'grapheme', maxLength: 4 }).filter((k) => k !== '__proto__');
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 0 }), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(key, tie('node'), { maxKeys: 8 })),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(JSON.stringify(sortedCopy(v)));
      }),
    );
  });
});
