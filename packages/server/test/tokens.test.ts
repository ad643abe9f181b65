import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashToken, sha256Hex } from '../src/tokens';

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
