import { RuleError } from '@personae/core';
import { ruleCitation } from './rules';

/**
 * Baton Pass (d100-combat-rules.txt, "Baton Pass"): a One More may pass to an ally who is a
 * Confidant with Social Link rank 1 or more; the Receiver gains 1 Advantage, plus one at ranks 4, 7
 * and 10; nobody who has given or received a pass in the chain may receive again.
 */
export function batonAdvantages(socialLinkRank: number): number {
  return 1 + [4, 7, 10].filter((r) => socialLinkRank >= r).length;
}

export function checkBatonPass(chain: readonly string[], from: string, to: string, socialLinkRank: number, sameSide: boolean): void {
  const cite = ruleCitation('batonPass');
  if (from === to) throw new RuleError('baton-self', 'a Baton Pass goes to another character', 'to', cite);
  if (!sameSide) throw new RuleError('baton-not-ally', `${to} is not an ally of ${from}`, 'to', cite);
  if (socialLinkRank < 1) throw new RuleError('baton-no-link', `${to} is not a Confidant of ${from} with Social Link rank 1 or more (rank ${socialLinkRank})`, 'to', cite);
  if (chain.includes(to)) throw new RuleError('baton-twice', `${to} has already given or received a Baton Pass in this chain`, 'to', cite);
}
