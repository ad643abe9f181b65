import { RuleError } from '@personae/core';
import { AILMENTS, type AilmentName } from './ailments';
import { bonus, type Fighter, type Resource } from './fighter';
import type { D100Options } from './options';
import { ruleCitation } from './rules';
import { restoreLight } from './wounds';

/** The Fate Point spends (d100-combat-rules.txt, "Fate Points"), one point each. */
export const FATE_SPENDS = ['advantage', 'reroll', 'restore-light', 'remove-ailment', 'block-heavy', 'revive-persona', 'restore-resource', 'ignore-injury'] as const;
export type FateSpend = (typeof FATE_SPENDS)[number];

/** Advantages one Fate Point buys on a test (option fatePointAdvantages). */
export function fateAdvantages(options: Pick<D100Options, 'fatePointAdvantages'>): number {
  return options.fatePointAdvantages === 'two-advantages' ? 2 : 1;
}

/**
 * Block Heavy Wound: how many Heavy wounds `f` blocks on a hit it takes, the `given` ones for this hit
 * first, then those its player declared ahead (`Conditions.blockHeavy`), no more than its Fate Points.
 */
export function blocksOnHit(f: Fighter, given = 0): number {
  return Math.min(given + (f.conditions.blockHeavy ?? 0), f.fate.current);
}

/** `f` after spending `spent` Fate Points blocking Heavy wounds: the points, and the declaration counted down past the `given` ones. */
export function afterBlocking(f: Fighter, spent: number, given = 0): Fighter {
  const declared = f.conditions.blockHeavy ?? 0;
  const fromDeclared = Math.min(declared, Math.max(0, spent - given));
  return { ...f, fate: { ...f.fate, current: f.fate.current - spent }, ...(fromDeclared ? { conditions: { ...f.conditions, blockHeavy: declared - fromDeclared } } : {}) };
}

function spendOne(f: Fighter, what: string): Fighter {
  if (f.fate.current < 1) throw new RuleError('no-fate-points', `${f.name} has no Fate Point left to ${what}`, 'fate.current', ruleCitation('fatePoints'));
  return { ...f, fate: { ...f.fate, current: f.fate.current - 1 } };
}

/** Restore Light Wounds: as many as the Realisation Bonus, up to the track's maximum. */
export function spendRestoreLight(f: Fighter): Fighter {
  const g = spendOne(f, 'restore Light wounds');
  return { ...g, tracks: restoreLight(g.tracks, bonus(g.realisation)) };
}

/** Remove Ailment: one of the spender's own ailments. */
export function spendRemoveAilment(f: Fighter, name: AilmentName): Fighter {
  if (!f.ailments.some((a) => a.name === name)) throw new RuleError('no-such-ailment', `${f.name} does not suffer ${AILMENTS[name].title}`, 'ailment', ruleCitation('fatePoints'));
  const g = spendOne(f, 'remove an ailment');
  return { ...g, ailments: g.ailments.filter((a) => a.name !== name) };
}

/** Revive Broken Persona: back with one wound. */
export function spendRevivePersona(f: Fighter): Fighter {
  if (!f.persona || f.persona.wounds > 0) throw new RuleError('persona-not-broken', `${f.name} has no broken Persona to revive`, 'persona', ruleCitation('fatePoints'));
  const g = spendOne(f, 'revive a Persona');
  return { ...g, persona: { ...f.persona, wounds: 1 } };
}

/** The pool refills to the Realisation Bonus at the start of each week (option fatePointsPerWeek). */
export function weeklyRefresh(f: Fighter, options: Pick<D100Options, 'fatePointsPerWeek'>): Fighter {
  if (!options.fatePointsPerWeek) return f;
  const max = bonus(f.realisation);
  return { ...f, fate: { current: max, max } };
}

/** Restore Exertion or Spirit: as much as the Realisation Bonus, up to the pool's maximum. */
export function spendRestoreResource(f: Fighter, resource: Resource): Fighter {
  const g = spendOne(f, `restore ${resource}`);
  const pool = g.resources[resource];
  return { ...g, resources: { ...g.resources, [resource]: { ...pool, current: Math.min(pool.max, pool.current + bonus(g.realisation)) } } };
}

/** Spends Spirit or Exertion (a Power's cost, as the GM rules it); more than is left is refused. */
export function useResource(f: Fighter, resource: Resource, amount: number): Fighter {
  const pool = f.resources[resource];
  if (amount > pool.current) throw new RuleError('not-enough-' + resource, `amount: ${amount} is more than ${f.name}'s ${resource} left (${pool.current} of ${pool.max})`, 'amount', ruleCitation('fatePoints'));
  return { ...f, resources: { ...f.resources, [resource]: { ...pool, current: pool.current - amount } } };
}

/** Spends a point for a benefit the engine records but the table applies (a reroll, an Advantage). */
export function spendPoint(f: Fighter, spend: FateSpend): Fighter {
  return spendOne(f, spend.replace('-', ' '));
}
