import type { AilmentName } from './ailments';
import { injuryBlock, type InjuryBlock, type Location } from './location';
import type { D100Options } from './options';

/**
 * Injuries from Heavy wounds (d100-combat-rules.txt, "Wounds and Injury"): the Injury depends on
 * the location and on the Heavy wounds left after the loss; a location holds one Injury, a newer one
 * replacing the older; each row carries the effects of the rows above it.
 */
export interface InjuryDef {
  readonly name: string;
  readonly title: string;
  /** 0 for the "3+ left" row down to 3 for the "0 left" row. */
  readonly level: number;
  /** The tests its Disadvantage falls on. */
  readonly disadvantageOn: string;
  /** What happens at once when it is taken. */
  readonly immediate: readonly ('prone' | 'blood-loss-once' | 'blood-loss' | `ailment:${AilmentName}`)[];
}

const row = (name: string, title: string, level: number, disadvantageOn: string, immediate: InjuryDef['immediate'] = []): InjuryDef => ({ name, title, level, disadvantageOn, immediate });

export const INJURIES: Readonly<Record<InjuryBlock, readonly InjuryDef[]>> = {
  head: [
    row('disorientation', 'Disorientation', 0, 'Intelligence, Perception and Fellowship tests'),
    row('concussion', 'Concussion', 1, 'Intelligence, Perception and Fellowship tests', ['ailment:stunned']),
    row('fracture', 'Fracture', 2, 'Intelligence, Perception and Fellowship tests', ['ailment:confused', 'blood-loss-once']),
    row('blinded', 'Blinded', 3, 'Intelligence, Perception and Fellowship tests'),
  ],
  body: [
    row('winded', 'Winded', 0, 'Strength and Toughness tests'),
    row('bruised-rib', 'Bruised Rib', 1, 'Strength and Toughness tests'),
    row('cracked', 'Cracked', 2, 'Strength and Toughness tests', ['blood-loss-once']),
    row('puncture', 'Puncture', 3, 'Strength and Toughness tests', ['blood-loss']),
  ],
  arm: [
    row('hand-agony', 'Hand Agony', 0, 'attack and Parry tests with this hand'),
    row('broken-fingers', 'Broken Fingers', 1, 'attack and Parry tests with this hand'),
    row('broken-wrist', 'Broken Wrist', 2, 'attack and Parry tests with this hand'),
    row('broken-arm', 'Broken Arm', 3, 'attack and Parry tests with this hand'),
  ],
  leg: [
    row('foot-pain', 'Foot Pain', 0, 'Agility tests'),
    row('broken-toes', 'Broken Toes', 1, 'Agility tests', ['prone']),
    row('broken-foot', 'Broken Foot', 2, 'Agility tests'),
    row('broken-leg', 'Broken Leg', 3, 'Agility tests', ['prone']),
  ],
};

/** The row for the Heavy wounds left after the loss: 3 or more, 2, 1, 0. */
export function injuryFor(location: Location, heavyLeft: number): InjuryDef {
  const level = heavyLeft >= 3 ? 0 : 3 - Math.max(0, heavyLeft);
  return INJURIES[injuryBlock(location)][level]!;
}

export interface Injury {
  readonly location: Location;
  readonly name: string;
  readonly level: number;
}

/** Disadvantages an Injury gives on its tests (option `injuryDisadvantage`: once, or once per row carried). */
export function injuryDisadvantages(injury: Injury, options: Pick<D100Options, 'injuryDisadvantage'>): number {
  return options.injuryDisadvantage === 'one-per-row' ? injury.level + 1 : 1;
}

/** Whether a body Injury at Bruised Rib or worse adds a wound whenever wounds are taken. */
export function hasBruisedRib(injuries: readonly Injury[]): boolean {
  return injuries.some((i) => i.location === 'body' && i.level >= 1);
}
