import { RuleError } from '@personae/core';
import { bonus, toughness, type Conditions, type Fighter } from './fighter';
import type { D100Options } from './options';
import { ruleCitation } from './rules';
import type { TestResult } from './test';
import { afterBlocking, blocksOnHit } from './fate';
import { takeInjuries } from './attack';
import { applyWounds, isOut } from './wounds';
import { hasBruisedRib } from './injuries';

/**
 * Special conditions (d100-combat-rules.txt, "Special Conditions"): Blood Loss, Fatigue and
 * Exhaustion (see fighter.ts), Score Decay, Miasma and grappling.
 */

/** The two tests the seed allows a bleeder ("Blood Loss"), and their names. */
export type BloodLossTestName = NonNullable<Conditions['bleedingTest']>;
export const BLOOD_LOSS_TESTS: Readonly<Record<BloodLossTestName, string>> = { toughness: 'Toughness', endurance: 'Endurance (Injury)' };

/**
 * The Blood Loss test at the start of a bleeder's turn ("Blood Loss"): a failure costs a wound; out
 * of wounds (option bloodLossOutOfWounds) it costs Toughness decay of 1 plus the degrees of failure;
 * at Toughness 0 the bleeder loses a Heavy wound to the body each round instead, with its body Injury.
 * A Bruised Rib adds its wound to either ("Wounds and Injury"). A Heavy wound lost so is blocked by a
 * Fate Point when the bleeder's player has declared blocks ("Fate Points", Block Heavy Wound).
 */
export function bloodLossTest(f: Fighter, test: TestResult, options: D100Options): { fighter: Fighter; lost: 'none' | 'wound' | 'decay' | 'heavy'; decay: number; fateSpent: number } {
  if (!f.conditions.bloodLoss || test.success) return { fighter: f, lost: 'none', decay: 0, fateSpent: 0 };
  const wound = (lost: 'wound' | 'heavy') => {
    const blocks = blocksOnHit(f);
    const first = lost === 'heavy' ? applyWounds(f.tracks, 0, 1, { savageSeverity: 'above-light' }, blocks) : applyWounds(f.tracks, 1, 0, options, blocks);
    // "Wounds and Injury", Bruised Rib: a wound taken for whatever cause brings one more with it
    const extra = applyWounds(first.tracks, hasBruisedRib(f.injuries, f.injuriesIgnored) ? 1 : 0, 0, options, blocks - first.fateSpent);
    const losses = [...first.losses, ...extra.losses];
    const fateSpent = first.fateSpent + extra.fateSpent;
    let fighter: Fighter = { ...afterBlocking(f, fateSpent), tracks: extra.tracks, stress: f.stress + first.stress + extra.stress };
    // "Blood Loss": at Toughness 0 the Heavy wound is one "to the body", so, like any Heavy wound, it
    // gives the body Injury for the Heavy wounds left ("Wounds and Injury"); a Heavy wound the bleeding
    // costs otherwise has no location in the seed (option bloodLossInjury)
    if (lost === 'heavy' || options.bloodLossInjury === 'body') fighter = takeInjuries(fighter, 'body', f.tracks.left.heavy, losses, options).fighter;
    return { fighter: isOut(extra.tracks) ? { ...fighter, out: true, dead: options.deadlyWound === 'dead' } : fighter, lost, decay: 0, fateSpent };
  };
  if (toughness(f) === 0) return wound('heavy');
  const outOfWounds = options.bloodLossOutOfWounds === 'no-light-left' ? f.tracks.left.light === 0 : f.tracks.left.light + f.tracks.left.heavy === 0;
  if (!outOfWounds) return wound('wound');
  const wanted = 1 + test.degreesOfFailure;
  const floor = options.bloodLossToughness === 'floor-one' ? 1 : 0;
  const decay = Math.max(0, Math.min(wanted, toughness(f) - floor));
  return { fighter: decayScore(f, decay), lost: 'decay', decay, fateSpent: 0 };
}

function decayScore(f: Fighter, amount: number): Fighter {
  return { ...f, conditions: { ...f.conditions, toughnessDecay: f.conditions.toughnessDecay + amount } };
}

/**
 * Toughness decay from other sources ("Score Decay"): never below 1; a decay that would go further
 * leaves the character non-functional for a week.
 */
export function scoreDecay(f: Fighter, amount: number): { fighter: Fighter; nonFunctional: boolean } {
  if (!Number.isInteger(amount) || amount < 0) throw new RuleError('bad-decay', `decay: ${amount} is not a whole number from 0`, 'decay', ruleCitation('scoreDecay'));
  const room = toughness(f) - 1;
  return { fighter: decayScore(f, Math.max(0, Math.min(amount, room))), nonFunctional: amount > room };
}

/** Stress from a failed Willpower test each battle round without a Persona in the Sea of Chaos ("Unprotected from Miasma"). */
export function miasmaStress(f: Fighter, growthRate: number, willpowerTest: TestResult): number {
  if (f.persona && f.persona.wounds > 0) return 0;
  return willpowerTest.success ? 0 : growthRate;
}

/** Suffocation ("Special Conditions"): breath lasts the Toughness Bonus in minutes (conserving) or rounds (strenuous). */
export function breathHeld(f: Fighter): number {
  return bonus(toughness(f));
}

/** A failed suffocation test costs 1 Stress plus 1 per degree of failure. */
export function suffocationStress(test: TestResult): number {
  return test.success ? 0 : 1 + test.degreesOfFailure;
}
