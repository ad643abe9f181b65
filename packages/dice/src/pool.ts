import type { DiceSource, DiceSourceKind } from './source';

/** A rolled pool of dice: every die in the order rolled, and the same dice sorted high to low. */
export interface Roll {
  readonly sides: number;
  readonly rolled: readonly number[];
  readonly sorted: readonly number[];
  readonly source: DiceSourceKind;
}

export function sortDescending(dice: readonly number[]): number[] {
  return [...dice].sort((a, b) => b - a);
}

/** Roll `count` dice with `sides` faces from the given source. */
export function rollPool(source: DiceSource, count: number, sides = 10): Roll {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`a pool needs a whole number of dice >= 0, got ${count}`);
  const rolled: number[] = [];
  for (let i = 0; i < count; i++) rolled.push(source.die(sides));
  return { sides, rolled, sorted: sortDescending(rolled), source: source.kind };
}

/** A roll made of results already known (typed in or replayed from a log). */
export function knownRoll(dice: readonly number[], source: DiceSourceKind = 'given', sides = 10): Roll {
  return { sides, rolled: [...dice], sorted: sortDescending(dice), source };
}
