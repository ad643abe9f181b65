import type { DiceSource, DiceSourceKind } from './source';

/** A rolled pool of dice: every die in the order rolled, and the same dice sorted high to low. */
export interface Roll {
  readonly sides: number;
  readonly rolled: readonly number[];
  readonly sorted: readonly number[];
  readonly source: DiceSourceKind;
}

/** The dice sorted high to low, in a new array (the one array allocated). */
export function sortDescending(dice: readonly number[]): number[] {
  return sortDescendingInPlace(dice.slice());
}

/** Pools longer than this go to Array.prototype.sort; shorter ones are sorted by insertion, which allocates nothing. */
const INSERTION_SORT_MAX = 32;

/** Sort `dice` high to low where it lies, and return it. */
export function sortDescendingInPlace(dice: number[]): number[] {
  if (dice.length > INSERTION_SORT_MAX) return dice.sort(descending);
  for (let i = 1; i < dice.length; i++) {
    const d = dice[i]!;
    let j = i - 1;
    while (j >= 0 && dice[j]! < d) {
      dice[j + 1] = dice[j]!;
      j--;
    }
    dice[j + 1] = d;
  }
  return dice;
}

function descending(a: number, b: number): number {
  return b - a;
}

/** Roll `count` dice with `sides` faces from the given source. */
export function rollPool(source: DiceSource, count: number, sides = 10): Roll {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`a pool needs a whole number of dice >= 0, got ${count}`);
  const rolled = new Array<number>(count);
  for (let i = 0; i < count; i++) rolled[i] = source.die(sides);
  return { sides, rolled, sorted: sortDescending(rolled), source: source.kind };
}

/** A roll made of results already known (typed in or replayed from a log). */
export function knownRoll(dice: readonly number[], source: DiceSourceKind = 'given', sides = 10): Roll {
  return { sides, rolled: dice.slice(), sorted: sortDescending(dice), source };
}
