import { z } from 'zod';
import { plural, type EffectType } from './effect';
import { EffectScopeSchema } from './scope';

/** Roll extra dice ("Expert [Skill]"; personae-core-2011.txt "What Special Abilities Can Do"). */
export const BonusDiceSchema = z.strictObject({ type: z.literal('bonus-dice'), dice: z.number().int().min(1).max(10), scope: EffectScopeSchema.optional() });
export type BonusDice = z.infer<typeof BonusDiceSchema>;

export const bonusDice: EffectType<BonusDice> = {
  type: 'bonus-dice',
  schema: BonusDiceSchema,
  label: '+ dice',
  describe: (e) => `+${plural(e.dice, 'die', 'dice')}`,
  upgrades: (e) => e.dice - 1,
  size: { get: (e) => e.dice, max: 10 },
  changesRoll: () => true,
  apply: (e, source, _ctx, side) => void side.bonusDice.push({ value: e.dice, source }),
  odds: 'pool',
};
