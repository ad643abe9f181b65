import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * Provably fair secret rolls. When the GM rolls in secret, the host publishes at once a commitment:
 * the SHA-256 of the dice (in the order they were drawn) and a random salt. When the roll is revealed,
 * anyone can recompute the hash from the revealed dice and salt: dice changed after the fact no longer
 * match, and the salt keeps the dice from being guessed from the hash by trying every roll.
 */
export interface RollCommitment {
  /** Lower-case hex SHA-256 of the canonical text of the dice and the salt. */
  readonly hash: string;
  readonly algorithm: 'sha256';
  readonly version: 1;
}

export interface RevealedRoll {
  readonly dice: readonly number[];
  /** Hex, at least 16 bytes (32 hex digits) of randomness. */
  readonly salt: string;
}

const SALT = /^[0-9a-f]{32,128}$/;

function canonical(roll: RevealedRoll): string {
  for (const d of roll.dice) {
    if (!Number.isSafeInteger(d) || d < 1) throw new RangeError(`a committed die must be a whole number from 1, got ${d}`);
  }
  if (!SALT.test(roll.salt)) throw new RangeError('the salt must be 32 to 128 lower-case hex digits');
  return `personae-roll-v1|${roll.salt}|${roll.dice.join(',')}`;
}

/** A fresh salt from the platform's cryptographic generator (Web Crypto, in Node and browsers). */
export function newSalt(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return bytesToHex(bytes);
}

export function commitRoll(roll: RevealedRoll): RollCommitment {
  return { hash: bytesToHex(sha256(utf8ToBytes(canonical(roll)))), algorithm: 'sha256', version: 1 };
}

export type Verification =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'mismatch' | 'malformed'; readonly message: string };

/** Whether the revealed dice and salt are the ones the commitment was made to. */
export function verifyRoll(commitment: Pick<RollCommitment, 'hash'>, roll: RevealedRoll): Verification {
  let hash: string;
  try {
    hash = commitRoll(roll).hash;
  } catch (e) {
    return { ok: false, reason: 'malformed', message: (e as Error).message };
  }
  if (hash === commitment.hash.toLowerCase()) return { ok: true };
  return {
    ok: false,
    reason: 'mismatch',
    message: `the dice ${roll.dice.join(', ')} with this salt hash to ${hash}, not to the commitment ${commitment.hash}: the dice or the salt are not the ones committed to`,
  };
}
