import { z } from 'zod';
import type { EffectType } from './effect';
import { EffectScopeSchema } from './scope';

/** Add to the result of the roll, along with the attribute ("[Skill] Training"; personae-core-2011.txt "What Special Abilities Can Do"). */
export const BonusResultSchema = z.strictObject({ type: z.literal('bonus-result'), amount: z.number().int().min(1).max(20), scope: EffectScopeSchema.optional() });
export type BonusResult = z.infer<typeof BonusResultSchema>;

export const bonusResult: EffectType<BonusResult> = {
  type: 'bonus-result',
  schema: BonusResultSchema,
  label: '+ to the result',
  describe: (e) => `+${e.amount} to the result`,
  upgrades: (e) => e.amount - 1,
  size: { get: (e) => e.amount, max: 10 },
  changesRoll: () => true,
  apply: (e, source, _ctx, side) => void side.modifiers.push({ value: e.amount, source }),
  odds: 'result',
};
