import type { AilmentName } from './ailments';
import { injuryBlock, type InjuryBlock, type Location } from './location';
import type { D100Options } from './options';
import type { Score } from './scores';

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

/**
 * Whether a body Injury at Bruised Rib or worse adds a wound whenever wounds are taken ("Wounds and
 * Injury"); not while a Fate Point has the body Injury ignored this Round ("Fate Points", Ignore Injury).
 */
export function hasBruisedRib(injuries: readonly Injury[], ignored: readonly Location[]): boolean {
  return !ignored.includes('body') && injuries.some((i) => i.location === 'body' && i.level >= 1);
}

/** What a test is, for the Injuries whose Disadvantage falls on it. */
export interface TestKind {
  /** The Score the test uses. */
  readonly score?: Score;
  /** An attack or Parry made with this hand (the arm Injuries). */
  readonly hand?: 'right' | 'left';
}

const BLOCK_SCORES: Readonly<Record<Exclude<InjuryBlock, 'arm'>, readonly Score[]>> = {
  head: ['intelligence', 'perception', 'fellowship'],
  body: ['strength', 'toughness'],
  leg: ['agility'],
};

/**
 * The Disadvantages a character's Injuries give a test ("Wounds and Injury"): head Injuries on
 * Intelligence, Perception and Fellowship tests, body ones on Strength and Toughness, leg ones on
 * Agility, an arm's on attacks and Parries with that hand. Locations whose Injury a Fate Point
 * ignores this Round give none.
 */
export function injuryTestDisadvantages(injuries: readonly Injury[], ignored: readonly Location[], test: TestKind, options: Pick<D100Options, 'injuryDisadvantage'>): { label: string; count: number }[] {
  const out: { label: string; count: number }[] = [];
  for (const i of injuries) {
    if (ignored.includes(i.location)) continue;
    const block = injuryBlock(i.location);
    const applies = block === 'arm' ? test.hand !== undefined && i.location === `${test.hand}-arm` : test.score !== undefined && BLOCK_SCORES[block].includes(test.score);
    if (!applies) continue;
    const def = INJURIES[block][i.level]!;
    out.push({ label: `${def.title} (${i.location})`, count: injuryDisadvantages(i, options) });
  }
  return out;
}

/**
 * Stress an Injury adds as the character acts ("Wounds and Injury"): Broken Toes or worse, 1 per
 * Move; Broken Fingers or worse, 5 each time that hand is used; Cracked or worse, the DoF of a failed
 * test. Injuries a Fate Point ignores this Round add none.
 */
export function injuryStress(injuries: readonly Injury[], ignored: readonly Location[], act: { move?: boolean; hand?: 'right' | 'left'; failedBy?: number }): number {
  let stress = 0;
  for (const i of injuries) {
    if (ignored.includes(i.location)) continue;
    const block = injuryBlock(i.location);
    if (act.move && block === 'leg' && i.level >= 1) stress += 1;
    if (act.hand && i.location === `${act.hand}-arm` && i.level >= 1) stress += 5;
    if (act.failedBy !== undefined && block === 'body' && i.level >= 2) stress += act.failedBy;
  }
  return stress;
}

/**
 * Puncture ("Wounds and Injury"): first aid may stop its Blood Loss, but whenever the character takes
 * Stress afterwards the bleeding returns (not while a Fate Point has the Injury ignored).
 */
export function bleedingReturns(injuries: readonly Injury[], ignored: readonly Location[]): boolean {
  return injuries.some((i) => i.location === 'body' && i.level >= 3 && !ignored.includes('body'));
}

/** Broken Arm: that arm can no longer carry or attack. */
export function armDisabled(injuries: readonly Injury[], ignored: readonly Location[], hand: 'right' | 'left'): boolean {
  return injuries.some((i) => i.location === `${hand}-arm` && i.level >= 3 && !ignored.includes(i.location));
}

/**
 * The Injuries left after Heavy wounds are restored (d100-combat-rules.txt, "Wounds and Injury";
 * option `injuryDuration`, C7): all of them end once the Heavy track is full; or each Heavy wound
 * restored ends the latest Injury still in place; or restoring changes nothing, and only rest or
 * medical attention (`treatInjuries`) ends them.
 */
export function injuriesAfterRestoring(injuries: readonly Injury[], heavyRestored: number, heavyFull: boolean, options: Pick<D100Options, 'injuryDuration'>): readonly Injury[] {
  switch (options.injuryDuration) {
    case 'all-heavy-restored':
      return heavyFull ? [] : injuries;
    case 'that-heavy-restored':
      return injuries.slice(0, Math.max(0, injuries.length - heavyRestored));
    case 'rest-or-medical':
      return injuries;
  }
}

/** Rest or medical attention ends every Injury under injuryDuration=rest-or-medical; under the other readings only restored Heavy wounds do. */
export function treatInjuries(injuries: readonly Injury[], options: Pick<D100Options, 'injuryDuration'>): readonly Injury[] {
  return options.injuryDuration === 'rest-or-medical' ? [] : injuries;
}
