import { formatLabeled, formatValue, sumLabeled, type Labeled } from '../effects';

const NONE: readonly Labeled[] = Object.freeze([]);
import type { TableOptions } from '../options';

/**
 * How many dice a side rolls (personae-core-2011.txt "Skills", "The Challenge" step 1): the skill's
 * rating, one die unskilled, plus bonus dice (special abilities, expertise, assistants in the web
 * revision) less penalty dice (injury), never below the table's minimum pool.
 */
export interface PoolSpec {
  /** Dice from the skill: its rating, or 1 for an unskilled attempt. */
  readonly base: number;
  /** Where the base dice come from: "Longsword", "unskilled", "3d10". */
  readonly baseSource: string;
  readonly bonusDice?: readonly Labeled[];
  readonly penaltyDice?: readonly Labeled[];
  /** The most dice a skill may have (Potential + 2); bonus dice may pass it only if the table allows. */
  readonly maxDice?: number;
}

export interface PoolResult {
  readonly dice: number;
  readonly base: number;
  readonly bonus: readonly Labeled[];
  readonly penalty: readonly Labeled[];
  /** One line explaining the count: "Longsword 3 dice +1 die Expert Longsword -1 die Injured = 3 dice". */
  readonly explanation: string;
}

/** A pool's dice after bonus and penalty dice, raised to the table's minimum pool (option minimumPool). */
export function atLeastMinimumPool(dice: number, options: Pick<TableOptions, 'minimumPool'>): number {
  return Math.max(options.minimumPool, dice);
}

export function poolSize(spec: PoolSpec, options: Pick<TableOptions, 'minimumPool' | 'bonusDiceMayExceedCap'>): PoolResult {
  const bonus = spec.bonusDice ?? NONE;
  const penalty = spec.penaltyDice ?? NONE;
  let withBonus = spec.base + sumLabeled(bonus);
  let text = `${spec.baseSource} ${spec.base} ${spec.base === 1 ? 'die' : 'dice'}`;
  for (let i = 0; i < bonus.length; i++) text += ` ${formatLabeled(bonus[i]!, 'die')}`;
  if (spec.maxDice !== undefined && !options.bonusDiceMayExceedCap && withBonus > spec.maxDice && bonus.length > 0) {
    const capped = Math.max(spec.base, spec.maxDice);
    text += ` (bonus dice capped at ${capped}: option bonusDiceMayExceedCap is false)`;
    withBonus = capped;
  }
  // A penalty die removes a die whichever sign it was written with.
  let removed = 0;
  for (let i = 0; i < penalty.length; i++) {
    const p = penalty[i]!;
    text += ` ${formatValue(-Math.abs(p.value), p.source, 'die')}`;
    removed += Math.abs(p.value);
  }
  const raw = withBonus - removed;
  const dice = atLeastMinimumPool(raw, options);
  if (dice !== raw) text += ` (at least ${options.minimumPool} by option minimumPool)`;
  return {
    dice,
    base: spec.base,
    bonus,
    penalty,
    explanation: `${text} = ${dice} ${dice === 1 ? 'die' : 'dice'}`,
  };
}
