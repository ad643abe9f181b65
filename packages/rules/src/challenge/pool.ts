import { formatLabeled, sumLabeled, type Labeled } from '../effects';
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
  const bonus = spec.bonusDice ?? [];
  const penalty = spec.penaltyDice ?? [];
  let withBonus = spec.base + sumLabeled(bonus);
  const parts = [`${spec.baseSource} ${spec.base} ${spec.base === 1 ? 'die' : 'dice'}`, ...bonus.map((b) => formatLabeled(b, 'die'))];
  if (spec.maxDice !== undefined && !options.bonusDiceMayExceedCap && withBonus > spec.maxDice && bonus.length > 0) {
    const capped = Math.max(spec.base, spec.maxDice);
    parts.push(`(bonus dice capped at ${capped}: option bonusDiceMayExceedCap is false)`);
    withBonus = capped;
  }
  parts.push(...penalty.map((p) => formatLabeled({ value: -Math.abs(p.value), source: p.source }, 'die')));
  const raw = withBonus - sumLabeled(penalty.map((p) => ({ value: Math.abs(p.value), source: p.source })));
  const dice = atLeastMinimumPool(raw, options);
  if (dice !== raw) parts.push(`(at least ${options.minimumPool} by option minimumPool)`);
  return {
    dice,
    base: spec.base,
    bonus,
    penalty,
    explanation: `${parts.join(' ')} = ${dice} ${dice === 1 ? 'die' : 'dice'}`,
  };
}
