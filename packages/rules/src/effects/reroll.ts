import { z } from 'zod';
import { RerollKeepSchema } from '../challenge/reroll-keep';
import { plural, type EffectType, type UpgradeOptions } from './effect';
import { EffectScopeSchema } from './scope';

/** What a reroll names: how many dice, which result is kept, whether the highest die may be chosen. */
export const rerollFields = {
  dice: z.number().int().min(1).max(10),
  keep: RerollKeepSchema.default('second'),
  mayTouchHighest: z.boolean().default(false),
  scope: EffectScopeSchema.optional(),
};

/** Reroll some of your own dice before the result is read ("[Skill] Focus"; personae-core-2011.txt "What Special Abilities Can Do"). */
export const RerollSchema = z.strictObject({ type: z.literal('reroll'), ...rerollFields });
export type Reroll = z.infer<typeof RerollSchema>;

/** Make the opponent reroll some of their dice ("Misdirection"). */
export const ForceRerollSchema = z.strictObject({ type: z.literal('force-reroll'), ...rerollFields });
export type ForceReroll = z.infer<typeof ForceRerollSchema>;

/**
 * personae-core-2011.txt "The Framework of Advancement": one die per upgrade beyond the first, one
 * more to keep the better result where the table's default keeps the second, one more to touch the highest die.
 */
export function rerollUpgrades(e: { dice: number; keep: 'second' | 'better'; mayTouchHighest: boolean }, options: UpgradeOptions): number {
  return e.dice - 1 + (e.keep === 'better' && options.rerollDefault === 'second' ? 1 : 0) + (e.mayTouchHighest ? 1 : 0);
}

export const reroll: EffectType<Reroll> = {
  type: 'reroll',
  schema: RerollSchema,
  label: 'Reroll own dice',
  describe: (e) => `rerolls ${plural(e.dice, 'die', 'dice')}${e.mayTouchHighest ? '' : ' below the highest'}, keeping the ${e.keep === 'better' ? 'better' : 'second'} result`,
  upgrades: rerollUpgrades,
  size: { get: (e) => e.dice, max: 10 },
  changesRoll: () => true,
  apply: (e, source, _ctx, side) => void side.rerolls.push({ dice: e.dice, keep: e.keep, mayTouchHighest: e.mayTouchHighest, source }),
  odds: 'rerolls',
};

export const forceReroll: EffectType<ForceReroll> = {
  type: 'force-reroll',
  schema: ForceRerollSchema,
  label: 'Opponent rerolls',
  describe: (e) => `makes the opponent reroll ${plural(e.dice, 'die', 'dice')}${e.mayTouchHighest ? '' : ' below the highest'}, keeping the ${e.keep === 'better' ? 'better' : 'second'} result`,
  upgrades: rerollUpgrades,
  size: { get: (e) => e.dice, max: 10 },
  changesRoll: () => true,
  apply: (e, source, _ctx, side) => void side.forceRerolls.push({ dice: e.dice, keep: e.keep, mayTouchHighest: e.mayTouchHighest, source }),
  odds: 'rerolls',
};
