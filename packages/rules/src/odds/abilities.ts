import type { RerollSpec } from '../challenge/reroll';
import type { OddsSide } from './types';

/** One reroll ability as it lands on a pool. */
export interface RerollStep {
  readonly spec: RerollSpec;
  readonly kind: 'own' | 'forced';
}

/** What happens to one side's dice between the roll and the comparison, in order. */
export interface SideAbilities {
  readonly rerolls: readonly RerollStep[];
  /** Dice of this side the opponent's armor sets aside, after every reroll. */
  readonly ignored: number;
}

/**
 * The order the resolver applies abilities in (challenge/resolve.ts, prepareSides): the actor's own
 * rerolls, then the actor's forced rerolls on the reactor, then the reactor's own, then the reactor's
 * forced rerolls on the actor; armor last (personae-core-2011.txt "Armor": after rerolls). Each side's
 * final dice depend only on its own roll and the steps that land on it, so the sides stay independent.
 */
export function abilitiesOf(actor: OddsSide, reactor: OddsSide): { actor: SideAbilities; reactor: SideAbilities } {
  if (plainSide(actor) && plainSide(reactor)) return NONE;
  return {
    actor: { rerolls: [...own(actor), ...forced(reactor)], ignored: Math.max(0, reactor.ignoreOpponentDice ?? 0) },
    reactor: { rerolls: [...forced(actor), ...own(reactor)], ignored: Math.max(0, actor.ignoreOpponentDice ?? 0) },
  };
}

function own(s: OddsSide): RerollStep[] {
  return (s.rerolls ?? []).map((spec) => ({ spec, kind: 'own' }));
}

function forced(s: OddsSide): RerollStep[] {
  return (s.forceRerolls ?? []).map((spec) => ({ spec, kind: 'forced' }));
}

function plainSide(s: OddsSide): boolean {
  return !s.rerolls?.length && !s.forceRerolls?.length && !((s.ignoreOpponentDice ?? 0) > 0);
}

/** Both sides of a challenge without abilities (the common query, answered without building anything). */
const NONE: { actor: SideAbilities; reactor: SideAbilities } = Object.freeze({
  actor: Object.freeze({ rerolls: Object.freeze([]), ignored: 0 }),
  reactor: Object.freeze({ rerolls: Object.freeze([]), ignored: 0 }),
});

export function hasAbilities(a: SideAbilities): boolean {
  return a.rerolls.length > 0 || a.ignored > 0;
}
