import { addToTally, emptyTally, type DiceTally } from '@personae/core';
import type { ChallengeResult, SideResult } from '../challenge';
import { oddsOfRolled } from '../lab/rejudge';
import type { TableOptions } from '../options';

/**
 * A fairness check of physical dice, for the GM: per participant, the faces they typed in and how
 * often the challenges they typed dice in for succeeded, against a fair d10 and the exact odds. The
 * table keeps running sums as it folds its events (dice taken back by an undo were still rolled, and
 * stay counted); the GM's view turns them into tests (fairnessRows, with faceFit and outcomeFit, in
 * @personae/core, shared with the other rulesets' tables). No one else's view carries them.
 */
export { fairnessRows, type DiceTally, type FairnessRow } from '@personae/core';

const EMPTY: DiceTally = emptyTally(10);

const entered = (side: SideResult) => side.roll.source === 'given' && side.roll.sides === 10;

/**
 * A challenge's entered dice added to the tally of the participant who issued the command (a player
 * enters dice only for their own pools; the GM for any). One outcome per challenge: the actor's side
 * when its dice were entered, else the reactor's, so that two sides of one roll never count twice.
 */
export function tallyChallenge(tallies: Readonly<Record<string, DiceTally>>, by: string, result: ChallengeResult, options: TableOptions): Readonly<Record<string, DiceTally>> {
  if (result.kind === 'automatic' || result.kind === 'subsequent') return tallies;
  const actor = entered(result.actor);
  const reactor = entered(result.reactor);
  if (!actor && !reactor) return tallies;
  const before = Object.hasOwn(tallies, by) ? tallies[by]! : EMPTY;
  const faces = [actor ? result.actor : null, reactor ? result.reactor : null].flatMap((side) => side?.roll.rolled ?? []);
  let chance: number;
  try {
    // Plain pools: the tally is kept as the log is folded, where enumerating rerolls would cost too much.
    chance = oddsOfRolled(result, options, { plain: true }).success;
  } catch {
    // A pool the exact odds do not cover: its faces still count, its outcome does not.
    return { ...tallies, [by]: addToTally(before, faces, []) };
  }
  const p = actor ? chance : 1 - chance;
  const won = actor ? result.outcome === 'success' : result.outcome !== 'success';
  return { ...tallies, [by]: addToTally(before, faces, [{ chance: p, succeeded: won }]) };
}
