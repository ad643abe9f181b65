import { z } from 'zod';
import { plural, type EffectType } from './effect';
import { EffectScopeSchema } from './scope';

/** More hits on a successful attack ("Brutal [weapon] Strike"; personae-core-2011.txt "What Special Abilities Can Do"). */
export const ExtraHitsSchema = z.strictObject({ type: z.literal('extra-hits'), hits: z.number().int().min(1).max(20), scope: EffectScopeSchema.optional() });
export type ExtraHits = z.infer<typeof ExtraHitsSchema>;

/** More hits before Injured (a culture ability such as an iron constitution). Always in effect, on no roll. */
export const ExtraHitsBeforeInjuredSchema = z.strictObject({ type: z.literal('extra-hits-before-injured'), hits: z.number().int().min(1).max(20) });
export type ExtraHitsBeforeInjured = z.infer<typeof ExtraHitsBeforeInjuredSchema>;

export const extraHits: EffectType<ExtraHits> = {
  type: 'extra-hits',
  schema: ExtraHitsSchema,
  label: 'Extra hits on an attack',
  describe: (e) => `+${plural(e.hits, 'hit')} if the attack succeeds`,
  upgrades: (e) => e.hits - 1,
  size: { get: (e) => e.hits, max: 10 },
  // Only the side issuing an attack or a harmful power inflicts hits.
  changesRoll: (_e, ctx) => ctx.role === 'issue' && (ctx.kind === 'attack' || ctx.kind === 'power'),
  apply: (e, source, _ctx, side) => void side.extraHits.push({ value: e.hits, source }),
  odds: 'none',
};

export const extraHitsBeforeInjured: EffectType<ExtraHitsBeforeInjured> = {
  type: 'extra-hits-before-injured',
  schema: ExtraHitsBeforeInjuredSchema,
  label: 'Extra hits before Injured',
  describe: (e) => `${plural(e.hits, 'more hit', 'more hits')} before Injured`,
  upgrades: (e) => e.hits - 1,
  size: { get: (e) => e.hits, max: 10 },
  changesRoll: () => false,
  apply: () => undefined,
  odds: 'none',
};
