import { explainTotal, RuleError, sumModifiers, type Modifier } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { resolveBuffsBreaks, type BuffBreakResult } from './buffs';
import { seed } from './citation';
import type { LucidityOptions } from './options';

export interface D20RollInput {
  /** The d20 already rolled; rolled from `dice` when absent. */
  readonly d20?: number;
  /** Attribute, skill rank, trait bonuses: each with its label. */
  readonly modifiers?: readonly Modifier[];
  readonly buffs?: number;
  readonly breaks?: number;
  readonly buffDice?: readonly number[];
  readonly breakDice?: readonly number[];
  /** The number to beat (Defense, a target the GM sets, 10 + an attribute). */
  readonly target: number;
}

export interface D20RollResult {
  readonly d20: number;
  readonly modifiers: readonly Modifier[];
  readonly buffsBreaks: BuffBreakResult;
  readonly total: number;
  readonly target: number;
  readonly success: boolean;
  /** True when a natural 20 succeeded though the total did not (option criticalSuccess). */
  readonly critical: boolean;
  /** Total less target (positive on a roll that beats the target). */
  readonly margin: number;
  readonly explanation: string;
}

export function checkD20(d20: number, field = 'd20'): void {
  if (!Number.isInteger(d20) || d20 < 1 || d20 > 20) throw new RuleError('lucidity.d20', `${field}: a d20 shows 1 to 20, not ${d20}`, field, seed('Lucidity'));
}

export function checkWhole(n: number, field: string, min = -1000, max = 1000): void {
  if (!Number.isInteger(n) || n < min || n > max) throw new RuleError('lucidity.number', `${field}: a whole number from ${min} to ${max}, not ${n}`, field);
}

/** The buffs and breaks of a roll: counted, or one per die given. */
export interface BuffBreakInput {
  readonly d20?: number;
  readonly buffs?: number;
  readonly breaks?: number;
  readonly buffDice?: readonly number[];
  readonly breakDice?: readonly number[];
}

/**
 * The d20 (given, or rolled from `dice`) and the buff and break d6s of one roll ("Buffs and Breaks"):
 * the part every d20 roll and every Lucidity roll share.
 */
export function d20WithBuffs(input: BuffBreakInput, opts: LucidityOptions, dice?: DiceSource): { d20: number; bb: BuffBreakResult } {
  let d20 = input.d20;
  if (d20 === undefined) {
    if (!dice) throw new RuleError('lucidity.d20', 'd20: no die given and no dice to roll it', 'd20');
    d20 = dice.die(20);
  }
  checkD20(d20);
  const bb = resolveBuffsBreaks({ buffs: input.buffs ?? input.buffDice?.length ?? 0, breaks: input.breaks ?? input.breakDice?.length ?? 0 }, opts, dice, {
    ...(input.buffDice ? { buffDice: input.buffDice } : {}),
    ...(input.breakDice ? { breakDice: input.breakDice } : {}),
  });
  return { d20, bb };
}

/** Whether a total succeeds against a target (option successOn; the seed: an attack must "excede" Defense). */
export function beats(total: number, target: number, opts: Pick<LucidityOptions, 'successOn'>): boolean {
  return opts.successOn === 'exceed' ? total > target : total >= target;
}

/**
 * Whether a d20 roll succeeds: its total beats the target, or (option criticalSuccess=natural-20) the
 * die shows 20. The seed defines no natural 1: a 1 fails only when its total does not beat the target
 * ("Hitting 0 Health" speaks of a "critical success" and of nothing else a die face does).
 */
export function d20Succeeds(d20: number, total: number, target: number, opts: Pick<LucidityOptions, 'successOn' | 'criticalSuccess'>): boolean {
  return beats(total, target, opts) || (opts.criticalSuccess === 'natural-20' && d20 === 20);
}

/**
 * An ordinary d20 roll: d20 + attribute + skill rank + trait bonuses, + the highest buff d6 or - the
 * highest break d6 (lucidity-primary-character.txt, "Creating Skills", "Buffs and Breaks"; the
 * comparison: "How Combat Works").
 */
export function rollD20(input: D20RollInput, opts: LucidityOptions, dice?: DiceSource): D20RollResult {
  checkWhole(input.target, 'target');
  const mods = input.modifiers ?? [];
  for (const m of mods) checkWhole(m.value, `modifier ${m.label}`);
  const { d20, bb } = d20WithBuffs(input, opts, dice);
  const all = bb.modifier ? [...mods, bb.modifier] : [...mods];
  const total = d20 + sumModifiers(all);
  const success = d20Succeeds(d20, total, input.target, opts);
  const critical = success && !beats(total, input.target, opts);
  const explanation = `${explainTotal(d20, all, 'd20')} against ${input.target}: ${success ? 'success' : 'failure'}${critical ? ' (natural 20)' : ''}`;
  return { d20, modifiers: mods, buffsBreaks: bb, total, target: input.target, success, critical, margin: total - input.target, explanation };
}

/**
 * The number a roll "against the target's AWA" (Charm/Deceive, Read a Person) must beat (option
 * passiveValue): 10 + that attribute, or the target's own d20 + attribute.
 */
export function againstTarget(defenderAttribute: number, opts: Pick<LucidityOptions, 'passiveValue'>, dice?: DiceSource, defenderD20?: number): { target: number; defenderD20: number | null } {
  if (opts.passiveValue === 'ten-plus-attribute') return { target: 10 + defenderAttribute, defenderD20: null };
  let d = defenderD20;
  if (d === undefined) {
    if (!dice) throw new RuleError('lucidity.d20', 'defenderD20: no die given and no dice to roll it', 'defenderD20');
    d = dice.die(20);
  }
  checkD20(d, 'defenderD20');
  return { target: d + defenderAttribute, defenderD20: d };
}

/**
 * Who wins an opposed roll (option opposedTie on equal totals): 'attacker', 'defender', or 'reroll'
 * when the pair is to be rolled again.
 */
export function opposedWinner(total: number, defenderTotal: number, opts: Pick<LucidityOptions, 'opposedTie'>): 'attacker' | 'defender' | 'reroll' {
  if (total > defenderTotal) return 'attacker';
  if (total < defenderTotal) return 'defender';
  return opts.opposedTie;
}
