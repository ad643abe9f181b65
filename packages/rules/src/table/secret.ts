import { checkRevealedDice, commitRoll, newSalt, type RevealCheck, type RevealedSecret } from '@personae/core';
import type { ChallengeResult } from '../challenge';

/**
 * Provably fair secret rolls. A roll the GM makes in secret is sealed: the table publishes at once,
 * to every viewer, a commitment to its dice (the SHA-256 of a random salt and the dice, see
 * commitRoll in @personae/core), and keeps the salt and the dice for the GM. When the roll is
 * revealed (by the GM, or by the table at the end of the scene or session), the dice and the salt are
 * published with the result, and anyone can recompute the hash.
 */

/** When the table reveals its secret rolls: when the GM says so, or at the end of each scene or session. */
export const SECRET_REVEALS = ['gm', 'scene', 'session'] as const;
export type SecretReveal = (typeof SECRET_REVEALS)[number];

/** A secret roll not yet revealed, as the table keeps it (never sent to players). */
export interface SealedRoll {
  readonly hash: string;
  readonly salt: string;
  readonly dice: readonly number[];
  readonly result: ChallengeResult;
  readonly purpose?: string;
  /** The log entry that published the commitment. */
  readonly committedAt: number;
}

export { commitmentOpening, revealLine } from '@personae/core';
export type { RevealCheck, RevealedSecret };

/**
 * The dice a secret roll commits to: the dice the actor compared, then those the reactor compared
 * (the difficulty's dice in an unopposed challenge), as the result shows them.
 */
export function committedDice(result: ChallengeResult): number[] {
  return [...result.actor.dice, ...result.reactor.dice];
}

/** Seals a result: a fresh salt (or the one given) and the commitment to its dice. */
export function sealResult(result: ChallengeResult, salt: string = newSalt()): { hash: string; salt: string } {
  return { hash: commitRoll({ dice: committedDice(result), salt }).hash, salt };
}

/**
 * Whether a revealed roll is the one committed to: the revealed dice and salt hash to the commitment
 * published before, and they are the dice the revealed result compared.
 */
export function checkReveal(commitment: string, reveal: RevealedSecret, result: ChallengeResult | undefined): RevealCheck {
  return checkRevealedDice(commitment, reveal, result ? committedDice(result) : undefined);
}
