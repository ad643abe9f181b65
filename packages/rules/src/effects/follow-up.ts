import { z } from 'zod';
import { plural, type EffectType } from './effect';
import { rerollFields, rerollUpgrades } from './reroll';
import { EffectScopeSchema } from './scope';

// Special abilities whose benefit is what follows a won Interaction Challenge, not the roll itself
// (personae-core-2011.txt "What Special Abilities Can Do": Taunt, Misdirection).

/**
 * Taunt: an Interaction Challenge won with it escalates the encounter to a violent one at once, and
 * the opponent immediately issues its taunter an Attack Challenge.
 */
export const TauntSchema = z.strictObject({ type: z.literal('taunt'), scope: EffectScopeSchema.optional() });
export type Taunt = z.infer<typeof TauntSchema>;

/**
 * Misdirection: an Interaction Challenge won with it lets its owner issue an immediate follow-up
 * challenge to the same opponent, who rerolls dice of its answer (by default one die, not the
 * highest, keeping the second result).
 */
export const MisdirectionSchema = z.strictObject({ type: z.literal('misdirection'), ...rerollFields });
export type Misdirection = z.infer<typeof MisdirectionSchema>;

export const taunt: EffectType<Taunt> = {
  type: 'taunt',
  schema: TauntSchema,
  label: 'Taunt (escalate, draw an attack)',
  describe: () => 'a won interaction escalates to a violent encounter, and the opponent attacks at once',
  upgrades: () => 0,
  // Its benefit follows the challenge; the dice of the interaction itself are untouched.
  changesRoll: () => false,
  apply: () => undefined,
  odds: 'none',
};

export const misdirection: EffectType<Misdirection> = {
  type: 'misdirection',
  schema: MisdirectionSchema,
  label: 'Misdirection (follow-up challenge)',
  describe: (e) =>
    `a won interaction allows an immediate follow-up challenge, whose answer rerolls ${plural(e.dice, 'die', 'dice')}${e.mayTouchHighest ? '' : ' below the highest'}, keeping the ${e.keep === 'better' ? 'better' : 'second'} result`,
  upgrades: rerollUpgrades,
  size: { get: (e) => e.dice, max: 10 },
  changesRoll: () => false,
  apply: () => undefined,
  odds: 'none',
};
