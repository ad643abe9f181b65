import { z } from 'zod';
import { plural, type EffectType } from './effect';
import { EffectScopeSchema } from './scope';

/** Steer the result one or more grades (personae-v4-srd-playing.txt "Clear Success, Glancing Success, and Steering"). */
export const SteerSchema = z.strictObject({ type: z.literal('steer'), steps: z.number().int().min(1).max(2), scope: EffectScopeSchema.optional() });
export type Steer = z.infer<typeof SteerSchema>;

export const steer: EffectType<Steer> = {
  type: 'steer',
  schema: SteerSchema,
  label: 'Steer the grade',
  describe: (e) => `steers the result ${plural(e.steps, 'grade')}`,
  upgrades: (e) => e.steps - 1,
  size: { get: (e) => e.steps, max: 2 },
  changesRoll: (_e, ctx) => ctx.role === 'issue',
  apply: (e, source, _ctx, side) => void side.steer.push({ value: e.steps, source }),
  odds: 'grade',
};
