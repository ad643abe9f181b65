import { expect } from 'vitest';
import type { ChallengeOdds, Verdict } from '../../src/index';

/**
 * Brute force for the odds tests: every ordered roll of a pool, grouped by the sorted roll (the resolver
 * sorts before anything else) with the number of orders it stands for, and exact integer tallies of
 * the verdicts the real resolver code returns on each.
 */
export interface Roll {
  /** Sorted high to low. */
  readonly dice: number[];
  /** How many ordered rolls sort to these dice. */
  readonly count: number;
}

const cache = new Map<number, Roll[]>();

export function allRolls(n: number): Roll[] {
  let rolls = cache.get(n);
  if (!rolls) {
    const byKey = new Map<string, Roll>();
    const total = 10 ** n;
    for (let i = 0; i < total; i++) {
      const dice: number[] = [];
      for (let k = 0, x = i; k < n; k++, x = Math.floor(x / 10)) dice.push((x % 10) + 1);
      dice.sort((a, b) => b - a);
      const key = dice.join(',');
      const had = byKey.get(key);
      byKey.set(key, { dice, count: (had?.count ?? 0) + 1 });
    }
    rolls = [...byKey.values()];
    cache.set(n, rolls);
  }
  return rolls;
}

/** Integer tallies of verdicts, weighted by numbers of ordered rolls. */
export class Tally {
  success = 0;
  clear = 0;
  failure = 0;
  tie = 0;
  rerolled = 0;
  readonly critA: number[] = [];
  readonly critR: number[] = [];
  /** The rerolled attempts themselves: what is left when every attempt is a full tie (two empty pools). */
  private rerolledTally: Tally | undefined;

  add(v: Pick<Verdict, 'outcome' | 'grade' | 'criticals' | 'rerollFullTie'>, w: number): void {
    if (v.rerollFullTie) {
      this.rerolled += w;
      (this.rerolledTally ??= new Tally()).add({ ...v, rerollFullTie: false }, w);
      return;
    }
    if (v.outcome === 'success') {
      this.success += w;
      if (v.grade === 'clear') this.clear += w;
    } else if (v.outcome === 'failure') this.failure += w;
    else this.tie += w;
    this.critA[v.criticals.actor] = (this.critA[v.criticals.actor] ?? 0) + w;
    this.critR[v.criticals.reactor] = (this.critR[v.criticals.reactor] ?? 0) + w;
  }

  /** The odds, conditioned (as documented for fullTie = reroll) on the attempt not being rerolled. */
  odds(): Omit<ChallengeOdds, 'method'> {
    const kept = this.success + this.failure + this.tie;
    if (kept === 0 && this.rerolledTally) return this.rerolledTally.odds();
    const dist = (xs: number[]): number[] => Array.from({ length: Math.max(1, xs.length) }, (_, i) => (xs[i] ?? 0) / kept);
    return {
      success: this.success / kept,
      clearSuccess: this.clear / kept,
      glancingSuccess: (this.success - this.clear) / kept,
      failure: this.failure / kept,
      fullTie: this.tie / kept,
      criticals: dist(this.critA),
      reactorCriticals: dist(this.critR),
    };
  }
}

/** Every probability within `tol` (criticals compared entry by entry, missing entries being 0). */
export function expectSameOdds(actual: ChallengeOdds, expected: Omit<ChallengeOdds, 'method'>, label: string, tol = 1e-12): void {
  const fields = ['success', 'clearSuccess', 'glancingSuccess', 'failure', 'fullTie'] as const;
  for (const f of fields) {
    if (!(Math.abs(actual[f] - expected[f]) <= tol)) expect.fail(`${label}: ${f} ${actual[f]} but brute force gives ${expected[f]}`);
  }
  for (const f of ['criticals', 'reactorCriticals'] as const) {
    const n = Math.max(actual[f].length, expected[f].length);
    for (let i = 0; i < n; i++) {
      const a = actual[f][i] ?? 0;
      const e = expected[f][i] ?? 0;
      if (!(Math.abs(a - e) <= tol)) expect.fail(`${label}: ${f}[${i}] ${a} but brute force gives ${e}`);
    }
  }
}
