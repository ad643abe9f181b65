import { z } from 'zod';
import { BonusDiceSchema, bonusDice } from './bonus-dice';
import { BonusResultSchema, bonusResult } from './bonus-result';
import { CriticalSpendSchema, criticalSpend } from './critical-spend';
import { DescribedSchema, described } from './described';
import { emptySideParts, type EffectContext, type EffectType, type SideParts, type UpgradeOptions } from './effect';
import { MisdirectionSchema, TauntSchema, misdirection, taunt } from './follow-up';
import { ExtraHitsBeforeInjuredSchema, ExtraHitsSchema, extraHits, extraHitsBeforeInjured } from './extra-hits';
import { IgnoreAttackerDiceSchema, ignoreAttackerDice } from './ignore-attacker-dice';
import { ForceRerollSchema, RerollSchema, forceReroll, reroll } from './reroll';
import { scopeCovers, scopeText, type EffectScope, type ScopeKind, type SideRole } from './scope';
import { SteerSchema, steer } from './steer';

/**
 * The mechanical effects a special ability (or exceptional gear) can have: one module per type, each
 * with its schema, its words, its upgrades, what it does to a side and to the odds.
 * personae-core-2011.txt "What Special Abilities Can Do" lists these kinds; an ability with no
 * mechanical rating is `described`.
 */
export const AbilityEffectSchema = z.discriminatedUnion('type', [
  BonusResultSchema,
  BonusDiceSchema,
  RerollSchema,
  ForceRerollSchema,
  ExtraHitsSchema,
  ExtraHitsBeforeInjuredSchema,
  IgnoreAttackerDiceSchema,
  SteerSchema,
  CriticalSpendSchema,
  TauntSchema,
  MisdirectionSchema,
  DescribedSchema,
]);
export type AbilityEffect = z.infer<typeof AbilityEffectSchema>;
export type EffectTypeName = AbilityEffect['type'];

/** Every effect type by name: the compiler checks each type in the schema has its module. */
export const EFFECTS: { readonly [K in EffectTypeName]: EffectType<Extract<AbilityEffect, { type: K }>> } = {
  'bonus-result': bonusResult,
  'bonus-dice': bonusDice,
  reroll,
  'force-reroll': forceReroll,
  'extra-hits': extraHits,
  'extra-hits-before-injured': extraHitsBeforeInjured,
  'ignore-attacker-dice': ignoreAttackerDice,
  steer,
  'critical-spend': criticalSpend,
  taunt,
  misdirection,
  described,
};

/** The effect types in the order menus list them. */
export const EFFECT_TYPES: readonly EffectTypeName[] = [
  'described',
  'bonus-result',
  'bonus-dice',
  'reroll',
  'force-reroll',
  'extra-hits',
  'extra-hits-before-injured',
  'ignore-attacker-dice',
  'steer',
  'critical-spend',
  'taunt',
  'misdirection',
];

function typeOf<E extends AbilityEffect>(effect: E): EffectType<E> {
  return EFFECTS[effect.type] as unknown as EffectType<E>;
}

/** What an effect does, in words (the one wording every screen uses). */
export function describeEffect(effect: AbilityEffect): string {
  return typeOf(effect).describe(effect);
}

/** The words and, where it has one, the scope: "+1 to the result (Spear only)". */
export function describeEffectWithScope(effect: AbilityEffect): string {
  const scope = effectScope(effect);
  return scope ? `${describeEffect(effect)} (${scopeText(scope)})` : describeEffect(effect);
}

/** The upgrades an effect's size takes under personae-core-2011.txt "The Framework of Advancement". */
export function effectUpgrades(effect: AbilityEffect, options: UpgradeOptions): number {
  return typeOf(effect).upgrades(effect, options);
}

/** The size a builder edits (dice, amount, hits, steps), 1 when the effect has none. */
export function effectSize(effect: AbilityEffect): number {
  return typeOf(effect).size?.get(effect) ?? 1;
}

export function effectScope(effect: AbilityEffect): EffectScope | undefined {
  return 'scope' in effect ? effect.scope : undefined;
}

/** Whether an effect's scope covers this challenge (personae-core-2011.txt "What Special Abilities Can Do"). */
export function effectInScope(effect: AbilityEffect, skill: string, kind: ScopeKind, role: SideRole): boolean {
  return scopeCovers(effectScope(effect), skill, kind, role);
}

/** Whether an effect does anything for this side of this challenge (its scope aside). */
export function effectChangesRoll(effect: AbilityEffect, ctx: EffectContext): boolean {
  return typeOf(effect).changesRoll(effect, ctx);
}

/** Adds every effect that does something for this side of this challenge, each labelled with its source. */
export function applyEffects(active: readonly { readonly effect: AbilityEffect; readonly source: string }[], ctx: EffectContext): SideParts {
  const side = emptySideParts();
  for (const { effect, source } of active) {
    const t = typeOf(effect);
    if (t.changesRoll(effect, ctx)) t.apply(effect, source, ctx, side);
  }
  return side;
}

export { RerollKeepSchema, type RerollKeep } from '../challenge/reroll-keep';
export { emptySideParts, type EffectContext, type EffectType, type SideParts, type UpgradeOptions } from './effect';
export { formatLabeled, formatValue, sumLabeled, type Labeled } from './labeled';
export { EffectScopeSchema, scopeCovers, scopeText, type EffectScope, type ScopeKind, type SideRole } from './scope';
