import type { D100Options } from './options';
import { checkRoll } from './test';

/** The six locations of a humanoid body. */
export const LOCATIONS = ['head', 'right-arm', 'left-arm', 'body', 'right-leg', 'left-leg'] as const;
export type Location = (typeof LOCATIONS)[number];

/**
 * The humanoid location table. The seed says only that each location owns a number range
 * (d100-combat-rules.txt, "How Attacks Work", Step Four); the ranges are those of the roll-under
 * family the seed is built on.
 */
export const LOCATION_TABLE: readonly { readonly location: Location; readonly from: number; readonly to: number }[] = [
  { location: 'head', from: 1, to: 10 },
  { location: 'right-arm', from: 11, to: 20 },
  { location: 'left-arm', from: 21, to: 30 },
  { location: 'body', from: 31, to: 70 },
  { location: 'right-leg', from: 71, to: 85 },
  { location: 'left-leg', from: 86, to: 100 },
];

/** The attack roll read as two digits ("05", "00" for 100) with the digits swapped. */
export function reverseDigits(roll: number): number {
  checkRoll(roll);
  const two = roll === 100 ? 0 : roll;
  const swapped = (two % 10) * 10 + Math.floor(two / 10);
  return swapped === 0 ? 100 : swapped;
}

export function locationOf(number: number): Location {
  checkRoll(number, 'location roll');
  return LOCATION_TABLE.find((r) => number >= r.from && number <= r.to)!.location;
}

export interface LocationResult {
  readonly roll: number;
  /** The number looked up on the table (the roll itself, or the reversed attack roll). */
  readonly number: number;
  readonly location: Location;
}

/** The location hit, from a fresh location roll or from the attack roll reversed (option `hitLocation`). */
export function hitLocation(roll: number, options: Pick<D100Options, 'hitLocation'>): LocationResult {
  checkRoll(roll);
  const number = options.hitLocation === 'reversed-attack-roll' ? reverseDigits(roll) : roll;
  return { roll, number, location: locationOf(number) };
}

/** Injury table block of each location (d100-combat-rules.txt, "Wounds and Injury"; the seed drops the headings). */
export type InjuryBlock = 'head' | 'body' | 'arm' | 'leg';
export function injuryBlock(location: Location): InjuryBlock {
  if (location === 'head' || location === 'body') return location;
  return location.endsWith('arm') ? 'arm' : 'leg';
}
