import { z } from 'zod';

/**
 * The mechanical effects a special ability (or exceptional gear) can have, as the challenge engine
 * applies them. personae-core-2011.txt "What Special Abilities Can Do" lists these kinds; an
 * ability with no mechanical rating is `described`.
 */
export const RerollKeepSchema = z.enum(['second', 'better']);
export type RerollKeep = z.infer<typeof RerollKeepSchema>;

/** Which challenges an effect applies to. Empty lists mean "any". */
export const EffectScopeSchema = z.strictObject({
  /** Skill names the effect works with (case-insensitive); empty or absent: any skill. */
  skills: z.array(z.string().min(1)).optional(),
  /** Kinds of challenge: attack, power, interaction, recovery, other. Absent: any. */
  challenges: z.array(z.enum(['attack', 'power', 'interaction', 'recovery', 'other'])).optional(),
  /** Whether it works when issuing (actor), answering (reactor), or both. */
  role: z.enum(['issue', 'answer', 'both']).default('both'),
});
export type EffectScope = z.infer<typeof EffectScopeSchema>;

const dice = z.number().int().min(1).max(10);

export const AbilityEffectSchema = z.discriminatedUnion('type', [
  /** Add to the result of the roll, along with the attribute ("[Skill] Training"). */
  z.strictObject({ type: z.literal('bonus-result'), amount: z.number().int().min(1).max(20), scope: EffectScopeSchema.optional() }),
  /** Roll extra dice ("Expert [Skill]"). */
  z.strictObject({ type: z.literal('bonus-dice'), dice, scope: EffectScopeSchema.optional() }),
  /** Reroll some of your own dice before the result is read ("[Skill] Focus"). */
  z.strictObject({
    type: z.literal('reroll'),
    dice,
    keep: RerollKeepSchema.default('second'),
    mayTouchHighest: z.boolean().default(false),
    scope: EffectScopeSchema.optional(),
  }),
  /** Make the opponent reroll some of their dice ("Misdirection"). */
  z.strictObject({
    type: z.literal('force-reroll'),
    dice,
    keep: RerollKeepSchema.default('second'),
    mayTouchHighest: z.boolean().default(false),
    scope: EffectScopeSchema.optional(),
  }),
  /** More hits on a successful attack ("Brutal [weapon] Strike"). */
  z.strictObject({ type: z.literal('extra-hits'), hits: z.number().int().min(1).max(20), scope: EffectScopeSchema.optional() }),
  /** More hits before Injured (e.g. a culture ability such as an iron constitution). Always in effect. */
  z.strictObject({ type: z.literal('extra-hits-before-injured'), hits: z.number().int().min(1).max(20) }),
  /** Armor: ignore some of the attacker's dice in an attack challenge, after rerolls. */
  z.strictObject({ type: z.literal('ignore-attacker-dice'), dice }),
  /** Steer the result one or more grades (srd-v4 "Clear Success, Glancing Success, and Steering"). */
  z.strictObject({ type: z.literal('steer'), steps: z.number().int().min(1).max(2), scope: EffectScopeSchema.optional() }),
  /** Spend criticals for a feat ("Horrific Wound": the target becomes Injured at once). */
  z.strictObject({
    type: z.literal('critical-spend'),
    cost: z.number().int().min(1).max(10).default(1),
    feat: z.enum(['injure-outright', 'automatic-success', 'extra-hits', 'bonus-result']),
    amount: z.number().int().min(1).max(20).optional(),
    scope: EffectScopeSchema.optional(),
  }),
  /** A benefit agreed at the table with no mechanics for the engine to apply. */
  z.strictObject({ type: z.literal('described') }),
]);
export type AbilityEffect = z.infer<typeof AbilityEffectSchema>;

/** A labelled number: every modifier and every die added or removed says where it came from. */
export interface Labeled {
  readonly value: number;
  readonly source: string;
}

export function sumLabeled(items: readonly Labeled[]): number {
  return items.reduce((total, item) => total + item.value, 0);
}

/** "+3 Stature", "-1 die Injured" */
export function formatLabeled(item: Labeled, unit = ''): string {
  const sign = item.value >= 0 ? '+' : '-';
  const n = Math.abs(item.value);
  const u = unit === 'die' ? (n === 1 ? ' die' : ' dice') : unit;
  return `${sign}${n}${u} ${item.source}`;
}
