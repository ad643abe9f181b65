import { binomialTables, row } from './binomial';

/**
 * How the dice comparison of a challenge is decided (personae-core-2011.txt "The Challenge", steps 2-4;
 * personae-v4-srd-playing.txt "The Challenge"): on the highest pair, on the second pair after the first
 * tied, and so on; on the dice one side has left once every pair tied; or not at all (a full tie).
 *
 * This is the raw comparison of the dice, before the table's rules read it (natural-10 rules, grades,
 * steering). Its total for the actor equals the actor's chance of winning the comparison.
 */
export interface DecidingPairs {
  /** actor[k - 1]: the chance that the actor wins on pair k (every earlier pair tied). */
  readonly actor: number[];
  /** The same for the reactor. */
  readonly reactor: number[];
  /** The chance that every pair tied and the actor still had dice: the actor wins on its extra dice. */
  readonly actorExtraDice: number;
  readonly reactorExtraDice: number;
  /** The chance that every pair tied and neither side had dice left. */
  readonly fullTie: number;
}

/**
 * Exact distribution of the deciding pair for `actorDice` against `reactorDice` independent d10s, the
 * actor's modifier exceeding the reactor's by `diff`.
 *
 * Totals are walked from the highest down, as in exact.ts: while every pair so far tied both sides have
 * used k dice, and their other dice lie at or below the current level, so the count each side shows at
 * the level is binomial. Equal counts keep the tie; otherwise the side with more dice at the level wins
 * on the pair after the smaller count, or on its extra dice when the other side has none left.
 */
export function decidingPairs(actorDice: number, reactorDice: number, diff: number): DecidingPairs {
  for (const [what, v] of [
    ['actorDice', actorDice],
    ['reactorDice', reactorDice],
  ] as const) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${what} must be a whole number of at least 0, got ${v}`);
  }
  if (!Number.isInteger(diff)) throw new RangeError(`diff must be a whole number, got ${diff}`);
  const n = actorDice;
  const m = reactorDice;
  const pairs = Math.min(n, m);
  const t = binomialTables(Math.max(n, m));
  const actor = new Array<number>(pairs).fill(0);
  const reactor = new Array<number>(pairs).fill(0);
  let actorExtraDice = 0;
  let reactorExtraDice = 0;
  // tied[k]: the chance that both sides have used k dice and every pair so far tied.
  let tied = new Float64Array(pairs + 1);
  tied[0] = 1;
  // Level L: the actor's dice showing L - diff and the reactor's showing L (the reactor's modifier taken as 0).
  const top = Math.max(10 + diff, 10);
  const bottom = Math.min(1 + diff, 1);
  for (let level = top; level >= bottom; level--) {
    const next = new Float64Array(pairs + 1);
    for (let k = 0; k <= pairs; k++) {
      const p = tied[k]!;
      if (p === 0) continue;
      const leftA = n - k;
      const leftR = m - k;
      const rowA = row(t, level - diff, leftA);
      const rowR = row(t, level, leftR);
      for (let x = 0; x <= leftA; x++) {
        const px = t.pmf[rowA + x]!;
        if (px === 0) continue;
        for (let y = 0; y <= leftR; y++) {
          const q = p * px * t.pmf[rowR + y]!;
          if (q === 0) continue;
          if (x === y) next[k + x]! += q;
          else if (x > y) {
            if (y === leftR) actorExtraDice += q;
            else actor[k + y]! += q;
          } else if (x === leftA) reactorExtraDice += q;
          else reactor[k + x]! += q;
        }
      }
    }
    tied = next;
  }
  // Below the lowest level every die has been placed: what is still tied used all dice on both sides.
  return { actor, reactor, actorExtraDice, reactorExtraDice, fullTie: tied[pairs]! };
}

/** The chance of at least k, for k = 0, 1, ...: the tail sums of a distribution. */
export function atLeast(distribution: readonly number[]): number[] {
  const out = new Array<number>(distribution.length).fill(0);
  let acc = 0;
  for (let k = distribution.length - 1; k >= 0; k--) {
    acc += distribution[k]!;
    out[k] = acc;
  }
  return out;
}

/** The chance of at most k, for k = 0, 1, ...: the running sums of a distribution. */
export function atMost(distribution: readonly number[]): number[] {
  let acc = 0;
  return distribution.map((p) => (acc += p));
}

/** The mean of a distribution over 0, 1, 2, ... */
export function expected(distribution: readonly number[]): number {
  return distribution.reduce((sum, p, k) => sum + k * p, 0);
}
