import { RuleError } from '@personae/core';
import type { DiceSource } from '@personae/dice';
import { seed } from './citation';

/** The seven attributes, in the seed's order (Attributes). */
export const ATTRIBUTES = ['STR', 'DEX', 'CON', 'KNO', 'AWA', 'WIL', 'CHA'] as const;
export type Attribute = (typeof ATTRIBUTES)[number];

export const ATTRIBUTE_NAMES: Record<Attribute, string> = {
  STR: 'Strength',
  DEX: 'Dexterity',
  CON: 'Constitution',
  KNO: 'Knowledge',
  AWA: 'Awareness',
  WIL: 'Willpower',
  CHA: 'Charisma',
};

/** Attribute modifiers by abbreviation. Everywhere an abbreviation appears in a formula it means the modifier. */
export type Attributes = Readonly<Record<Attribute, number>>;

export function isAttribute(x: unknown): x is Attribute {
  return typeof x === 'string' && (ATTRIBUTES as readonly string[]).includes(x);
}

// lucidity-primary-character.txt, "Generating Attributes": the score-to-modifier table.
const MODIFIER_BANDS: readonly (readonly [number, number, number])[] = [
  [3, 3, -3],
  [4, 5, -2],
  [6, 8, -1],
  [9, 12, 0],
  [13, 15, 1],
  [16, 17, 2],
  [18, 18, 3],
];

export const MIN_SCORE = 3;
export const MAX_SCORE = 18;
/** Modifiers run from -3 to +3 (the table's ends; a level-up cannot raise one above +3). */
export const MIN_MODIFIER = -3;
export const MAX_MODIFIER = 3;

/** The modifier of a score from 3 to 18 (4d6 drop lowest). */
export function scoreModifier(score: number): number {
  for (const [lo, hi, mod] of MODIFIER_BANDS) if (score >= lo && score <= hi) return mod;
  throw new RuleError('lucidity.score', `an attribute score is a whole number from 3 to 18 (4d6, lowest dropped), not ${score}`, 'score', seed('Generating Attributes'));
}

/** The array a player may take instead of rolling (Generating Attributes). */
export const STANDARD_ARRAY: readonly number[] = [2, 1, 1, 1, 0, 0, -1];

/** Whether `mods` is the standard array in some order. */
export function isStandardArray(mods: readonly number[]): boolean {
  const a = [...mods].sort((x, y) => x - y);
  const b = [...STANDARD_ARRAY].sort((x, y) => x - y);
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

export interface RolledScore {
  readonly dice: readonly number[];
  readonly dropped: number;
  readonly score: number;
  readonly modifier: number;
}

/** One score: 4d6, the lowest dropped (Generating Attributes). */
export function rollScore(dice: DiceSource): RolledScore {
  const rolled = [dice.die(6), dice.die(6), dice.die(6), dice.die(6)];
  const dropped = Math.min(...rolled);
  const score = rolled.reduce((a, b) => a + b, 0) - dropped;
  return { dice: rolled, dropped, score, modifier: scoreModifier(score) };
}

/** Seven scores, in the order rolled. */
export function rollScores(dice: DiceSource): RolledScore[] {
  return ATTRIBUTES.map(() => rollScore(dice));
}
