import type { DiceSource } from '@personae/dice';
import { scoreModifier } from './attributes';
import type { BuffBreakResult } from './buffs';
import type { LucidityOptions } from './options';
import { lucidityRollTarget } from './odds';
import { checkWhole, d20WithBuffs } from './roll';

export interface LucidityRollInput {
  readonly d20?: number;
  readonly current: number;
  /** The relevant attribute: a modifier (-3..+3), or a score (3..18) under lucidityAttribute=score. */
  readonly attribute?: number;
  /** A GM's modifier to the target (major and rescue exploits: "modified at the GM's discretion"). */
  readonly gmModifier?: number;
  readonly buffs?: number;
  readonly breaks?: number;
  readonly buffDice?: readonly number[];
  readonly breakDice?: readonly number[];
  /** True when success costs nothing: the 0-Health roll, a rescue under Rescuer. */
  readonly free?: boolean;
}

export interface LucidityRollResult {
  readonly d20: number;
  /** The d20 after buffs (subtracted) and breaks (added). */
  readonly effectiveDie: number;
  readonly buffsBreaks: BuffBreakResult;
  readonly target: number;
  readonly success: boolean;
  readonly lucidityBefore: number;
  readonly lucidityAfter: number;
  readonly spent: number;
  /** How far the die missed: 0 on a success. */
  readonly missedBy: number;
  readonly explanation: string;
}

/**
 * The Lucidity roll (lucidity-primary-character.txt, "Lucidity"): roll a d20 under Current Lucidity plus
 * the relevant attribute; a die at or under the target succeeds, and each success lowers Current
 * Lucidity by 1 (never below 0). It may stand in for any d20 roll. Buffs lower the die, breaks raise it.
 */
export function rollLucidity(input: LucidityRollInput, opts: LucidityOptions, dice?: DiceSource): LucidityRollResult {
  checkWhole(input.current, 'current', 0, 1000);
  const attribute = input.attribute ?? 0;
  if (opts.lucidityAttribute === 'score') {
    if (input.attribute !== undefined) scoreModifier(attribute); // refuses a score outside 3..18
  } else checkWhole(attribute, 'attribute', -3, 3);
  const gm = input.gmModifier ?? 0;
  checkWhole(gm, 'gmModifier');
  const { d20, bb } = d20WithBuffs(input, opts, dice);
  // C3: the attribute is a modifier, or a score under lucidityAttribute=score. C4: it raises the target raises the target, or only Current Lucidity counts.
  const target = lucidityRollTarget({ current: input.current, attribute, gmModifier: gm }, opts);
  const effectiveDie = d20 - bb.value;
  const success = effectiveDie <= target;
  const spent = success && !input.free && input.current > 0 ? 1 : 0;
  const after = input.current - spent;
  const parts = [`d20 ${d20}`];
  if (bb.value !== 0) parts.push(`${bb.value > 0 ? '-' : '+'}${Math.abs(bb.value)} ${bb.value > 0 ? 'buff' : 'break'} = ${effectiveDie}`);
  const explanation = `${parts.join(' ')} against Lucidity ${target}: ${success ? `success${input.free ? ' (costs no Lucidity)' : `, Lucidity ${input.current} -> ${after}`}` : `failure by ${effectiveDie - target}`}`;
  return {
    d20,
    effectiveDie,
    buffsBreaks: bb,
    target,
    success,
    lucidityBefore: input.current,
    lucidityAfter: after,
    spent,
    missedBy: success ? 0 : effectiveDie - target,
    explanation,
  };
}

