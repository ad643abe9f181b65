import { z } from 'zod';
import type { EffectType } from './effect';

/** Armor: ignore some of the attacker's dice in an attack challenge, after rerolls (personae-core-2011.txt "Armor"). */
export const IgnoreAttackerDiceSchema = z.strictObject({ type: z.literal('ignore-attacker-dice'), dice: z.number().int().min(1).max(10) });
export type IgnoreAttackerDice = z.infer<typeof IgnoreAttackerDiceSchema>;

export const ignoreAttackerDice: EffectType<IgnoreAttackerDice> = {
  type: 'ignore-attacker-dice',
  schema: IgnoreAttackerDiceSchema,
  label: "Ignore attacker's dice (armor)",
  describe: (e) => `ignores ${e.dice} of the attacker's dice, as armor does`,
  upgrades: (e) => e.dice - 1,
  size: { get: (e) => e.dice, max: 10 },
  changesRoll: (_e, ctx) => ctx.answeringAttack,
  apply: (e, source, _ctx, side) => void side.ignoreOpponentDice.push({ value: e.dice, source }),
  odds: 'armor',
};
