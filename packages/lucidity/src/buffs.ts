import { RuleError, type Modifier } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { seed } from './citation';
import type { LucidityOptions } from './options';

/** A buff or a break with its reason ("Wingman", "high ground", "Help from Ana"). */
export interface BuffReason {
  readonly reason: string;
}

export interface BuffBreakResult {
  readonly buffs: number;
  readonly breaks: number;
  /** Buffs less breaks after cancelling; the sign says which side is rolled. */
  readonly net: number;
  /** The buff d6s that counted (rolled or given). */
  readonly buffDice: readonly number[];
  readonly breakDice: readonly number[];
  /** What the d6s add to the roll: + the highest buff die, - the highest break die, or 0. */
  readonly value: number;
  readonly modifier: Modifier | null;
}

function checkD6(values: readonly number[], field: string): void {
  for (const v of values) {
    if (!Number.isInteger(v) || v < 1 || v > 6) {
      throw new RuleError('lucidity.d6', `${field}: a buff or break die is a d6 showing 1 to 6, not ${v}`, field, seed('Buffs and Breaks'));
    }
  }
}

/**
 * Buffs and breaks (lucidity-primary-character.txt, "Buffs and Breaks"): they cancel one for one; each
 * one left is a d6, the highest of them is added (buffs) or taken off (breaks).
 *
 * `given` holds dice already rolled: under cancel-then-highest only the side left after cancelling is
 * rolled, so given dice of the other side are ignored and, of the side left, the highest `|net|` given
 * dice count (a player may also give only those): the result never depends on the order the dice are
 * listed in. Missing dice come from `dice`.
 */
export function resolveBuffsBreaks(
  counts: { buffs: number; breaks: number },
  opts: Pick<LucidityOptions, 'buffBreakDice'>,
  dice?: DiceSource,
  given: { buffDice?: readonly number[]; breakDice?: readonly number[] } = {},
): BuffBreakResult {
  const { buffs, breaks } = counts;
  for (const [n, field] of [
    [buffs, 'buffs'],
    [breaks, 'breaks'],
  ] as const) {
    if (!Number.isInteger(n) || n < 0 || n > 100) throw new RuleError('lucidity.buffs', `${field}: a count of d6s from 0 to 100, not ${n}`, field, seed('Buffs and Breaks'));
  }
  const givenBuffs = given.buffDice ?? [];
  const givenBreaks = given.breakDice ?? [];
  checkD6(givenBuffs, 'buff');
  checkD6(givenBreaks, 'break');
  const take = (n: number, from: readonly number[], field: string): number[] => {
    const out = [...from].sort((a, b) => b - a).slice(0, n);
    while (out.length < n) {
      if (!dice) throw new RuleError('lucidity.d6', `${field}: ${n} d6(s) needed, ${from.length} given`, field, seed('Buffs and Breaks'));
      out.push(dice.die(6));
    }
    return out;
  };
  const net = buffs - breaks;
  let buffDice: number[] = [];
  let breakDice: number[] = [];
  let value = 0;
  if (opts.buffBreakDice === 'cancel-then-highest') {
    if (net > 0) buffDice = take(net, givenBuffs, 'buff');
    if (net < 0) breakDice = take(-net, givenBreaks, 'break');
    value = net > 0 ? Math.max(...buffDice) : net < 0 ? -Math.max(...breakDice) : 0;
  } else {
    buffDice = take(buffs, givenBuffs, 'buff');
    breakDice = take(breaks, givenBreaks, 'break');
    value = (buffDice.length ? Math.max(...buffDice) : 0) - (breakDice.length ? Math.max(...breakDice) : 0);
  }
  const label = value >= 0 ? `buff d6 (${buffs} buff, ${breaks} break)` : `break d6 (${buffs} buff, ${breaks} break)`;
  return { buffs, breaks, net, buffDice, breakDice, value, modifier: buffs + breaks === 0 ? null : { slug: value >= 0 ? 'buff' : 'break', label, value } };
}
