import { faceFit, type FaceFit, type OutcomeFit } from '@personae/core';
import type { ChallengeResult, SideResult } from '../challenge';
import { oddsOfRolled } from '../lab/rejudge';
import type { TableOptions } from '../options';

/**
 * A fairness check of physical dice, for the GM: per participant, the faces they typed in and how
 * often the challenges they typed dice in for succeeded, against a fair d10 and the exact odds. The
 * table keeps running sums as it folds its events (dice taken back by an undo were still rolled, and
 * stay counted); the GM's view turns them into tests (faceFit, outcomeFit in @personae/core). No one
 * else's view carries them.
 */
export interface DiceTally {
  /** Count of each face of the d10s entered, index 0 for face 1. */
  readonly faces: readonly number[];
  /** Challenges whose dice they entered, with the successes of the side they entered for. */
  readonly challenges: number;
  readonly successes: number;
  /** Sum of that side's exact chances of success, and of their variances. */
  readonly expected: number;
  readonly variance: number;
}

export interface FairnessRow {
  readonly participantId: string;
  readonly faces: FaceFit;
  readonly outcomes: OutcomeFit;
}

const EMPTY: DiceTally = { faces: new Array<number>(10).fill(0), challenges: 0, successes: 0, expected: 0, variance: 0 };

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
  const faces = [...before.faces];
  for (const side of [actor ? result.actor : null, reactor ? result.reactor : null]) for (const f of side?.roll.rolled ?? []) if (f >= 1 && f <= 10) faces[f - 1]!++;
  let chance: number;
  try {
    // Plain pools: the tally is kept as the log is folded, where enumerating rerolls would cost too much.
    chance = oddsOfRolled(result, options, { plain: true }).success;
  } catch {
    // A pool the exact odds do not cover: its faces still count, its outcome does not.
    return { ...tallies, [by]: { ...before, faces } };
  }
  const p = actor ? chance : 1 - chance;
  const won = actor ? result.outcome === 'success' : result.outcome !== 'success';
  return {
    ...tallies,
    [by]: { faces, challenges: before.challenges + 1, successes: before.successes + (won ? 1 : 0), expected: before.expected + p, variance: before.variance + p * (1 - p) },
  };
}

/** The tests for each participant who entered dice, most dice first. */
export function fairnessRows(tallies: Readonly<Record<string, DiceTally>>, significance = 0.01): FairnessRow[] {
  return Object.entries(tallies)
    .map(([participantId, t]) => {
      const faces = t.faces.flatMap((n, i) => new Array<number>(n).fill(i + 1));
      const z = t.variance > 0 ? (t.successes - t.expected) / Math.sqrt(t.variance) : 0;
      const outcomes: OutcomeFit = { challenges: t.challenges, successes: t.successes, expected: t.expected, z };
      return { participantId, faces: faceFit(faces, 10, significance), outcomes };
    })
    .sort((a, b) => b.faces.dice - a.faces.dice);
}
