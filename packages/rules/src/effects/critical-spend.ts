import { z } from 'zod';
import { plural, type EffectType } from './effect';
import { EffectScopeSchema } from './scope';

/** Spend criticals for a feat ("Horrific Wound": the target becomes Injured; personae-core-2011.txt "Critical Success"). */
export const CriticalSpendSchema = z.strictObject({
  type: z.literal('critical-spend'),
  cost: z.number().int().min(1).max(10).default(1),
  feat: z.enum(['injure-outright', 'automatic-success', 'extra-hits', 'bonus-result']),
  amount: z.number().int().min(1).max(20).optional(),
  scope: EffectScopeSchema.optional(),
});
export type CriticalSpend = z.infer<typeof CriticalSpendSchema>;

const FEAT: Record<CriticalSpend['feat'], (e: CriticalSpend) => string> = {
  'injure-outright': () => 'the target Injured',
  'automatic-success': () => 'an automatic success',
  'extra-hits': (e) => `+${plural(e.amount ?? 1, 'hit')}`,
  'bonus-result': (e) => `+${e.amount ?? 1} to the result`,
};

export const criticalSpend: EffectType<CriticalSpend> = {
  type: 'critical-spend',
  schema: CriticalSpendSchema,
  label: 'Spend criticals for a feat',
  describe: (e) => `spend ${plural(e.cost, 'critical')} for ${FEAT[e.feat](e)}`,
  upgrades: (e) => Math.max(0, (e.amount ?? 1) - 1),
  // Used by spending criticals, never chosen for a roll.
  changesRoll: () => false,
  apply: () => undefined,
  odds: 'none',
};
