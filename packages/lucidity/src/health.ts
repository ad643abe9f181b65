import { RuleError } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { seed } from './citation';
import { rollLucidity, type LucidityRollResult } from './lucidity';
import type { LucidityOptions } from './options';
import { checkWhole } from './roll';

/** Health, Lucidity and Energy, current and maximum. */
export interface Vitals {
  readonly health: number;
  readonly maxHealth: number;
  readonly lucidity: number;
  readonly maxLucidity: number;
  readonly energy: number;
  readonly maxEnergy: number;
}

export interface DamageResult {
  readonly vitals: Vitals;
  readonly toHealth: number;
  readonly toLucidity: number;
  /** True when this damage counts toward the end-of-round Lucidity (CON) roll (option zeroHealthTrigger). */
  readonly triggersZeroHealthRoll: boolean;
  /** True under lucidityBelowZero=death when the damage went past the last Lucidity. */
  readonly dies: boolean;
}

/**
 * Damage (lucidity-primary-character.txt, "Hitting 0 Health"): it comes off Health; what goes past 0,
 * and all damage taken at 0 Health, comes off Current Lucidity.
 */
export function applyDamage(v: Vitals, amount: number, opts: Pick<LucidityOptions, 'zeroHealthTrigger' | 'lucidityBelowZero'>): DamageResult {
  checkWhole(amount, 'damage', 0, 100000);
  const wasAtZero = v.health === 0;
  const toHealth = Math.min(v.health, amount);
  const excess = amount - toHealth;
  const toLucidity = Math.min(v.lucidity, excess);
  const dies = opts.lucidityBelowZero === 'death' && excess > v.lucidity;
  const health = v.health - toHealth;
  const triggers = amount > 0 && (wasAtZero || (opts.zeroHealthTrigger === 'reaching-zero' && health === 0));
  return { vitals: { ...v, health, lucidity: v.lucidity - toLucidity }, toHealth, toLucidity, triggersZeroHealthRoll: triggers, dies };
}

export type ZeroHealthOutcome =
  | { readonly kind: 'nothing' }
  | { readonly kind: 'minor-wound'; readonly heals: '2-3 days' }
  | { readonly kind: 'wound'; readonly heals: '1-2 weeks' }
  | { readonly kind: 'major-wound'; readonly heals: '1-3 months' }
  | { readonly kind: 'disability'; readonly heals: 'never naturally' }
  | { readonly kind: 'final-turn' };

/** The Degree of Failure table of "Hitting 0 Health" (the GM rules within it). */
export function zeroHealthOutcome(degree: number): ZeroHealthOutcome {
  if (degree <= 0) return { kind: 'nothing' };
  if (degree === 1) return { kind: 'minor-wound', heals: '2-3 days' };
  if (degree === 2) return { kind: 'wound', heals: '1-2 weeks' };
  if (degree === 3) return { kind: 'major-wound', heals: '1-3 months' };
  if (degree === 4) return { kind: 'disability', heals: 'never naturally' };
  return { kind: 'final-turn' };
}

/** Degree of Failure from how far a Lucidity roll missed (option degreeOfFailure). */
export function degreeOfFailure(missedBy: number, opts: Pick<LucidityOptions, 'degreeOfFailure'>): number {
  if (missedBy <= 0) return 0;
  return opts.degreeOfFailure === 'points' ? missedBy : Math.ceil(missedBy / 5);
}

export interface ZeroHealthRollResult {
  readonly roll: LucidityRollResult;
  readonly degree: number;
  readonly outcome: ZeroHealthOutcome;
  /** Lucidity after the roll (restored to max on a final turn under finalTurnLucidity=restore-at-final-turn). */
  readonly lucidityAfter: number;
}

/**
 * The end-of-round roll at 0 Health ("Hitting 0 Health"): a Lucidity (CON) roll that costs no Lucidity;
 * a failure is looked up by its Degree of Failure.
 */
export function zeroHealthRoll(v: Vitals, con: number, opts: LucidityOptions, dice?: DiceSource, d20?: number): ZeroHealthRollResult {
  const roll = rollLucidity({ current: v.lucidity, attribute: con, free: true, ...(d20 !== undefined ? { d20 } : {}) }, opts, dice);
  const degree = degreeOfFailure(roll.missedBy, opts);
  const outcome = zeroHealthOutcome(degree);
  const restore = outcome.kind === 'final-turn' && opts.finalTurnLucidity === 'restore-at-final-turn';
  return { roll, degree, outcome, lucidityAfter: restore ? v.maxLucidity : roll.lucidityAfter };
}

export interface RestResult {
  readonly vitals: Vitals;
  readonly healthDice: readonly number[];
  readonly healed: number;
  readonly lucidityGained: number;
}

function d4s(n: number, dice: DiceSource | undefined, given: readonly number[]): number[] {
  const out = given.slice(0, n);
  for (const v of out) {
    if (!Number.isInteger(v) || v < 1 || v > 4) throw new RuleError('lucidity.d4', `a d4 shows 1 to 4, not ${v}`, 'd4', seed('Long Rests'));
  }
  while (out.length < n) {
    if (!dice) throw new RuleError('lucidity.d4', `${n} d4(s) needed, ${given.length} given`, 'd4', seed('Long Rests'));
    out.push(dice.die(4));
  }
  return out;
}

/**
 * A long rest (seed "Long Rests"): 1d4 Health (one more with Fast Healer), all Energy, 1 Lucidity.
 * With a Lunar Pause ("Regaining Lucidity", "Lunar Pauses"; option lunarLucidity): 2 Lucidity in all, or
 * 4 when the three rules add up. Nothing rises above its maximum.
 */
export function longRest(
  v: Vitals,
  traits: readonly string[],
  opts: Pick<LucidityOptions, 'lunarLucidity'>,
  rest: { lunarPause?: boolean; healthDice?: readonly number[] } = {},
  dice?: DiceSource,
): RestResult {
  const healthDice = d4s(traits.includes('Fast Healer') ? 2 : 1, dice, rest.healthDice ?? []);
  const heal = healthDice.reduce((a, b) => a + b, 0);
  const gain = rest.lunarPause ? (opts.lunarLucidity === 'two-total' ? 2 : 4) : 1;
  const health = Math.min(v.maxHealth, v.health + heal);
  const lucidity = Math.min(v.maxLucidity, v.lucidity + gain);
  return { vitals: { ...v, health, lucidity, energy: v.maxEnergy }, healthDice, healed: health - v.health, lucidityGained: lucidity - v.lucidity };
}

/** Half damage on a success, rounded down (seed "Narrative Combat"; option narrativeDamage). */
export function narrativeDamage(attribute: number, targetResisted: boolean, opts: Pick<LucidityOptions, 'narrativeDamage'>): number {
  const full = Math.max(0, attribute);
  return opts.narrativeDamage === 'target-resist' && targetResisted ? Math.floor(full / 2) : full;
}

/**
 * Rounds a spell's casting time grows ("Begin Casting a Spell"): 1 when the caster takes 10 + CON damage,
 * in one hit (castDelayDamage=single-instance) or in all while casting (cumulative).
 */
export function castingDelay(hits: readonly number[], con: number, opts: Pick<LucidityOptions, 'castDelayDamage'>): number {
  const threshold = 10 + con;
  const reached = opts.castDelayDamage === 'single-instance' ? hits.some((h) => h >= threshold) : hits.reduce((a, b) => a + b, 0) >= threshold;
  return reached ? 1 : 0;
}

/** Current values after a level-up (option levelUpCurrent): they rise with their maxima, or stay. */
export function currentAfterLevelUp(v: Vitals, after: { maxHealth: number; maxLucidity: number; maxEnergy: number }, opts: Pick<LucidityOptions, 'levelUpCurrent'>): Vitals {
  const raise = opts.levelUpCurrent === 'raise-with-max';
  const next = (cur: number, oldMax: number, newMax: number) => Math.max(0, Math.min(newMax, raise ? cur + (newMax - oldMax) : cur));
  return {
    health: next(v.health, v.maxHealth, after.maxHealth),
    maxHealth: after.maxHealth,
    lucidity: next(v.lucidity, v.maxLucidity, after.maxLucidity),
    maxLucidity: after.maxLucidity,
    energy: next(v.energy, v.maxEnergy, after.maxEnergy),
    maxEnergy: after.maxEnergy,
  };
}
