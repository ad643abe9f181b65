import { z } from 'zod';
import type { EffectType } from './effect';

/** A benefit agreed at the table with no mechanics for the engine to apply. */
export const DescribedSchema = z.strictObject({ type: z.literal('described') });
export type Described = z.infer<typeof DescribedSchema>;

export const described: EffectType<Described> = {
  type: 'described',
  schema: DescribedSchema,
  label: 'Described (no rolled effect)',
  describe: () => 'no effect on the dice (described)',
  upgrades: () => 0,
  changesRoll: () => false,
  apply: () => undefined,
  odds: 'none',
};
